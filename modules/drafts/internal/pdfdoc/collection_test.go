package pdfdoc

import (
	"fmt"
	"strings"
	"testing"
)

// cidFontPDF is a one-page PDF showing shown (hex codes) in a composite
// font of Adobe-Korea1 with the given encoding CMap and no ToUnicode map.
func cidFontPDF(encoding, shown string) []byte {
	content := "BT /C1 12 Tf 1 0 0 1 50 700 Tm <" + shown + "> Tj ET"
	objects := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /C1 4 0 R >> >> /Contents 6 0 R >>",
		"<< /Type /Font /Subtype /Type0 /BaseFont /AppleSDGothicNeo-Regular /Encoding /" + encoding + " /DescendantFonts [5 0 R] >>",
		"<< /Type /Font /Subtype /CIDFontType0 /BaseFont /AppleSDGothicNeo-Regular " +
			"/CIDSystemInfo << /Registry (Adobe) /Ordering (Korea1) /Supplement 0 >> /DW 1000 >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content)+1, content),
	}
	var b strings.Builder
	b.WriteString("%PDF-1.4\n")
	offsets := make([]int, len(objects))
	for i, o := range objects {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objects)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objects)+1, xref)
	return []byte(b.String())
}

// A font of the Adobe-Korea1 collection without a ToUnicode map (as macOS
// writes AppleSDGothicNeo) is read through the collection's CID order.
func TestAKorea1FontWithoutToUnicodeIsReadByItsCIDs(t *testing.T) {
	// 안녕하세요, a space (CID 1), 세계: the CIDs bug1771477.pdf shows.
	file := cidFontPDF("Identity-H", "0989059e0cde08c10a03"+"0001"+"08c10485")
	if got := firstPageText(t, file); got != "안녕하세요 세계" {
		t.Fatalf("got %q, want the greeting", got)
	}
}

// With a predefined CMap other than Identity the codes are not CIDs, and
// nothing is guessed from them.
func TestCodesThroughAnUnreadCMapAreNotTakenForCIDs(t *testing.T) {
	if got := firstPageText(t, cidFontPDF("KSC-EUC-H", "0989059e")); got != "" {
		t.Fatalf("got %q, want nothing", got)
	}
}

func TestKorea1CIDsGiveTheirCharacters(t *testing.T) {
	cases := map[uint32]string{
		0:     "",       // .notdef
		34:    "A",      // ASCII
		101:   "\u3164", // a symbol Adobe maps apart from EUC-KR
		102:   "\u3001", // a KS X 1001 symbol
		1086:  "가",      // the first KS X 1001 syllable
		3435:  "힝",      // the last
		3436:  "",       // a Hanja: not mapped
		9333:  "갂",      // the first syllable outside KS X 1001
		18154: "힣",      // the last syllable
		18155: "",       // beyond the syllables
	}
	for cid, want := range cases {
		if got := korea1Text(cid); got != want {
			t.Errorf("CID %d = %q, want %q", cid, got, want)
		}
	}
}
