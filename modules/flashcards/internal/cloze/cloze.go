// Package cloze parses cloze passages: text with deletions written
// {{c1::answer}} or {{c1::answer::hint}}. Every deletion number makes one
// card; a number used several times hides all its deletions on that card.
// Nested, unclosed or malformed markers are refused with a message that
// says where, since a silently mangled card is worse than a clear refusal.
package cloze

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Bounds on what is parsed: the passage size and the deletions in it.
const (
	MaxBytes     = 20_000
	MaxDeletions = 100
	MaxNumber    = 999
)

// Deletion is one hidden span.
type Deletion struct {
	Number int
	Answer string
	Hint   string
}

// segment is either plain text or a deletion.
type segment struct {
	text string
	del  *Deletion
}

// Passage is a parsed cloze passage.
type Passage struct{ segs []segment }

// Error is a refused passage; Error() is a message for the author.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

func errf(format string, a ...any) error { return &Error{Msg: fmt.Sprintf(format, a...)} }

// Parse reads a passage. It needs at least one deletion.
func Parse(s string) (*Passage, error) {
	if len(s) > MaxBytes {
		return nil, errf("the passage is longer than %d bytes", MaxBytes)
	}
	p := &Passage{}
	count := 0
	for {
		open := strings.Index(s, "{{")
		if open < 0 {
			break
		}
		if open > 0 {
			p.segs = append(p.segs, segment{text: s[:open]})
		}
		rest := s[open+2:]
		end := strings.Index(rest, "}}")
		if end < 0 {
			return nil, errf("a marker starting %q is never closed with }}", excerpt(s[open:]))
		}
		body := rest[:end]
		if strings.Contains(body, "{{") {
			return nil, errf("markers cannot be nested: %q has another {{ inside it", excerpt(s[open:]))
		}
		d, err := deletion(body)
		if err != nil {
			return nil, err
		}
		if count++; count > MaxDeletions {
			return nil, errf("a passage holds at most %d deletions", MaxDeletions)
		}
		p.segs = append(p.segs, segment{del: d})
		s = rest[end+2:]
	}
	if s != "" {
		p.segs = append(p.segs, segment{text: s})
	}
	if count == 0 {
		return nil, errf("a cloze passage needs at least one deletion written {{c1::answer}}")
	}
	return p, nil
}

// deletion reads what is between {{ and }}: cN::answer or cN::answer::hint.
func deletion(body string) (*Deletion, error) {
	parts := strings.Split(body, "::")
	shown := "{{" + body + "}}"
	if len(parts) < 2 || len(parts[0]) < 2 || (parts[0][0] != 'c' && parts[0][0] != 'C') {
		return nil, errf("%q is not a deletion: write {{c1::answer}} or {{c1::answer::hint}}", excerpt(shown))
	}
	n, err := strconv.Atoi(parts[0][1:])
	if err != nil || n < 1 || n > MaxNumber || parts[0][1] == '+' {
		return nil, errf("%q: the deletion number must be a whole number from 1 to %d", excerpt(shown), MaxNumber)
	}
	if len(parts) > 3 {
		return nil, errf("%q: a deletion has an answer and at most one hint (too many ::)", excerpt(shown))
	}
	d := &Deletion{Number: n, Answer: strings.TrimSpace(parts[1])}
	if d.Answer == "" {
		return nil, errf("%q: the answer is empty", excerpt(shown))
	}
	if len(parts) == 3 {
		d.Hint = strings.TrimSpace(parts[2])
	}
	return d, nil
}

// excerpt shortens a quoted piece of the passage for a message.
func excerpt(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}

// Numbers are the distinct deletion numbers in ascending order: one card
// each.
func (p *Passage) Numbers() []int {
	var out []int
	for _, s := range p.segs {
		if s.del != nil && !slices.Contains(out, s.del.Number) {
			out = append(out, s.del.Number)
		}
	}
	slices.Sort(out)
	return out
}

// Render gives card n's question (its deletions hidden as [hint] or [...],
// the others shown) and its answer (the passage in full, and the hidden
// answers in order).
func (p *Passage) Render(n int) (question, full string, answers []string) {
	var q, f strings.Builder
	for _, s := range p.segs {
		if s.del == nil {
			q.WriteString(s.text)
			f.WriteString(s.text)
			continue
		}
		f.WriteString(s.del.Answer)
		if s.del.Number != n {
			q.WriteString(s.del.Answer)
			continue
		}
		answers = append(answers, s.del.Answer)
		if s.del.Hint != "" {
			q.WriteString("[" + s.del.Hint + "]")
		} else {
			q.WriteString("[...]")
		}
	}
	return q.String(), f.String(), answers
}
