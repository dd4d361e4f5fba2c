package format

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ErrDoctype refuses a file that declares a DOCTYPE (and with it, entities):
// Moodle never writes one, and a declared entity is how a file asks a
// reader to expand or fetch things.
var ErrDoctype = errors.New("the file declares a DOCTYPE or entities, which Moodle XML never does")

type mText struct {
	Format string `xml:"format,attr,omitempty"`
	Text   string `xml:"text"`
}

type mAnswer struct {
	Fraction string `xml:"fraction,attr"`
	Format   string `xml:"format,attr,omitempty"`
	Text     string `xml:"text"`
	Feedback *mText `xml:"feedback,omitempty"`
}

type mName struct {
	Text string `xml:"text"`
}

type mTag struct {
	Text string `xml:"text"`
}

type mQuestion struct {
	XMLName         xml.Name  `xml:"question"`
	Type            string    `xml:"type,attr"`
	Category        *mName    `xml:"category,omitempty"`
	Name            *mName    `xml:"name,omitempty"`
	QuestionText    *mText    `xml:"questiontext,omitempty"`
	GeneralFeedback *mText    `xml:"generalfeedback,omitempty"`
	Single          string    `xml:"single,omitempty"`
	UseCase         string    `xml:"usecase,omitempty"`
	Answers         []mAnswer `xml:"answer"`
	Tags            []mTag    `xml:"tags>tag"`
}

// ReadMoodle reads a Moodle XML question file. A DOCTYPE is ErrDoctype, a
// file that is not Moodle XML an ErrMalformed, more than lim.MaxQuestions
// questions ErrTooMany; questions the bank cannot hold are refused one by
// one in the result.
func ReadMoodle(r io.Reader, lim Limits) (*Result, error) {
	d := xml.NewDecoder(r)
	d.Strict = true
	out := &Result{}
	depth, category := 0, ""
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			if depth != 0 || out.count() == 0 && category == "" {
				return nil, ErrMalformed{"the file holds no <quiz> of questions"}
			}
			return out, nil
		}
		if err != nil {
			return nil, ErrMalformed{fmt.Sprintf("the XML cannot be read: %v", err)}
		}
		switch t := tok.(type) {
		case xml.Directive:
			return nil, ErrDoctype
		case xml.EndElement:
			depth--
		case xml.StartElement:
			switch {
			case depth == 0 && t.Name.Local != "quiz":
				return nil, ErrMalformed{fmt.Sprintf("the root element is <%s>, not <quiz>", t.Name.Local)}
			case depth == 0:
				depth++
			case t.Name.Local != "question":
				if err := d.Skip(); err != nil {
					return nil, ErrMalformed{fmt.Sprintf("the XML cannot be read: %v", err)}
				}
			default:
				var mq mQuestion
				if err := d.DecodeElement(&mq, &t); err != nil {
					return nil, ErrMalformed{fmt.Sprintf("the XML cannot be read: %v", err)}
				}
				if mq.Type == "category" {
					if mq.Category != nil {
						category = moodleCategory(mq.Category.Text)
					}
					continue
				}
				if out.count() >= lim.MaxQuestions {
					return nil, ErrTooMany{lim.MaxQuestions}
				}
				q, why := fromMoodle(&mq)
				q.Category = category
				out.add(q, out.count()+1, lim, why)
			}
		}
	}
}

// moodleCategory drops Moodle's context prefix and top level:
// "$course$/top/Cardiology/Valves" is "Cardiology/Valves".
func moodleCategory(path string) string {
	path = strings.TrimSpace(path)
	if strings.HasPrefix(path, "$") {
		if i := strings.Index(path, "/"); i >= 0 {
			path = path[i+1:]
		} else {
			path = ""
		}
	}
	if path == "top" {
		return ""
	}
	return strings.TrimPrefix(path, "top/")
}

