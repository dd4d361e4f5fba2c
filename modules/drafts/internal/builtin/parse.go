// Package builtin is the extractor that needs no model: it reads numbered
// multiple-choice questions with lettered options out of a section's text
// layer, takes answers written inline ("Answer: B") or from an answer
// section ("Answer Key" then "4. C"), and keeps explanations from either
// place. A numbered question without options but with an answer becomes a
// fill-in question. Whatever it cannot settle (an answer that matches no
// option, a question with no answer at all) is kept as written for the
// moderator to fix; the readiness checks at acceptance say what is missing.
package builtin

import (
	"regexp"
	"strings"

	"github.com/roundsedu/rounds/modules/drafts/extraction"
)

// qnum is a question number: any a paper uses (banks of tens of thousands
// number past 9999), bounded so it always fits an int.
const qnum = `(\d{1,9})`

var (
	// "12. Stem", "12) Stem", "Q12: Stem", "Question 12. Stem".
	reQuestion = regexp.MustCompile(`^(?:(?i:q(?:uestion)?)\s*)?` + qnum + `\s*[.):]\s*(\S.*)$`)
	// "A. text", "A) text", "(A) text", "a: text", "A - text".
	reOption = regexp.MustCompile(`^(?:\(([A-Ha-h])\)|([A-Ha-h])[.):]|([A-Ha-h])\s+[-–])\s*(\S.*)$`)
	// "Answer: B", "Correct answer - B) text", "Ans. B".
	reAnswer = regexp.MustCompile(`^(?i:(?:correct\s+)?(?:answer|ans))\s*[:.\-–]\s*(\S.*)$`)
	// "Explanation: ...", "Rationale - ...".
	reExplanation = regexp.MustCompile(`^(?i:explanation|rationale|reasoning|reason)\s*[:.\-–]\s*(.*)$`)
	// "Answer Key", "Answers", "Answers and explanations:".
	reKeyHeader = regexp.MustCompile(`^(?i:answer\s*key|answer\s+sheet|answer\s+section|answers?(?:\s+(?:and|&)\s+explanations?)?|key\s+to\s+questions)\s*:?$`)
	// "4. C", "4) C - because", "Q4: Mitral valve", "4 C".
	reKeyLine = regexp.MustCompile(`^(?:(?i:q(?:uestion)?)\s*)?` + qnum + `(?:\s*[.):\-–]\s*|\s+)(\S.*)$`)
	// One pair of a compact key line such as "1-B 2-C 3-A".
	reKeyPair = regexp.MustCompile(qnum + `\s*[.):\-–]?\s*\(?([A-Ha-h])\)?(?:[\s,;]+|$)`)
	// A letter answer with an optional remainder: "B", "(B)", "B) text", "B - because".
	reLetter = regexp.MustCompile(`^\(?([A-Ha-h])\)?(?:$|[.):]\s*|\s*[-–—:]\s*|\s+)(.*)$`)
	// Running page numbers: "7", "Page 7", "7 of 20", "7/20".
	rePageNumber = regexp.MustCompile(`^(?i:page\s+)?\d{1,4}(?:\s*(?:/|of)\s*\d{1,4})?$`)
)

type field int

const (
	fieldNone field = iota
	fieldStem
	fieldOption
	fieldExplanation
)

// question is one question as it is being read.
type question struct {
	number      string
	order       int // index of its first line in the section
	page        int
	stem        []string
	options     []string
	answer      string
	explanation []string
}

// key is one entry of an answer section.
type key struct {
	order       int
	raw         string
	explanation []string
}

// parser walks the section's lines once.
type parser struct {
	questions []*question
	keys      map[string][]*key
	inKey     bool
	cur       *question
	curKey    *key
	last      field
	lastPage  int
}

// Parse reads the questions out of pages, in order.
func Parse(pages []extraction.Page) []extraction.Question {
	p := &parser{keys: map[string][]*key{}}
	order := 0
	for _, pg := range pages {
		for _, raw := range strings.Split(pg.Text, "\n") {
			line := strings.TrimSpace(raw)
			if line == "" || rePageNumber.MatchString(line) {
				continue
			}
			if pg.Number != p.lastPage {
				p.pageBreak()
				p.lastPage = pg.Number
			}
			order++
			if reKeyHeader.MatchString(line) {
				p.inKey, p.curKey, p.last = true, nil, fieldNone
				continue
			}
			if p.inKey {
				p.keyLine(line, order)
			} else {
				p.questionLine(line, order, pg.Number)
			}
		}
	}
	return p.finish()
}

