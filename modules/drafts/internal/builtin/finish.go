package builtin

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/roundsedu/rounds/modules/drafts/extraction"
)

// Extractor is the built-in extraction.Extractor.
type Extractor struct{}

// Name is the model choice that selects it.
func (Extractor) Name() string { return extraction.BuiltinModel }

// Extract parses the section's text layer.
func (Extractor) Extract(ctx context.Context, in extraction.Input) ([]extraction.Question, error) {
	if in.Progress != nil {
		if err := in.Progress(ctx, "reading questions",
			fmt.Sprintf("built-in extractor, pages %d-%d", in.FirstPage, in.LastPage)); err != nil {
			return nil, err
		}
	}
	return Parse(in.Pages), nil
}

// finish applies the answer section to the questions it keys and settles
// each question's type and correct answer.
func (p *parser) finish() []extraction.Question {
	for number, keys := range p.keys {
		for _, k := range keys {
			if q := p.keyed(number, k.order); q != nil && q.answer == "" {
				q.answer = k.raw
				q.explanation = appendNonEmpty(q.explanation, strings.Join(k.explanation, " "))
			}
		}
	}
	out := make([]extraction.Question, 0, len(p.questions))
	for _, q := range p.questions {
		stem := strings.Join(q.stem, " ")
		if len(q.options) == 0 && q.answer == "" && !strings.Contains(stem, "?") {
			continue // a numbered line that is not a question (a list, a key without header)
		}
		eq := extraction.Question{Type: extraction.TypeFillIn, Text: stem, Page: q.page,
			Explanation: strings.Join(q.explanation, " ")}
		if len(q.options) > 0 {
			eq.Type, eq.Options = extraction.TypeMCQ, q.options
			answer, rest := resolve(q.answer, q.options)
			eq.CorrectAnswer = answer
			if eq.Explanation == "" {
				eq.Explanation = rest
			}
		} else {
			eq.CorrectAnswer = strings.TrimSpace(q.answer)
		}
		out = append(out, eq)
	}
	return out
}

// keyed is the latest question with the number that precedes the key: a
// paper that restarts its numbering gets each key applied to its own part.
func (p *parser) keyed(number string, before int) *question {
	var found *question
	for _, q := range p.questions {
		if q.order > before {
			break
		}
		if q.number == number {
			found = q
		}
	}
	return found
}

// resolve turns a written answer into the text of an option: the option
// itself, or a letter ("B", "(B)", "B) text"). A remainder after the letter
// that is not the option's own text is an explanation ("A - because ...").
// An answer that names no option is kept as written.
func resolve(raw string, options []string) (answer, rest string) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", ""
	}
	for _, o := range options {
		if strings.EqualFold(o, raw) {
			return o, ""
		}
	}
	if m := reLetter.FindStringSubmatch(raw); m != nil {
		if i := letterIndex(m[1]); i < len(options) {
			rest = strings.TrimSpace(m[2])
			if rest == "" || strings.EqualFold(rest, options[i]) ||
				strings.HasPrefix(strings.ToLower(options[i]), strings.ToLower(rest)) {
				return options[i], ""
			}
			return options[i], rest
		}
	}
	return raw, ""
}

func letterIndex(l string) int {
	return int(strings.ToUpper(l)[0] - 'A')
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

func appendNonEmpty(list []string, s string) []string {
	if s = strings.TrimSpace(s); s != "" {
		return append(list, s)
	}
	return list
}
