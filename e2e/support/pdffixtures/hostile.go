package pdffixtures

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"fmt"
	"hash/adler32"
	"strings"
)

// The hostile PDFs below are small files built to make a naive reader
// allocate, loop or inflate without bound. Each is otherwise well-formed,
// so only the defence it targets can refuse it.

// raw writes objects 1..len(bodies) as given (a body starting with
// "stream:" is a content stream of the rest, deflated) behind a header,
// with a correct cross-reference table.
func raw(bodies ...string) *writer {
	w := &writer{}
	w.buf.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	for i, b := range bodies {
		if data, ok := strings.CutPrefix(b, "stream:"); ok {
			w.stream(i+1, []byte(data), true)
			continue
		}
		w.object(i+1, b)
	}
	return w
}

const (
	catalog = "<< /Type /Catalog /Pages 2 0 R >>"
	page    = "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>"
)

// HugeCount is a two-page PDF whose page tree claims count pages, with
// counts consistent enough that page 1 and page count both resolve: a
// reader trusting /Count believes it and allocates for them all.
func HugeCount(count int64) []byte {
	return raw(catalog,
		fmt.Sprintf("<< /Type /Pages /Kids [3 0 R 5 0 R] /Count %d >>", count),
		fmt.Sprintf("<< /Type /Pages /Parent 2 0 R /Kids [4 0 R] /Count %d >>", count-1),
		page, page).finish(5)
}

// CyclicKids is a page tree whose inner node lists the root among its kids:
// a reader descending by /Count never reaches a page and never stops.
func CyclicKids() []byte {
	return raw(catalog,
		"<< /Type /Pages /Kids [3 0 R] /Count 2 >>",
		"<< /Type /Pages /Parent 2 0 R /Kids [2 0 R 4 0 R] /Count 2 >>",
		page).finish(4)
}

// SharedKids lists one inner node many times at each of levels levels, so
// a file of a few hundred bytes describes width^levels pages (a tree that
// is a DAG, not a tree).
func SharedKids(width, levels int) []byte {
	bodies := []string{catalog}
	count := 1
	for l := 0; l < levels; l++ {
		count *= width
	}
	for l := 0; l < levels; l++ {
		kid := fmt.Sprintf("%d 0 R ", l+3)
		bodies = append(bodies, fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>",
			strings.TrimSpace(strings.Repeat(kid, width)), count))
		count /= width
	}
	bodies = append(bodies, page)
	return raw(bodies...).finish(len(bodies))
}

// DeflateBomb is a one-page PDF whose content stream inflates to n MiB of
// operands ("0 " repeated) with no operator: deflated it is about a
// thousandth of that, and a parser that keeps every operand holds them all.
func DeflateBomb(mib int) []byte {
	w := raw(catalog,
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>")
	w.streamBody(4, repeatedDeflate([]byte(strings.Repeat("0 ", 1<<19)), mib), " /Filter /FlateDecode")
	return w.finish(4)
}

// repeatedDeflate is the zlib stream of chunk repeated n times, made in the
// time of one chunk: the chunk's deflate blocks end on a byte boundary
// (a sync flush), so they can be written n times; their back-references
// stay right because the chunk is periodic.
func repeatedDeflate(chunk []byte, n int) []byte {
	var blocks bytes.Buffer
	fw, _ := flate.NewWriter(&blocks, flate.BestCompression)
	_, _ = fw.Write(chunk)
	_ = fw.Flush()
	out := []byte{0x78, 0xda} // zlib header, best compression
	sum := adler32.New()
	for range n {
		out = append(out, blocks.Bytes()...)
		_, _ = sum.Write(chunk)
	}
	out = append(out, 0x03, 0x00) // a final, empty fixed-Huffman block
	return binary.BigEndian.AppendUint32(out, sum.Sum32())
}

// PrevCycle is a one-page PDF whose trailer names its own cross-reference
// table as the previous one: a reader following /Prev reads it for ever.
func PrevCycle() []byte {
	w := raw(catalog, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>", page)
	xref := w.buf.Len()
	fmt.Fprintf(&w.buf, "xref\n0 4\n0000000000 65535 f \n")
	for n := 1; n <= 3; n++ {
		fmt.Fprintf(&w.buf, "%010d 00000 n \n", w.offsets[n])
	}
	fmt.Fprintf(&w.buf, "trailer\n<< /Size 4 /Root 1 0 R /Prev %d >>\nstartxref\n%d\n%%%%EOF\n", xref, xref)
	return w.buf.Bytes()
}

// XrefHugeTable is a one-page PDF whose cross-reference table has a second
// subsection numbering one object as 1,000,000,000: a reader that sizes its
// object table from it allocates 32 GB.
func XrefHugeTable() []byte {
	b := raw(catalog, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>", page).finish(3)
	return bytes.Replace(b, []byte("trailer\n"), []byte("1000000000 1\n0000000009 00000 n \ntrailer\n"), 1)
}

// XrefStreamHugeSize is a one-page PDF whose cross-reference stream claims
// /Size 10^12: a reader allocates its object table of that size at once.
func XrefStreamHugeSize() []byte {
	w := raw(catalog, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>", page)
	xref := w.buf.Len()
	w.streamBody(4, nil, " /Type /XRef /Size 1000000000000 /W [1 2 1] /Root 1 0 R")
	fmt.Fprintf(&w.buf, "startxref\n%d\n%%%%EOF\n", xref)
	return w.buf.Bytes()
}