// pageBreak stops option and explanation text running onto the next page,
// where headings and prose usually start; a stem may run on.
func (p *parser) pageBreak() {
	if p.last == fieldOption || p.last == fieldExplanation {
		p.last = fieldNone
	}
}

func (p *parser) questionLine(line string, order, page int) {
	if m := reQuestion.FindStringSubmatch(line); m != nil && p.startsQuestion(m[1]) {
		p.cur = &question{number: m[1], order: order, page: page, stem: []string{m[2]}}
		p.questions = append(p.questions, p.cur)
		p.last = fieldStem
		return
	}
	if p.cur == nil {
		return // title, instructions: nothing to attach to yet
	}
	if m := reOption.FindStringSubmatch(line); m != nil {
		letter := m[1] + m[2] + m[3]
		if letterIndex(letter) == len(p.cur.options) && p.cur.answer == "" {
			p.cur.options = append(p.cur.options, splitInline(m[4], len(p.cur.options)+1)...)
			p.last = fieldOption
			return
		}
	}
	if m := reAnswer.FindStringSubmatch(line); m != nil {
		p.cur.answer = m[1]
		p.last = fieldNone
		return
	}
	if m := reExplanation.FindStringSubmatch(line); m != nil {
		p.cur.explanation = appendNonEmpty(p.cur.explanation, m[1])
		p.last = fieldExplanation
		return
	}
	switch p.last {
	case fieldStem:
		p.cur.stem = append(p.cur.stem, line)
	case fieldOption:
		i := len(p.cur.options) - 1
		p.cur.options[i] += " " + line
	case fieldExplanation:
		p.cur.explanation = append(p.cur.explanation, line)
	}
}

// startsQuestion decides whether a numbered line opens a new question or
// continues the current stem (a numbered list inside a stem).
func (p *parser) startsQuestion(number string) bool {
	c := p.cur
	if c == nil || len(c.options) > 0 || c.answer != "" || len(c.explanation) > 0 {
		return true
	}
	return atoi(number) == atoi(c.number)+1
}

func (p *parser) keyLine(line string, order int) {
	if pairs := compactPairs(line); len(pairs) > 1 {
		for _, pr := range pairs {
			p.keys[pr[0]] = append(p.keys[pr[0]], &key{order: order, raw: pr[1]})
		}
		p.curKey, p.last = nil, fieldNone
		return
	}
	if m := reKeyLine.FindStringSubmatch(line); m != nil {
		p.curKey = &key{order: order, raw: m[2]}
		p.keys[m[1]] = append(p.keys[m[1]], p.curKey)
		p.last = fieldExplanation
		return
	}
	if p.curKey == nil {
		return
	}
	if m := reExplanation.FindStringSubmatch(line); m != nil {
		p.curKey.explanation = appendNonEmpty(p.curKey.explanation, m[1])
		p.last = fieldExplanation
		return
	}
	if p.last == fieldExplanation {
		p.curKey.explanation = append(p.curKey.explanation, line)
	}
}

// compactPairs reads "1-B 2-C 3-A" as pairs; nil unless the pairs cover
// the whole line.
func compactPairs(line string) [][2]string {
	ms := reKeyPair.FindAllStringSubmatchIndex(line, -1)
	covered := 0
	var out [][2]string
	for _, m := range ms {
		if m[0] != covered {
			return nil
		}
		covered = m[1]
		out = append(out, [2]string{line[m[2]:m[3]], line[m[4]:m[5]]})
	}
	if covered != len(line) {
		return nil
	}
	return out
}

// splitInline splits "Nitrates (B) Antibiotics (C) ..." into options, each
// marker having to be the next letter in sequence.
func splitInline(text string, next int) []string {
	var out []string
	for {
		idx := nextMarker(text, next)
		if idx.start < 0 {
			return append(out, strings.TrimSpace(text))
		}
		out = append(out, strings.TrimSpace(text[:idx.start]))
		text = text[idx.end:]
		next++
	}
}

type span struct{ start, end int }

// nextMarker finds " (X) ", " X. " or " X) " for letter index next.
func nextMarker(text string, next int) (s span) {
	if next >= 8 {
		return span{-1, -1}
	}
	up, low := string(rune('A'+next)), string(rune('a'+next))
	for _, l := range []string{up, low} {
		for _, form := range []string{" (" + l + ") ", " " + l + ". ", " " + l + ") "} {
			if i := strings.Index(text, form); i >= 0 {
				return span{i, i + len(form)}
			}
		}
	}
	return span{-1, -1}
}
