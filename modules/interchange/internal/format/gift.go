package format

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// giftSpecial are the characters GIFT escapes with a backslash.
const giftSpecial = `~=#{}:\`

// ReadGIFT reads a GIFT question file. Questions are separated by blank
// lines; "//" lines are comments; "$CATEGORY:" sets the category of the
// questions after it. A file that is not UTF-8 text is an ErrMalformed,
// more than lim.MaxQuestions questions ErrTooMany; questions the bank
// cannot hold are refused one by one.
func ReadGIFT(r io.Reader, lim Limits) (*Result, error) {
	sc := bufio.NewScanner(r)
	// A line holds at most a question and its answers on one line.
	maxLine := lim.MaxFieldBytes*4 + 1024
	sc.Buffer(make([]byte, min(64<<10, maxLine)), maxLine)
	out := &Result{}
	category := ""
	var item []string
	open := false // the item's answers are still open: a blank line does not end it
	flush := func() error {
		if len(item) == 0 {
			return nil
		}
		block := strings.Join(item, "\n")
		item, open = item[:0], false
		if out.count() >= lim.MaxQuestions {
			return ErrTooMany{lim.MaxQuestions}
		}
		q, why := parseGIFTItem(block)
		q.Category = category
		out.add(q, out.count()+1, lim, why)
		return nil
	}
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if line == 1 {
			text = strings.TrimPrefix(text, "\ufeff")
		}
		if !validText(text) {
			return nil, ErrMalformed{fmt.Sprintf("line %d is not UTF-8 text", line)}
		}
		trimmed := strings.TrimSpace(text)
		switch {
		case strings.HasPrefix(trimmed, "//"):
			continue
		case strings.HasPrefix(trimmed, "$CATEGORY:"):
			if err := flush(); err != nil {
				return nil, err
			}
			category = moodleCategory(strings.TrimSpace(strings.TrimPrefix(trimmed, "$CATEGORY:")))
		case trimmed == "":
			// A blank line ends a question, unless its answers are still open.
			if len(item) > 0 && !open {
				if err := flush(); err != nil {
					return nil, err
				}
			}
		default:
			item = append(item, trimmed)
			open = stillOpen(trimmed, open)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, ErrMalformed{fmt.Sprintf("line %d is longer than the file may have: %v", line+1, err)}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	if out.count() == 0 {
		return nil, ErrMalformed{"the file holds no GIFT questions"}
	}
	return out, nil
}

// validText refuses binary content (NUL and invalid UTF-8).
func validText(s string) bool {
	return !strings.ContainsRune(s, 0) && strings.ToValidUTF8(s, "\ufffd") == s
}

// stillOpen follows a question's braces across one more line: whether an
// unescaped "{" is still waiting for its "}".
func stillOpen(s string, open bool) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '{':
			open = true
		case '}':
			open = false
		}
	}
	return open
}

// indexUnescaped is the first unescaped c in s at or after from, or -1.
func indexUnescaped(s string, c byte, from int) int {
	for i := from; i < len(s); i++ {
		if s[i] == '\\' {
			i++
			continue
		}
		if s[i] == c {
			return i
		}
	}
	return -1
}

// unescape reads GIFT escapes: \n is a line break, a backslash before a
// special character keeps the character.
func unescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			if s[i] == 'n' {
				b.WriteByte('\n')
			} else {
				b.WriteByte(s[i])
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// parseGIFTItem reads one question: "::title::[format] text {answers} text".
func parseGIFTItem(block string) (Question, string) {
	var q Question
	if strings.HasPrefix(block, "::") {
		if end := strings.Index(block[2:], "::"); end >= 0 {
			q.Name = strings.TrimSpace(unescape(block[2 : 2+end]))
			block = strings.TrimSpace(block[4+end:])
		}
	}
	textFormat := ""
	if strings.HasPrefix(block, "[") {
		if end := strings.IndexByte(block, ']'); end > 0 {
			textFormat = block[1:end]
			block = block[end+1:]
		}
	}
	open := indexUnescaped(block, '{', 0)
	if open < 0 {
		return q, "no answers in braces (a description, which is not a question)"
	}
	closing := indexUnescaped(block, '}', open+1)
	if closing < 0 {
		return q, "the answers' braces are not closed"
	}
	before, after := strings.TrimSpace(block[:open]), strings.TrimSpace(block[closing+1:])
	stem := before
	if after != "" {
		stem = before + " _____ " + after // the "missing word" form: the blank is where the answers stood
	}
	var why string
	if q.Text, why = giftText(stem, textFormat); why != "" {
		return q, why
	}
	return readAnswers(q, block[open+1:closing], textFormat)
}

// giftText reads a text in its format: [html] becomes markdown (Markdown);
// a picture in it refuses the question, as a GIFT file carries no files.
func giftText(s, textFormat string) (string, string) {
	s = unescape(s)
	if textFormat != "html" {
		return clean(s), ""
	}
	text, images, err := Markdown(s)
	switch {
	case err != nil:
		return "", fmt.Sprintf("a text cannot be read as HTML: %v", err)
	case len(images) > 0:
		return "", "a text shows a picture, which a GIFT file cannot carry (export it as Moodle XML)"
	}
	return text, ""
}

type giftAnswer struct {
	correct  bool
	weight   string // "%50%" partial marks, as written
	text     string
	feedback string
}

// generalFeedback is where an unescaped "####" starts, or -1.
func generalFeedback(body string) int {
	for i := 0; i < len(body); i++ {
		if body[i] == '\\' {
			i++
			continue
		}
		if strings.HasPrefix(body[i:], "####") {
			return i
		}
	}
	return -1
}

// readAnswers reads the inside of the braces.
func readAnswers(q Question, body, textFormat string) (Question, string) {
	if i := generalFeedback(body); i >= 0 {
		var why string
		if q.Explanation, why = giftText(body[i+4:], textFormat); why != "" {
			return q, why
		}
		body = body[:i]
	}
	body = strings.TrimSpace(body)
	if strings.HasPrefix(body, "#") {
		return q, "a numerical question, which the bank cannot hold"
	}
	switch strings.ToUpper(strings.SplitN(body, "#", 2)[0]) {
	case "":
		return q, "an essay question (no answers), which the bank cannot mark"
	case "T", "TRUE", "F", "FALSE":
		q.Type, q.Options = TypeMCQ, []string{"True", "False"}
		q.CorrectAnswer = "False"
		if strings.HasPrefix(strings.ToUpper(body), "T") {
			q.CorrectAnswer = "True"
		}
		return q, ""
	}
	answers, why := splitAnswers(body)
	if why != "" {
		return q, why
	}
	mcq := false
	for _, a := range answers {
		if !a.correct {
			mcq = true
		}
		if strings.Contains(a.text, "->") {
			return q, "a matching question, which the bank cannot hold"
		}
	}
	for i := range answers {
		a := &answers[i]
		if a.weight == "" {
			continue
		}
		w, err := strconv.ParseFloat(strings.Trim(a.weight, "%"), 64)
		if err != nil || w > 0 && w < 100 {
			return q, fmt.Sprintf("an answer has partial marks (%s); the bank marks answers right or wrong", a.weight)
		}
		a.correct = w >= 100
	}
	if !mcq {
		q.Type = TypeFillIn
		var alts []string
		for _, a := range answers {
			if !a.correct {
				continue // "=%0%" marks a wrong answer kept for its feedback
			}
			if strings.Contains(a.text, AnswerSeparator) {
				return q, fmt.Sprintf("an answer contains %q, which the bank uses between alternatives", AnswerSeparator)
			}
			alts = append(alts, a.text)
		}
		q.CorrectAnswer = strings.Join(alts, AnswerSeparator)
		return q, ""
	}
	q.Type = TypeMCQ
	for _, a := range answers {
		if a.correct {
			if q.CorrectAnswer != "" {
				return q, "several options have full marks; the bank marks exactly one"
			}
			q.CorrectAnswer = a.text
		}
		q.Options = append(q.Options, a.text)
		q.OptionFeedback = append(q.OptionFeedback, a.feedback)
	}
	return q, ""
}

// splitAnswers cuts "=right#why ~wrong#why" at each unescaped = or ~.
func splitAnswers(body string) ([]giftAnswer, string) {
	if body[0] != '=' && body[0] != '~' {
		return nil, "the answers do not start with = or ~"
	}
	var out []giftAnswer
	start := 0
	for i := 1; i <= len(body); i++ {
		if i < len(body) && body[i] == '\\' {
			i++
			continue
		}
		if i < len(body) && body[i] != '=' && body[i] != '~' {
			continue
		}
		if i < len(body) && body[i] == '=' && i > 0 && body[i-1] == '-' {
			continue // "->" of a matching pair is not a new answer
		}
		part := body[start:i]
		a := giftAnswer{correct: part[0] == '='}
		part = part[1:]
		if strings.HasPrefix(part, "%") {
			if end := strings.IndexByte(part[1:], '%'); end >= 0 {
				a.weight, part = part[:end+2], part[end+2:]
			}
		}
		if h := indexUnescaped(part, '#', 0); h >= 0 {
			a.feedback = strings.TrimSpace(unescape(part[h+1:]))
			part = part[:h]
		}
		a.text = strings.TrimSpace(unescape(part))
		if a.text == "" {
			return nil, "an answer is blank"
		}
		out = append(out, a)
		start = i
	}
	return out, ""
}

// escapeGIFT writes s so ReadGIFT reads it back: specials escaped, line
// breaks as \n (a blank line would end the question).
func escapeGIFT(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
		case strings.ContainsRune(giftSpecial, r):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// WriteGIFT writes the questions as GIFT, a $CATEGORY line before each run
// of questions in one category, texts as [markdown] (the bank keeps markdown; Moodle renders it).
func WriteGIFT(w io.Writer, qs []Question) error {
	bw := bufio.NewWriter(w)
	category := "\x00"
	for i := range qs {
		q := &qs[i]
		if q.Category != category {
			category = q.Category
			path := "$course$/top"
			if category != "" {
				path += "/" + category
			}
			fmt.Fprintf(bw, "$CATEGORY: %s\n\n", path)
		}
		name := q.Name
		if name == "" {
			name = fmt.Sprintf("Question %d", i+1)
		}
		fmt.Fprintf(bw, "::%s::[markdown]%s {\n", escapeGIFT(name), escapeGIFT(q.Text))
		if q.Type == TypeFillIn {
			for _, a := range strings.Split(q.CorrectAnswer, AnswerSeparator) {
				fmt.Fprintf(bw, "\t=%s\n", escapeGIFT(a))
			}
		} else {
			for j, o := range q.Options {
				mark := "~"
				if o == q.CorrectAnswer {
					mark = "="
				}
				fmt.Fprintf(bw, "\t%s%s", mark, escapeGIFT(o))
				if j < len(q.OptionFeedback) && q.OptionFeedback[j] != "" {
					fmt.Fprintf(bw, "#%s", escapeGIFT(q.OptionFeedback[j]))
				}
				bw.WriteString("\n")
			}
		}
		if q.Explanation != "" {
			fmt.Fprintf(bw, "\t####%s\n", escapeGIFT(q.Explanation))
		}
		bw.WriteString("}\n\n")
	}
	return bw.Flush()
}
