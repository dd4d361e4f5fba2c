package format

import (
	"html"
	"strings"
)

// lineTags end a line when they close (or, for br, wherever they stand).
var lineTags = map[string]bool{"br": true, "/p": true, "/div": true, "/li": true, "/h1": true, "/h2": true,
	"/h3": true, "/h4": true, "/tr": true, "/pre": true}

// PlainText brings an HTML text (an Anki field) to the plain text a
// flashcard holds: tags dropped (block ends become line breaks), entities
// decoded, runs of white space collapsed as a browser would. Images and
// styling are lost; the text is what a learner reads.
func PlainText(s string) string {
	var b strings.Builder
	space := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '<' {
			end := strings.IndexByte(s[i:], '>')
			if end < 0 {
				break // an unclosed tag: the rest is markup
			}
			name := ""
			if f := strings.Fields(strings.Trim(s[i+1:i+end], "/ ")); len(f) > 0 {
				name = strings.ToLower(f[0])
			}
			if strings.HasPrefix(s[i+1:], "/") {
				name = "/" + name
			}
			if lineTags[name] {
				b.WriteByte('\n')
				space = false
			}
			i += end
			continue
		}
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			space = true
			continue
		}
		if space && b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
			b.WriteByte(' ')
		}
		space = false
		b.WriteByte(c)
	}
	lines := strings.Split(html.UnescapeString(b.String()), "\n")
	for i := range lines {
		lines[i] = strings.TrimSpace(strings.ReplaceAll(lines[i], "\u00a0", " "))
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}
