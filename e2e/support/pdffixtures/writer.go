// Package pdffixtures generates the PDFs the drafts tests and benchmarks
// upload: a real question paper, prose, and the broken kinds the upload must
// refuse (malformed, encrypted, zero pages, not a PDF at all). They are made
// in code so every fixture is reproducible and its content is visible in the
// test that uses it.
package pdffixtures

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"strings"
)

// Page is the text lines of one page, top to bottom.
type Page []string

// Options shape a generated PDF.
type Options struct {
	// Compress stores content streams with FlateDecode, as most real PDFs do.
	Compress bool
	// Padding adds a comment of this many bytes after the header, to reach
	// an exact file size without changing what the document shows.
	Padding int
}

// Build writes a text-only PDF (Helvetica, WinAnsi) with one page per entry.
// Each line is shown with its own text positioning, as word processors do.
func Build(pages []Page, opt Options) []byte {
	streams := make([]string, len(pages))
	for i, p := range pages {
		streams[i] = string(pageContent(p))
	}
	return BuildContent(streams, opt)
}

// BuildContent writes a PDF whose pages have the given raw content streams;
// the font resource /F1 is Helvetica (WinAnsi, no widths) and /F2 is
// Helvetica with a Widths array (every glyph 500/1000 em wide).
func BuildContent(streams []string, opt Options) []byte {
	w := &writer{}
	w.buf.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	if opt.Padding > 0 {
		w.pad(opt.Padding)
	}
	// Object numbers: 1 catalog, 2 pages, 3 and 4 fonts, then page/content pairs.
	const first = 5
	kids := make([]string, len(streams))
	for i := range streams {
		kids[i] = fmt.Sprintf("%d 0 R", first+2*i)
	}
	widths := strings.TrimSpace(strings.Repeat("500 ", 224))
	w.object(1, "<< /Type /Catalog /Pages 2 0 R >>")
	w.object(2, fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(streams)))
	w.object(3, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
	w.object(4, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding "+
		"/FirstChar 32 /LastChar 255 /Widths ["+widths+"] >>")
	for i, content := range streams {
		pageNum, contentNum := first+2*i, first+1+2*i
		w.object(pageNum, fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "+
			"/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents %d 0 R >>", contentNum))
		w.stream(contentNum, []byte(content), opt.Compress)
	}
	return w.finish(first - 1 + 2*len(streams))
}

// pageContent shows each line 14 points below the previous one.
func pageContent(lines Page) []byte {
	var c bytes.Buffer
	c.WriteString("BT\n/F1 11 Tf\n50 750 Td\n")
	for i, line := range lines {
		if i > 0 {
			c.WriteString("0 -14 Td\n")
		}
		fmt.Fprintf(&c, "(%s) Tj\n", escape(line))
	}
	c.WriteString("ET\n")
	return c.Bytes()
}

// escape makes a PDF literal string; characters outside Latin-1 become '?'.
func escape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '(' || r == ')' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r > 0xff:
			b.WriteByte('?')
		default:
			b.WriteByte(byte(r))
		}
	}
	return b.String()
}

type writer struct {
	buf     bytes.Buffer
	offsets map[int]int
}

func (w *writer) pad(n int) {
	// A comment line: '%', n-2 filler bytes, '\n'.
	if n < 2 {
		n = 2
	}
	w.buf.WriteByte('%')
	w.buf.Write(bytes.Repeat([]byte{'x'}, n-2))
	w.buf.WriteByte('\n')
}

func (w *writer) object(num int, body string) {
	if w.offsets == nil {
		w.offsets = map[int]int{}
	}
	w.offsets[num] = w.buf.Len()
	fmt.Fprintf(&w.buf, "%d 0 obj\n%s\nendobj\n", num, body)
}

func (w *writer) stream(num int, data []byte, compress bool) {
	filter := ""
	if compress {
		var z bytes.Buffer
		zw := zlib.NewWriter(&z)
		_, _ = zw.Write(data)
		_ = zw.Close()
		data = z.Bytes()
		filter = " /Filter /FlateDecode"
	}
	w.streamBody(num, data, filter)
}

// streamBody writes a stream object whose data is already encoded.
func (w *writer) streamBody(num int, data []byte, filter string) {
	if w.offsets == nil {
		w.offsets = map[int]int{}
	}
	w.offsets[num] = w.buf.Len()
	fmt.Fprintf(&w.buf, "%d 0 obj\n<< /Length %d%s >>\nstream\n", num, len(data), filter)
	w.buf.Write(data)
	w.buf.WriteString("\nendstream\nendobj\n")
}

// finish writes the cross-reference table and trailer for objects 1..last.
func (w *writer) finish(last int) []byte {
	xref := w.buf.Len()
	fmt.Fprintf(&w.buf, "xref\n0 %d\n0000000000 65535 f \n", last+1)
	for n := 1; n <= last; n++ {
		fmt.Fprintf(&w.buf, "%010d 00000 n \n", w.offsets[n])
	}
	fmt.Fprintf(&w.buf, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", last+1, xref)
	return w.buf.Bytes()
}
