package pdfdoc

import (
	"context"
	"strings"
	"unicode/utf16"

	"github.com/ledongthuc/pdf"
	corefont "github.com/pdfcpu/pdfcpu/pkg/font"
)

// font turns the codes of a shown string into text and advances. The
// text of a code comes, in the order readers use: from the font's
// ToUnicode map, else from its encoding (a named one with Differences,
// glyph names read through the Adobe Glyph List), else, for a CID font
// with a UCS-2 CMap, from the code itself, and for one whose CIDs are
// those of a character collection mapped here, from its CID. Widths come from /Widths (or
// a CID font's /W), else from the standard 14 fonts' metrics.
type font struct {
	toUni  *cmap
	cidMap *cmap // a Type0 font's embedded encoding CMap
	cid    bool  // a Type0 (composite) font: multi-byte codes, CID widths
	ucs2   bool  // a predefined Unicode CMap: the code is UTF-16
	// collection gives a CID's text by its character collection's order
	// (nil when the codes are not CIDs of a collection mapped here).
	collection func(cid uint32) string
	enc        encoding
	// Simple fonts: each code's width, from /Widths (from FirstChar),
	// else MissingWidth, else the standard 14 font metrics that fit the
	// base font, else half an em; worked out once.
	widths [256]float64
	// CID fonts: dw for CIDs /W does not list.
	dw        float64
	cidWidths map[uint32]float64
	cidRanges []cidRange // cid field holds the width
	// scale turns glyph-space widths into text space (Type3: FontMatrix).
	scale float64
}

// glyph is one shown code.
type glyph struct {
	text  string
	width float64 // in text space units, before the font size
	space bool    // the single-byte code 32, which word spacing applies to
}

func (r *Reader) loadFont(ctx context.Context, v pdf.Value) *font {
	f := &font{scale: 0.001, dw: 1000}
	if u := v.Key("ToUnicode"); u.Kind() == pdf.Stream {
		f.toUni = parseCMap(r.readStream(ctx, u, "a font's ToUnicode map"))
	}
	base := strings.TrimSpace(v.Key("BaseFont").Name())
	if i := strings.IndexByte(base, '+'); i == 6 {
		base = base[7:] // a subset prefix
	}
	switch v.Key("Subtype").Name() {
	case "Type0":
		f.loadComposite(ctx, r, v)
		return f
	case "Type3":
		if m := v.Key("FontMatrix"); m.Len() == 6 && m.Index(0).Float64() != 0 {
			f.scale = m.Index(0).Float64()
		}
	}
	f.loadSimpleEncoding(v, base)
	f.loadWidths(v, base)
	return f
}

func (f *font) loadWidths(v pdf.Value, base string) {
	first := int(v.Key("FirstChar").Int64())
	ws := v.Key("Widths")
	missing := v.Key("FontDescriptor").Key("MissingWidth").Float64()
	core := ""
	if ws.Len() == 0 {
		core = coreFontName(base)
	}
	for code := range f.widths {
		w := 0.0
		if i := code - first; i >= 0 && i < ws.Len() {
			w = ws.Index(i).Float64()
		}
		if w <= 0 && core != "" {
			if cw, err := corefont.CharWidth(core, rune(code)); err == nil {
				w = float64(cw)
			}
		}
		if w <= 0 {
			w = missing
		}
		if w <= 0 {
			w = 500
		}
		f.widths[code] = w
	}
}

func (f *font) loadSimpleEncoding(v pdf.Value, base string) {
	enc := v.Key("Encoding")
	switch enc.Kind() {
	case pdf.Name:
		f.enc = baseEncoding(enc.Name())
	case pdf.Dict:
		name := enc.Key("BaseEncoding").Name()
		if name == "" {
			name = builtinEncoding(base)
		}
		f.enc = baseEncoding(name)
		diffs := enc.Key("Differences")
		code := 0
		for i := 0; i < diffs.Len(); i++ {
			d := diffs.Index(i)
			switch d.Kind() {
			case pdf.Integer, pdf.Real:
				code = int(d.Float64())
			case pdf.Name:
				if code >= 0 && code < 256 {
					f.enc[code] = glyphText(d.Name())
				}
				code++
			}
		}
	default:
		f.enc = baseEncoding(builtinEncoding(base))
	}
}

// builtinEncoding names the encoding a font uses without /Encoding.
func builtinEncoding(base string) string {
	if strings.HasPrefix(base, "Symbol") {
		return "Symbol"
	}
	return "StandardEncoding"
}

