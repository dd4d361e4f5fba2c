package anki

import (
	"strings"

	"github.com/roundsedu/rounds/modules/interchange/internal/format"
)

func plainText(s string) string { return format.PlainText(s) }

// token is a piece of an Anki card template: text, a field reference
// ({{filter:filter:Field}}) or a section ({{#Field}} shown when the field
// has content, {{^Field}} when it has none, closed by {{/Field}}).
type token struct {
	kind    byte // 't' text, 'v' field, '#', '^', '/'
	text    string
	field   string
	filters []string
}

// newTemplate parses a card template's two sides; one past
// maxTemplateBytes is kept unparsed (both sides nil) and refuses its notes.
func newTemplate(name, q, a string) template {
	if len(q)+len(a) > maxTemplateBytes {
		return template{Name: name}
	}
	return template{Name: name, Q: parseTemplate(q), A: parseTemplate(a)}
}

func parseTemplate(s string) []token {
	toks := []token{}
	for {
		i := strings.Index(s, "{{")
		j := -1
		if i >= 0 {
			j = strings.Index(s[i+2:], "}}")
		}
		if i < 0 || j < 0 {
			if s != "" {
				toks = append(toks, token{kind: 't', text: s})
			}
			return toks
		}
		if i > 0 {
			toks = append(toks, token{kind: 't', text: s[:i]})
		}
		inner := strings.TrimSpace(s[i+2 : i+2+j])
		s = s[i+4+j:]
		switch {
		case inner == "":
		case strings.ContainsAny(inner[:1], "#^/"):
			toks = append(toks, token{kind: inner[0], field: strings.TrimSpace(inner[1:])})
		default:
			parts := strings.Split(inner, ":")
			for k := range parts {
				parts[k] = strings.TrimSpace(parts[k])
			}
			toks = append(toks, token{kind: 'v', field: parts[len(parts)-1], filters: parts[:len(parts)-1]})
		}
	}
}

// special fields show something about the card, not the note; the answer
// side's {{FrontSide}} is dropped so that the back holds what the answer
// adds.
var special = map[string]bool{"FrontSide": true, "Tags": true, "Type": true, "Deck": true, "Subdeck": true,
	"Card": true, "CardFlag": true, "CardID": true}

// render fills a side's fields (HTML), leaving out the type-in box,
// text-to-speech, special fields and the fields in skip; sections follow
// whether their field has content. Linear in the tokens.
func (t template) render(toks []token, values map[string]string, skip map[string]bool) string {
	var b strings.Builder
	for i := 0; i < len(toks); i++ {
		tok := toks[i]
		switch tok.kind {
		case 't':
			b.WriteString(tok.text)
		case '#', '^':
			if shown := !blank(values[tok.field]); shown != (tok.kind == '#') {
				i = sectionEnd(toks, i)
			}
		case 'v':
			if special[tok.field] || skip[tok.field] || hasFilter(tok, "type") || hasFilterPrefix(tok, "tts") {
				continue
			}
			b.WriteString(values[tok.field])
		}
	}
	return b.String()
}

// sectionEnd is the index of the {{/Field}} closing the section opened at
// i (nested sections of the same field counted), or the last token.
func sectionEnd(toks []token, i int) int {
	depth := 0
	for k := i; k < len(toks); k++ {
		switch {
		case toks[k].field != toks[i].field:
		case toks[k].kind == '#' || toks[k].kind == '^':
			depth++
		case toks[k].kind == '/':
			if depth--; depth == 0 {
				return k
			}
		}
	}
	return len(toks) - 1
}

func hasFilter(tok token, f string) bool {
	for _, x := range tok.filters {
		if x == f {
			return true
		}
	}
	return false
}

func hasFilterPrefix(tok token, p string) bool {
	for _, x := range tok.filters {
		if strings.HasPrefix(x, p) {
			return true
		}
	}
	return false
}

// clozeField is the field the question side deletes from ({{cloze:Field}}).
func (t template) clozeField() string {
	for _, tok := range t.Q {
		if tok.kind == 'v' && hasFilter(tok, "cloze") {
			return tok.field
		}
	}
	return ""
}

// typeField is the field the question side asks to type ({{type:Field}}),
// "" when it asks none (or types a cloze deletion).
func (t template) typeField() string {
	for _, tok := range t.Q {
		if tok.kind == 'v' && hasFilter(tok, "type") && !hasFilter(tok, "cloze") {
			return tok.field
		}
	}
	return ""
}
