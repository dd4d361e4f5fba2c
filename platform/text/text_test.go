package text

import (
	"testing"
	"unicode/utf8"
)

func TestClip(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"  short  ", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"one two three", 8, "one two…"},
		{"ab cd", 4, "ab…"},
		{"αβγδεζ", 4, "αβγ…"},
		{"anything", 0, ""},
	} {
		got := Clip(c.in, c.n)
		if got != c.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
		if utf8.RuneCountInString(got) > c.n && c.n > 0 {
			t.Errorf("Clip(%q, %d) is %d runes", c.in, c.n, utf8.RuneCountInString(got))
		}
	}
}
