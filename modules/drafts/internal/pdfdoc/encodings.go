package pdfdoc

import (
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// glyphs is the Adobe Glyph List as a map, built on first use.
var glyphs = sync.OnceValue(func() map[string]rune {
	m := make(map[string]rune, 4400)
	for _, pair := range strings.Split(glyphTable, ";") {
		name, hex, ok := strings.Cut(pair, " ")
		if !ok {
			continue
		}
		if v, err := strconv.ParseUint(hex, 16, 32); err == nil {
			m[name] = rune(v)
		}
	}
	// The list maps these to compatibility signs; text means the letters.
	m["Omega"], m["Delta"], m["mu"] = 'Ω', 'Δ', 'μ'
	return m
})

// glyphText is the text a glyph name stands for, as the glyph list's
// rules give it: a listed name, uniXXXX (one or more code points),
// uXXXX[XX], or components joined by underscores (f_f_i), with any
// .suffix (a.sc, one.oldstyle) dropped. Unknown names give "".
func glyphText(name string) string {
	if i := strings.IndexByte(name, '.'); i > 0 {
		name = name[:i]
	}
	if strings.Contains(name, "_") {
		var b strings.Builder
		for _, part := range strings.Split(name, "_") {
			b.WriteString(glyphText(part))
		}
		return b.String()
	}
	if r, ok := glyphs()[name]; ok {
		return string(r)
	}
	if hex, ok := strings.CutPrefix(name, "uni"); ok && len(hex) >= 4 && len(hex)%4 == 0 {
		var b strings.Builder
		for i := 0; i < len(hex); i += 4 {
			v, err := strconv.ParseUint(hex[i:i+4], 16, 32)
			if err != nil || !utf8.ValidRune(rune(v)) {
				return ""
			}
			b.WriteRune(rune(v))
		}
		return b.String()
	}
	if hex, ok := strings.CutPrefix(name, "u"); ok && len(hex) >= 4 && len(hex) <= 6 {
		if v, err := strconv.ParseUint(hex, 16, 32); err == nil && utf8.ValidRune(rune(v)) {
			return string(rune(v))
		}
	}
	return ""
}

// encoding is a simple font's code-to-text table.
type encoding [256]string

// baseEncoding is a named encoding's table; unknown names are Standard.
func baseEncoding(name string) encoding {
	switch name {
	case "WinAnsiEncoding":
		return winAnsi()
	case "MacRomanEncoding", "MacExpertEncoding":
		return fromCharmap(charmap.Macintosh)
	case "PDFDocEncoding":
		return pdfDoc()
	case "Symbol":
		return symbolEncoding()
	}
	return standard()
}

func fromCharmap(cm *charmap.Charmap) encoding {
	var e encoding
	for c := 32; c < 256; c++ {
		if r := cm.DecodeByte(byte(c)); r != utf8.RuneError && r != 0x7f {
			e[c] = string(r)
		}
	}
	return e
}

// winAnsi is Windows-1252, with the PDF's additions: unused codes of the
// upper half show a bullet, 0xA0 a space and 0xAD a hyphen.
func winAnsi() encoding {
	e := fromCharmap(charmap.Windows1252)
	for c := 128; c < 160; c++ {
		if e[c] == "" || e[c] == "\ufffd" {
			e[c] = "•"
		}
	}
	e[0xa0], e[0xad] = " ", "-"
	return e
}

// pdfDoc is PDFDocEncoding: Latin-1 with typographic marks in 0x80-0x9F
// and accents in 0x18-0x1F.
func pdfDoc() encoding {
	e := fromCharmap(charmap.ISO8859_1)
	for i, s := range strings.Split("˘ˇˆ˙˝˛˚˜", "") {
		e[0x18+i] = s
	}
	for i, s := range strings.Split("•†‡…—–ƒ⁄‹›−‰„“”‘’‚™ﬁﬂŁŒŠŸŽıłœšž", "") {
		e[0x80+i] = s
	}
	return e
}

// standard is Adobe's StandardEncoding: ASCII with curly quotes at 0x27
// and 0x60, and its own upper half.
func standard() encoding {
	return asciiWith(map[int]string{
		0x27: "’", 0x60: "‘",
		0xa1: "¡", 0xa2: "¢", 0xa3: "£", 0xa4: "⁄", 0xa5: "¥", 0xa6: "ƒ", 0xa7: "§", 0xa8: "¤", 0xa9: "'",
		0xaa: "“", 0xab: "«", 0xac: "‹", 0xad: "›", 0xae: "fi", 0xaf: "fl", 0xb1: "–", 0xb2: "†", 0xb3: "‡",
		0xb4: "·", 0xb6: "¶", 0xb7: "•", 0xb8: "‚", 0xb9: "„", 0xba: "”", 0xbb: "»", 0xbc: "…", 0xbd: "‰",
		0xbf: "¿", 0xc1: "`", 0xc2: "´", 0xc3: "ˆ", 0xc4: "˜", 0xc5: "¯", 0xc6: "˘", 0xc7: "˙", 0xc8: "¨",
		0xca: "˚", 0xcb: "¸", 0xcd: "˝", 0xce: "˛", 0xcf: "ˇ", 0xd0: "—", 0xe1: "Æ", 0xe3: "ª", 0xe8: "Ł",
		0xe9: "Ø", 0xea: "Œ", 0xeb: "º", 0xf1: "æ", 0xf5: "ı", 0xf8: "ł", 0xf9: "ø", 0xfa: "œ", 0xfb: "ß",
	})
}

// asciiWith is printable ASCII with the given codes set otherwise.
func asciiWith(codes map[int]string) encoding {
	var e encoding
	for c := 32; c < 127; c++ {
		e[c] = string(rune(c))
	}
	for c, s := range codes {
		e[c] = s
	}
	return e
}

// symbolEncoding is the Symbol font's built-in encoding: Greek letters on
// the Latin keys and the mathematical signs medical papers use (±, ≤, ≥,
// ×, °, µ by way of m).
func symbolEncoding() encoding {
	e := asciiWith(map[int]string{
		0x22: "∀", 0x24: "∃", 0x27: "∋", 0x2a: "∗", 0x2d: "−", 0x40: "≅", 0x5c: "∴", 0x5e: "⊥", 0x60: "‾",
		0x7e: "∼", 0xa1: "ϒ", 0xa2: "′", 0xa3: "≤", 0xa4: "⁄", 0xa5: "∞", 0xa6: "ƒ", 0xa7: "♣", 0xa8: "♦",
		0xa9: "♥", 0xaa: "♠", 0xab: "↔", 0xac: "←", 0xad: "↑", 0xae: "→", 0xaf: "↓", 0xb0: "°", 0xb1: "±",
		0xb2: "″", 0xb3: "≥", 0xb4: "×", 0xb5: "∝", 0xb6: "∂", 0xb7: "•", 0xb8: "÷", 0xb9: "≠", 0xba: "≡",
		0xbb: "≈", 0xbc: "…", 0xc0: "ℵ", 0xc5: "⊕", 0xc6: "∅", 0xc7: "∩", 0xc8: "∪", 0xd1: "∇", 0xd5: "∏",
		0xd6: "√", 0xd7: "⋅", 0xd8: "¬", 0xd9: "∧", 0xda: "∨", 0xdb: "⇔", 0xdc: "⇐", 0xdd: "⇑", 0xde: "⇒",
		0xdf: "⇓", 0xe5: "∑", 0xf2: "∫",
	})
	greek := "ΑΒΧΔΕΦΓΗΙϑΚΛΜΝΟΠΘΡΣΤΥςΩΞΨΖ"
	lower := "αβχδεφγηιϕκλμνοπθρστυϖωξψζ"
	for i, r := range []rune(greek) {
		e['A'+i] = string(r)
	}
	for i, r := range []rune(lower) {
		e['a'+i] = string(r)
	}
	return e
}