func (f *font) loadComposite(ctx context.Context, r *Reader, v pdf.Value) {
	f.cid = true
	enc := v.Key("Encoding")
	switch enc.Kind() {
	case pdf.Stream:
		f.cidMap = parseCMap(r.readStream(ctx, enc, "a font's encoding CMap"))
	case pdf.Name:
		name := enc.Name()
		f.ucs2 = strings.Contains(name, "UCS2") || strings.Contains(name, "UTF16")
	}
	desc := v.Key("DescendantFonts").Index(0)
	// Only an identity or embedded CMap tells which CID a code is.
	if !f.ucs2 && (f.cidMap != nil || strings.HasPrefix(enc.Name(), "Identity-")) {
		f.collection = collectionText(desc.Key("CIDSystemInfo"))
	}
	if dw := desc.Key("DW"); dw.Kind() == pdf.Integer || dw.Kind() == pdf.Real {
		f.dw = dw.Float64()
	}
	f.cidWidths = map[uint32]float64{}
	w := desc.Key("W")
	for i := 0; i < w.Len(); {
		first := w.Index(i)
		next := w.Index(i + 1)
		if next.Kind() == pdf.Array {
			for j := 0; j < next.Len() && len(f.cidWidths) < 1<<16; j++ {
				f.cidWidths[uint32(first.Int64())+uint32(j)] = next.Index(j).Float64()
			}
			i += 2
			continue
		}
		last, width := next.Int64(), w.Index(i+2).Float64()
		if last >= first.Int64() {
			f.cidRanges = append(f.cidRanges, cidRange{lo: uint32(first.Int64()), hi: uint32(last), cid: uint32(width)})
		}
		i += 3
	}
}

// coreFontName maps a base font to the standard 14 font whose metrics
// fit it, or "" when none does.
func coreFontName(base string) string {
	if corefont.IsCoreFont(base) {
		return base
	}
	lower := strings.ToLower(strings.NewReplacer(",", "-", " ", "").Replace(base))
	family := ""
	switch {
	case strings.HasPrefix(lower, "arial"), strings.HasPrefix(lower, "helvetica"):
		family = "Helvetica"
	case strings.HasPrefix(lower, "times"):
		family = "Times"
	case strings.HasPrefix(lower, "courier"):
		family = "Courier"
	default:
		return ""
	}
	bold := strings.Contains(lower, "bold")
	italic := strings.Contains(lower, "italic") || strings.Contains(lower, "oblique")
	switch {
	case family == "Times" && bold && italic:
		return "Times-BoldItalic"
	case family == "Times" && bold:
		return "Times-Bold"
	case family == "Times" && italic:
		return "Times-Italic"
	case family == "Times":
		return "Times-Roman"
	case bold && italic:
		return family + "-BoldOblique"
	case bold:
		return family + "-Bold"
	case italic:
		return family + "-Oblique"
	}
	return family
}

// each calls fn for every code in raw.
func (f *font) each(raw string, fn func(glyph)) {
	if !f.cid {
		for i := 0; i < len(raw); i++ {
			c := raw[i]
			text, ok := "", false
			if f.toUni != nil {
				text, ok = f.toUni.lookup(uint32(c), 1)
			}
			if !ok {
				text = f.enc[c]
			}
			fn(glyph{text: text, width: f.widths[c] * f.scale, space: c == ' '})
		}
		return
	}
	splitter := f.cidMap
	if splitter == nil || len(splitter.space) == 0 {
		splitter = f.toUni
	}
	for len(raw) > 0 {
		var code uint32
		n := 2
		if splitter != nil && len(splitter.space) > 0 {
			code, n = splitter.next(raw)
		} else {
			if len(raw) < 2 {
				n = 1
			}
			code, _ = codeOf(raw[:n])
		}
		raw = raw[n:]
		cid := code
		if f.cidMap != nil {
			if c, ok := f.cidMap.cid(code, n); ok {
				cid = c
			}
		}
		text, ok := "", false
		if f.toUni != nil {
			text, ok = f.toUni.lookup(code, n)
		}
		switch {
		case ok:
		case f.ucs2:
			text = string(utf16.Decode([]uint16{uint16(code)}))
		case f.collection != nil:
			text = f.collection(cid)
		}
		fn(glyph{text: text, width: f.cidWidth(cid) * f.scale, space: n == 1 && code == ' '})
	}
}

func (f *font) cidWidth(cid uint32) float64 {
	if w, ok := f.cidWidths[cid]; ok {
		return w
	}
	for _, r := range f.cidRanges {
		if cid >= r.lo && cid <= r.hi {
			return float64(r.cid)
		}
	}
	return f.dw
}
