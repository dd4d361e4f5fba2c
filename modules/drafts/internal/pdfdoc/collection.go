package pdfdoc

import (
	"sync"
	"unicode/utf8"

	"github.com/ledongthuc/pdf"
	"golang.org/x/text/encoding/korean"
)

// collectionText gives the text of a CID for a composite font that names
// a registered character collection and has no ToUnicode map for it, as
// poppler reads such fonts: through the collection's own CID order. The
// font program cannot help there: a CID-keyed CFF font maps glyphs to
// CIDs, never to Unicode. It answers nil for a collection it does not map.
func collectionText(sysinfo pdf.Value) func(cid uint32) string {
	if sysinfo.Key("Registry").RawString() == "Adobe" && sysinfo.Key("Ordering").RawString() == "Korea1" {
		return korea1Text
	}
	return nil
}

// Adobe-Korea1's CIDs, worked out from KS X 1001 (x/text's EUC-KR) rather
// than stored as a table: 1-95 are ASCII; 101-1085 the KS X 1001 symbol
// rows, in the runs below; 1086-3435 the 2,350 Hangul syllables of KS X
// 1001, rows 0xB0-0xC8, 94 a row; 9333-18154 the other 8,822 syllables in
// Unicode order. Hanja and the half-width forms are not mapped: their CID
// order is irregular, so they would need the collection's table.
const (
	korea1ASCIIEnd  = 95
	korea1Hangul    = 1086
	korea1HangulEnd = korea1Hangul + 2350
	korea1Extra     = 9333
	korea1ExtraEnd  = korea1Extra + 8822
)

// korea1Symbols are the KS X 1001 symbol rows' runs of codes and the CID
// of each run's first code (Adobe's KSC-EUC-H CMap).
var korea1Symbols = [...]struct {
	lo, hi uint16
	cid    uint32
}{
	{0xa1a1, 0xa1fe, 101}, {0xa2a1, 0xa2e5, 195}, {0xa3a1, 0xa3fe, 264}, {0xa4a1, 0xa4d3, 358},
	{0xa4d5, 0xa4fe, 409}, {0xa5a1, 0xa5aa, 451}, {0xa5b0, 0xa5b9, 461}, {0xa5c1, 0xa5d8, 471},
	{0xa5e1, 0xa5f8, 495}, {0xa6a1, 0xa6e4, 519}, {0xa7a1, 0xa7ef, 587}, {0xa8a1, 0xa8a4, 666},
	{0xa8a6, 0xa8a6, 670}, {0xa8a8, 0xa8af, 671}, {0xa8b1, 0xa8fe, 679}, {0xa9a1, 0xa9fe, 757},
	{0xaaa1, 0xaaf3, 851}, {0xaba1, 0xabf6, 934}, {0xaca1, 0xacc1, 1020}, {0xacd1, 0xacf1, 1053},
}

// korea1Glyphs are the symbols whose character Adobe's table gives
// differently from EUC-KR's (Adobe-Korea1-UCS2, as poppler reads them).
var korea1Glyphs = map[uint32]rune{
	101: '\u3164', 106: '\u22ef', 109: '\u2013', 110: '\u2014', 111: '\u2016', 113: '\uff5e',
	176: '\u00ab', 177: '\u00bb', 200: '\u02dc', 210: '\u2236', 227: '\u25c9',
}

func korea1Text(cid uint32) string {
	switch {
	case cid >= 1 && cid <= korea1ASCIIEnd:
		return string(rune(0x1f + cid))
	case cid >= korea1Hangul && cid < korea1HangulEnd:
		return string(korea1Syllables().ks[cid-korea1Hangul])
	case cid >= korea1Extra && cid < korea1ExtraEnd:
		return string(korea1Syllables().extra[cid-korea1Extra])
	}
	if r, ok := korea1Glyphs[cid]; ok {
		return string(r)
	}
	for _, run := range korea1Symbols {
		if cid >= run.cid && cid <= run.cid+uint32(run.hi-run.lo) {
			code := run.lo + uint16(cid-run.cid)
			return eucKR(byte(code>>8), byte(code))
		}
	}
	return ""
}

// korea1Syllables lists the Hangul syllables in Adobe-Korea1's CID order:
// KS X 1001's, then every other one in Unicode order.
var korea1Syllables = sync.OnceValue(func() (s struct{ ks, extra []rune }) {
	inKS := map[rune]bool{}
	for n := range 2350 {
		r, _ := utf8.DecodeRuneInString(eucKR(byte(0xb0+n/94), byte(0xa1+n%94)))
		s.ks = append(s.ks, r)
		inKS[r] = true
	}
	for r := rune(0xac00); r <= 0xd7a3; r++ {
		if !inKS[r] {
			s.extra = append(s.extra, r)
		}
	}
	return s
})

// eucKR decodes one two-byte KS X 1001 code, or "" when it is not one.
func eucKR(hi, lo byte) string {
	out, err := korean.EUCKR.NewDecoder().Bytes([]byte{hi, lo})
	if err != nil || string(out) == string(utf8.RuneError) {
		return ""
	}
	return string(out)
}
