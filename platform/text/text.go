// Package text holds the small string rules every module shows text by.
package text

import (
	"strings"
	"unicode/utf8"
)

// Clip trims s and shortens it to at most n runes (never splitting one),
// ending with an ellipsis when it had to cut.
func Clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	if n < 1 {
		return ""
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n-1])) + "…"
}