// fromMoodle maps one question; the reason is set when its type or marking
// cannot be held by the bank.
func fromMoodle(mq *mQuestion) (Question, string) {
	q := Question{Text: text(mq.QuestionText), Explanation: text(mq.GeneralFeedback)}
	if mq.Name != nil {
		q.Name = strings.TrimSpace(mq.Name.Text)
	}
	for _, t := range mq.Tags {
		if s := strings.TrimSpace(t.Text); s != "" {
			q.Tags = append(q.Tags, s)
		}
	}
	switch mq.Type {
	case "multichoice", "truefalse":
		q.Type = TypeMCQ
		if mq.Type == "multichoice" && strings.EqualFold(strings.TrimSpace(mq.Single), "false") {
			return q, "several options may be right; the bank marks exactly one"
		}
		for _, a := range mq.Answers {
			opt := answerText(a)
			if mq.Type == "truefalse" {
				opt = trueFalse(opt)
			}
			full, why := fraction(a.Fraction)
			if why != "" {
				return q, why
			}
			if full {
				if q.CorrectAnswer != "" {
					return q, "several options have full marks; the bank marks exactly one"
				}
				q.CorrectAnswer = opt
			}
			q.Options = append(q.Options, opt)
			q.OptionFeedback = append(q.OptionFeedback, text(a.Feedback))
		}
		return q, ""
	case "shortanswer":
		q.Type = TypeFillIn
		var accepted []string
		for _, a := range mq.Answers {
			full, why := fraction(a.Fraction)
			if why != "" {
				return q, why
			}
			ans := answerText(a)
			if !full || ans == "" {
				continue // a wrong answer kept for its feedback: the bank has no place for it
			}
			if strings.Contains(ans, AnswerSeparator) {
				return q, fmt.Sprintf("an answer contains %q, which the bank uses between alternatives", AnswerSeparator)
			}
			accepted = append(accepted, ans)
		}
		q.CorrectAnswer = strings.Join(accepted, AnswerSeparator)
		return q, ""
	default:
		return q, fmt.Sprintf("question type %q is not supported (multichoice, truefalse and shortanswer are)", mq.Type)
	}
}

// fraction reads an answer's marks: full (100), none (0) or partial, which
// the bank cannot hold.
func fraction(s string) (full bool, why string) {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	switch {
	case err != nil && strings.TrimSpace(s) == "":
		return false, ""
	case err != nil:
		return false, fmt.Sprintf("an answer's fraction %q is not a number", s)
	case f >= 99.99999:
		return true, ""
	case f <= 0:
		return false, ""
	default:
		return false, fmt.Sprintf("an answer has partial marks (%s%%); the bank marks answers right or wrong", s)
	}
}

func trueFalse(s string) string {
	switch strings.ToLower(s) {
	case "true":
		return "True"
	case "false":
		return "False"
	}
	return s
}

func answerText(a mAnswer) string { return text(&mText{Format: a.Format, Text: a.Text}) }

// text reads a Moodle text in its format: HTML (Moodle's default) is
// brought to plain text, plain and Markdown text are kept.
func text(t *mText) string {
	if t == nil {
		return ""
	}
	switch t.Format {
	case "plain_text", "markdown":
		return strings.TrimSpace(t.Text)
	}
	return PlainText(t.Text)
}

// WriteMoodle writes the questions as Moodle XML, a category entry before
// each run of questions in one category. Texts are written as plain_text,
// which Moodle shows as typed and ReadMoodle reads back unchanged.
func WriteMoodle(w io.Writer, qs []Question) error {
	if _, err := io.WriteString(w, xml.Header+"<quiz>\n"); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("  ", "  ")
	category := "\x00"
	for i := range qs {
		q := &qs[i]
		if q.Category != category {
			category = q.Category
			path := "$course$/top"
			if category != "" {
				path += "/" + category
			}
			if err := enc.Encode(mQuestion{Type: "category", Category: &mName{Text: path}}); err != nil {
				return err
			}
		}
		if err := enc.Encode(toMoodle(q, i+1)); err != nil {
			return err
		}
	}
	if err := enc.Flush(); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n</quiz>\n")
	return err
}

func plain(s string) *mText { return &mText{Format: "plain_text", Text: s} }

func toMoodle(q *Question, n int) mQuestion {
	name := q.Name
	if name == "" {
		name = fmt.Sprintf("Question %d", n)
	}
	mq := mQuestion{Name: &mName{Text: name}, QuestionText: plain(q.Text), GeneralFeedback: plain(q.Explanation)}
	for _, t := range q.Tags {
		mq.Tags = append(mq.Tags, mTag{Text: t})
	}
	if q.Type == TypeFillIn {
		mq.Type, mq.UseCase = "shortanswer", "0"
		for _, a := range strings.Split(q.CorrectAnswer, AnswerSeparator) {
			mq.Answers = append(mq.Answers, mAnswer{Fraction: "100", Format: "plain_text", Text: a})
		}
		return mq
	}
	mq.Type, mq.Single = "multichoice", "true"
	for i, o := range q.Options {
		a := mAnswer{Fraction: "0", Format: "plain_text", Text: o}
		if o == q.CorrectAnswer {
			a.Fraction = "100"
		}
		if i < len(q.OptionFeedback) && q.OptionFeedback[i] != "" {
			a.Feedback = plain(q.OptionFeedback[i])
		}
		mq.Answers = append(mq.Answers, a)
	}
	return mq
}
