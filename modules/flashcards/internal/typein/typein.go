// Package typein checks a typed answer against a type_in card's answer:
// alternatives separated by "|", compared ignoring case and surrounding
// space (runs of inner space count as one), and ignoring accents when the
// deck asks for it.
package typein

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// MaxAnswer bounds what is compared, in bytes; longer input never matches.
const MaxAnswer = 2_000

// Alternatives are the accepted answers, trimmed, blanks dropped.
func Alternatives(answer string) []string {
	var out []string
	for _, a := range strings.Split(answer, "|") {
		if a = strings.TrimSpace(a); a != "" {
			out = append(out, a)
		}
	}
	return out
}

// Match reports whether given is one of answer's alternatives.
func Match(given, answer string, ignoreAccents bool) bool {
	if len(given) > MaxAnswer || len(answer) > MaxAnswer {
		return false
	}
	g := normal(given, ignoreAccents)
	if g == "" {
		return false
	}
	for _, a := range Alternatives(answer) {
		if normal(a, ignoreAccents) == g {
			return true
		}
	}
	return false
}

func normal(s string, ignoreAccents bool) string {
	s = strings.Join(strings.Fields(s), " ")
	if ignoreAccents {
		var b strings.Builder
		for _, r := range norm.NFD.String(s) {
			if !unicode.Is(unicode.Mn, r) {
				b.WriteRune(r)
			}
		}
		s = b.String()
	}
	// NFC so a precomposed and a combining spelling compare equal when
	// accents count.
	return strings.ToLower(norm.NFC.String(s))
}
