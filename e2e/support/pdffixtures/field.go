package pdffixtures

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"io"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/filter"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// The files below are PDFs as other writers make them: content encoded
// with every filter of the standard, pictures in image-only encodings,
// encryption with an empty user password, damaged cross-reference tables,
// two-column layouts, ligatures, scanned pages. Each shows the paper's
// first page (or a page of its own) so a test can compare what is read.

// FirstPage is the text every filtered, encrypted and damaged variant
// shows: the paper's first page.
var FirstPage = PaperPages[0]

// Filters a content stream can be written with: the standard's text
// filters, Flate with each kind of predictor, and two in a chain.
var Filters = []string{"ASCIIHexDecode", "ASCII85Decode", "LZWDecode", "RunLengthDecode",
	"FlateDecode", "FlateDecode+PNG", "FlateDecode+TIFF", "ASCII85Decode+FlateDecode"}

// Filtered is the paper's first page with its content stream encoded by
// name (one of Filters). Predictors run over rows of 16 bytes; the
// content is padded with spaces to whole rows.
func Filtered(name string) ([]byte, error) {
	content := pageContent(FirstPage)
	var data []byte
	var dict string
	switch name {
	case "FlateDecode+PNG", "FlateDecode+TIFF":
		const columns = 16
		if r := len(content) % columns; r != 0 {
			content = append(content, bytes.Repeat([]byte{' '}, columns-r)...)
		}
		predictor := 2
		if name == "FlateDecode+PNG" {
			predictor = 15
			content = pngSub(content, columns)
		} else {
			content = tiffDiff(content)
		}
		data = deflate(content)
		dict = fmt.Sprintf(" /Filter /FlateDecode /DecodeParms << /Predictor %d /Columns %d /Colors 1 /BitsPerComponent 8 >>",
			predictor, columns)
	default:
		chain := strings.Split(name, "+")
		data = content
		for i := len(chain) - 1; i >= 0; i-- {
			f, err := filter.NewFilter(chain[i], nil)
			if err != nil {
				return nil, err
			}
			r, err := f.Encode(bytes.NewReader(data))
			if err != nil {
				return nil, err
			}
			if data, err = io.ReadAll(r); err != nil {
				return nil, err
			}
		}
		dict = " /Filter [/" + strings.Join(chain, " /") + "]"
	}
	w := raw(catalog, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>")
	w.streamBody(4, data, dict)
	w.object(5, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
	return w.finish(5), nil
}

// pngSub is PNG prediction with the Sub filter on every row.
func pngSub(data []byte, columns int) []byte {
	var out []byte
	for i := 0; i < len(data); i += columns {
		row := data[i : i+columns]
		out = append(out, 1)
		for j := range row {
			left := byte(0)
			if j > 0 {
				left = row[j-1]
			}
			out = append(out, row[j]-left)
		}
	}
	return out
}

// tiffDiff is TIFF predictor 2 on rows of one 8-bit component: each byte
// less the one before it in its row (rows of 16).
func tiffDiff(data []byte) []byte {
	out := make([]byte, len(data))
	for i := range data {
		if i%16 == 0 {
			out[i] = data[i]
			continue
		}
		out[i] = data[i] - data[i-1]
	}
	return out
}

func deflate(data []byte) []byte {
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	_, _ = zw.Write(data)
	_ = zw.Close()
	return z.Bytes()
}

// WithImages is the paper's first page with four pictures drawn over it,
// one in each image-only encoding: a real JPEG (DCTDecode) and bytes
// labelled JPXDecode, JBIG2Decode and CCITTFaxDecode that no decoder
// would take. Text extraction must skip them all.
func WithImages() []byte {
	var jpg bytes.Buffer
	img := image.NewGray(image.Rect(0, 0, 8, 8))
	_ = jpeg.Encode(&jpg, img, nil)
	content := "q 100 0 0 100 400 600 cm /I1 Do Q q 100 0 0 100 400 450 cm /I2 Do Q " +
		"q 100 0 0 100 400 300 cm /I3 Do Q q 100 0 0 100 400 150 cm /I4 Do Q\n" + string(pageContent(FirstPage))
	w := raw(catalog, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> "+
			"/XObject << /I1 6 0 R /I2 7 0 R /I3 8 0 R /I4 9 0 R >> >> /Contents 4 0 R >>")
	w.stream(4, []byte(content), true)
	w.object(5, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
	img8 := " /Type /XObject /Subtype /Image /Width 8 /Height 8 /ColorSpace /DeviceGray /BitsPerComponent "
	w.streamBody(6, jpg.Bytes(), img8+"8 /Filter /DCTDecode")
	w.streamBody(7, []byte("\x00\x00\x00\x0cjP  \r\n\x87\nnot a real codestream"), img8+"8 /Filter /JPXDecode")
	w.streamBody(8, []byte("\x97JB2\r\n\x1a\nnot a real segment"), img8+"1 /Filter /JBIG2Decode")
	w.streamBody(9, []byte("\xff\xff\xff\xffnot fax data"), img8+"1 /Filter /CCITTFaxDecode /DecodeParms << /K -1 /Columns 8 >>")
	return w.finish(9)
}

// Ciphers pdfcpu encrypts with, as EncryptedOpen names them.
var Ciphers = []string{"RC4-40", "RC4-128", "AES-128", "AES-256"}

// EncryptedOpen is the question paper encrypted with an empty user
// password (it opens without asking) and an owner password, as "secured"
// PDFs that only restrict printing or copying are.
func EncryptedOpen(cipher string) ([]byte, error) {
	return encrypt(cipher, "")
}

// EncryptedLocked is the question paper with a user password: it cannot
// be opened without it.
func EncryptedLocked(cipher string) ([]byte, error) { return encrypt(cipher, "open-sesame") }

func encrypt(cipher, user string) ([]byte, error) {
	var conf *model.Configuration
	switch cipher {
	case "RC4-40":
		conf = model.NewRC4Configuration(user, "owner-secret", 40)
	case "RC4-128":
		conf = model.NewRC4Configuration(user, "owner-secret", 128)
	case "AES-128":
		conf = model.NewAESConfiguration(user, "owner-secret", 128)
	default:
		conf = model.NewAESConfiguration(user, "owner-secret", 256)
	}
	var out bytes.Buffer
	if err := api.Encrypt(bytes.NewReader(QuestionPaper()), &out, conf); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// Damages are the broken cross-reference structures Damaged makes.
var Damages = []string{"no xref", "wrong offsets", "no trailer", "truncated"}

// Damaged is the question paper broken the way files from the field are:
// its cross-reference table and trailer cut off ("no xref"), every offset
// in the table wrong by a few bytes ("wrong offsets"), the table kept but
// its trailer dictionary gone ("no trailer"), or the file cut off after
// its second page ("truncated"). Readers rebuild the table by scanning the
// file for objects.
func Damaged(kind string) []byte {
	b := QuestionPaper()
	xref := bytes.LastIndex(b, []byte("\nxref\n")) + 1
	switch kind {
	case "no xref":
		return append(append([]byte(nil), b[:xref]...), "%%EOF\n"...)
	case "wrong offsets":
		out := append([]byte(nil), b[:xref]...)
		lines := strings.Split(string(b[xref:]), "\n")
		for i, l := range lines {
			var off, gen int
			var kind string
			if n, _ := fmt.Sscanf(l, "%d %d %s", &off, &gen, &kind); n == 3 && kind == "n" && len(l) >= 18 {
				lines[i] = fmt.Sprintf("%010d %05d n ", off+7, gen)
			}
		}
		return append(out, strings.Join(lines, "\n")...)
	case "no trailer":
		t := bytes.Index(b[xref:], []byte("trailer\n"))
		s := bytes.Index(b[xref:], []byte("startxref"))
		return append(append([]byte(nil), b[:xref+t]...), b[xref+s:]...)
	default: // truncated: the objects of pages 3 and 4 and everything after are gone
		paper := Build(PaperPages, Options{Compress: true})
		cut := bytes.Index(paper, []byte("\n9 0 obj")) + 1
		return append([]byte(nil), paper[:cut]...)
	}
}

// TwoColumns is a page set as papers are: a title across the page, then
// two columns whose lines share baselines. Read by position, each column
// comes whole, left before right; read by rows, the lines interleave.
func TwoColumns() (file []byte, left, right []string) {
	for i := 1; i <= 8; i++ {
		left = append(left, fmt.Sprintf("Left %d: the mitral valve closes as the ventricle", i))
		right = append(right, fmt.Sprintf("Right %d: the aortic valve opens when pressure rises", i))
	}
	var c strings.Builder
	c.WriteString("BT /F2 14 Tf 1 0 0 1 150 750 Tm (Two Column Cardiology Review) Tj ET\n")
	for i := range left {
		y := 710 - 14*i
		fmt.Fprintf(&c, "BT /F2 10 Tf 1 0 0 1 40 %d Tm (%s) Tj ET\n", y, escape(left[i]))
		fmt.Fprintf(&c, "BT /F2 10 Tf 1 0 0 1 320 %d Tm (%s) Tj ET\n", y, escape(right[i]))
	}
	return BuildContent([]string{c.String()}, Options{Compress: true}), left, right
}

// Ligatures is a page whose font draws "fi" and "fl" as one glyph each
// (named /fi and /fl in its encoding, codes 1 and 2), and whose text
// breaks "examination" with a hyphen at a line end.
func Ligatures() []byte {
	content := "BT /F1 11 Tf 50 700 Td (The \001rst \002uid bolus is given before the exam-) Tj " +
		"0 -14 Td (ination of the abdomen.) Tj ET"
	w := raw(catalog, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>")
	w.stream(4, []byte(content), true)
	w.object(5, "<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman "+
		"/Encoding << /Type /Encoding /BaseEncoding /WinAnsiEncoding /Differences [1 /fi /fl] >> >>")
	return w.finish(5)
}

// NULText is a page whose font maps its codes to Unicode one to one, the
// code 0 included, as font-test files do: the text it shows carries NUL
// characters ("Dose\x00 10\x00mg").
func NULText() []byte {
	content := "BT /F1 11 Tf 50 700 Td (Question 1. Dose\000 10\000mg of what?) Tj ET"
	cmap := "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n" +
		"1 begincodespacerange <00> <FF> endcodespacerange\n" +
		"1 beginbfrange <00> <FF> <0000> endbfrange\nendcmap end end\n"
	w := raw(catalog, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>")
	w.stream(4, []byte(content), true)
	w.object(5, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>")
	w.stream(6, []byte(cmap), true)
	return w.finish(6)
}

// Scanned is a page with no text layer: lines of text drawn into a
// grayscale picture (Go's own font, 36 px, about 150 dpi on the page) and
// stored as a JPEG, as a scanner writes a page.
func Scanned(lines []string) ([]byte, error) {
	const width, height = 1275, 1650 // US Letter at 150 dpi
	img := image.NewGray(image.Rect(0, 0, width, height))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	f, err := opentype.Parse(goregular.TTF)
	if err != nil {
		return nil, err
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: 36, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, err
	}
	d := &font.Drawer{Dst: img, Src: image.NewUniform(color.Black), Face: face}
	for i, line := range lines {
		d.Dot = fixed.P(100, 150+60*i)
		d.DrawString(line)
	}
	var jpg bytes.Buffer
	if err := jpeg.Encode(&jpg, img, &jpeg.Options{Quality: 90}); err != nil {
		return nil, err
	}
	w := raw(catalog, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Scan 5 0 R >> >> /Contents 4 0 R >>")
	w.stream(4, []byte("q 612 0 0 792 0 0 cm /Scan Do Q"), true)
	w.streamBody(5, jpg.Bytes(), fmt.Sprintf(" /Type /XObject /Subtype /Image /Width %d /Height %d "+
		"/ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /DCTDecode", width, height))
	return w.finish(5), nil
}
