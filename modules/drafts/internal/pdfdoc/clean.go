package pdfdoc

import (
	"strings"
	"unicode"
)

// ligatures are the presentation forms fonts draw as one glyph; the text
// is their letters.
var ligatures = strings.NewReplacer(
	"\ufb00", "ff", "\ufb01", "fi", "\ufb02", "fl", "\ufb03", "ffi", "\ufb04", "ffl", "\ufb05", "st", "\ufb06", "st",
	"\u00ad", "", // a soft hyphen left inside a line marks a possible break, not a character
)

// Clean makes extracted text safe to store and search: valid UTF-8 only,
// no NUL or other control characters (a font's codes often are), ligatures
// spelled out, runs of spaces collapsed and empty lines dropped.
func Clean(s string) string {
	s = strings.ToValidUTF8(s, "")
	s = ligatures.Replace(s)
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\n':
			return r
		case r == '\t' || r == '\u00a0':
			return ' '
		case unicode.IsControl(r), r == '\ufeff', r == '\ufffd':
			return -1
		}
		return r
	}, s)
	lines := strings.Split(s, "\n")
	out := lines[:0]
	for _, l := range lines {
		if l = strings.Join(strings.Fields(l), " "); l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// Tidy cleans text read some other way (OCR) as page text is cleaned,
// joining words broken at line ends too.
func Tidy(s string) string {
	return Clean(strings.Join(dehyphenate(strings.Split(Clean(s), "\n")), "\n"))
}
