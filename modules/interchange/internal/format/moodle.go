package format

import (
	"encoding/base64"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// ErrDoctype refuses a file that declares a DOCTYPE (and with it, entities):
// Moodle never writes one, and a declared entity is how a file asks a
// reader to expand or fetch things.
var ErrDoctype = errors.New("the file declares a DOCTYPE or entities, which Moodle XML never does")

type mText struct {
	Format string  `xml:"format,attr,omitempty"`
	Text   string  `xml:"text"`
	Files  []mFile `xml:"file,omitempty"`
}

// mFile is a file kept with a text (a picture its HTML shows as
// @@PLUGINFILE@@/name), base64 in the element.
type mFile struct {
	Name     string `xml:"name,attr"`
	Path     string `xml:"path,attr,omitempty"`
	Encoding string `xml:"encoding,attr"`
	Data     string `xml:",chardata"`
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
	// Moodle 1.9's picture of the question, read as its text's picture.
	Image       string `xml:"image,omitempty"`
	ImageBase64 string `xml:"image_base64,omitempty"`
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
				q, why := fromMoodle(&mq, lim)
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

// fromMoodle maps one question; the reason is set when its type, marking
// or pictures cannot be held by the bank.
func fromMoodle(mq *mQuestion, lim Limits) (Question, string) {
	var q Question
	if mq.Name != nil {
		q.Name = strings.TrimSpace(mq.Name.Text)
	}
	for _, t := range mq.Tags {
		if s := strings.TrimSpace(t.Text); s != "" {
			q.Tags = append(q.Tags, s)
		}
	}
	var pics []Picture
	var why string
	if q.Text, pics, why = moodleText(mq.QuestionText, lim, true); why != "" {
		return q, why
	}
	if mq.Image != "" && mq.ImageBase64 != "" && len(pics) == 0 {
		pic, why := decodePicture(mFile{Name: path.Base(mq.Image), Encoding: "base64", Data: mq.ImageBase64}, lim)
		if why != "" {
			return q, why
		}
		pics = append(pics, pic)
	}
	if q.Image, why = onePicture(pics, "question text"); why != "" {
		return q, why
	}
	if q.Explanation, pics, why = moodleText(mq.GeneralFeedback, lim, true); why != "" {
		return q, why
	}
	if q.ExplanationImage, why = onePicture(pics, "general feedback"); why != "" {
		return q, why
	}
	switch mq.Type {
	case "multichoice", "truefalse":
		q.Type = TypeMCQ
		if mq.Type == "multichoice" && strings.EqualFold(strings.TrimSpace(mq.Single), "false") {
			return q, "several options may be right; the bank marks exactly one"
		}
		for _, a := range mq.Answers {
			opt, why := answerText(a, lim)
			if why != "" {
				return q, why
			}
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
			q.OptionFeedback = append(q.OptionFeedback, feedbackText(a.Feedback))
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
			ans, why := answerText(a, lim)
			if why != "" {
				return q, why
			}
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

// onePicture is a text's one picture (nil none); a question holds one in
// its text and one in its explanation.
func onePicture(pics []Picture, where string) (*Picture, string) {
	switch len(pics) {
	case 0:
		return nil, ""
	case 1:
		return &pics[0], ""
	}
	return nil, fmt.Sprintf("the %s shows %d pictures; the bank keeps one there", where, len(pics))
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

// answerText is an option or answer as text: a picture in it refuses
// the question (options are text).
func answerText(a mAnswer, lim Limits) (string, string) {
	t, _, why := moodleText(&mText{Format: a.Format, Text: a.Text}, lim, false)
	return t, why
}

// moodleText reads a Moodle text in its format: HTML (Moodle's default)
// becomes markdown (Markdown) with the pictures it shows, read from the
// text's <file> elements; plain text, Moodle's auto-format and markdown
// are kept as written. A picture from outside the file, one the file does
// not hold, or one that is not a bounded PNG, JPEG or WebP refuses the
// question (the reason), as does any picture where pictures is false
// (options are text).
func moodleText(t *mText, lim Limits, pictures bool) (string, []Picture, string) {
	if t == nil {
		return "", nil, ""
	}
	switch t.Format {
	case "plain_text", "markdown", "moodle_auto_format":
		return clean(t.Text), nil, ""
	}
	text, srcs, err := Markdown(t.Text)
	if err != nil {
		return "", nil, fmt.Sprintf("a text cannot be read as HTML: %v", err)
	}
	if !pictures && len(srcs) > 0 {
		return "", nil, "an option shows a picture; options are text"
	}
	var pics []Picture
	for _, src := range srcs {
		name := PluginFileName(src)
		if name == "" {
			return "", nil, fmt.Sprintf("a text shows a picture from outside the file (%.100s), which is not fetched", src)
		}
		i := slices.IndexFunc(t.Files, func(f mFile) bool { return f.Name == name })
		if i < 0 {
			return "", nil, fmt.Sprintf("a text shows picture %q, which the file does not hold", name)
		}
		pic, why := decodePicture(t.Files[i], lim)
		if why != "" {
			return "", nil, why
		}
		if !slices.ContainsFunc(pics, func(p Picture) bool { return p.Name == name }) {
			pics = append(pics, pic)
		}
	}
	return text, pics, ""
}

// feedbackText is an option's feedback: its pictures are left out, as
// drafts keep no option feedback to show them with.
func feedbackText(t *mText) string {
	if t == nil {
		return ""
	}
	switch t.Format {
	case "plain_text", "markdown", "moodle_auto_format":
		return clean(t.Text)
	}
	text, _, err := Markdown(t.Text)
	if err != nil {
		return ""
	}
	return text
}

// PictureTypes are the pictures a question may bring, by their bytes
// (what media keeps as stills).
var PictureTypes = []string{"image/png", "image/jpeg", "image/webp"}

// decodePicture reads a <file> as a picture: base64, at most
// lim.MaxPictureBytes, PNG, JPEG or WebP by its bytes.
func decodePicture(f mFile, lim Limits) (Picture, string) {
	if f.Encoding != "base64" {
		return Picture{}, fmt.Sprintf("picture %q is not base64 (%q)", f.Name, f.Encoding)
	}
	data := strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, f.Data)
	if int64(base64.StdEncoding.DecodedLen(len(data))) > lim.MaxPictureBytes+3 {
		return Picture{}, fmt.Sprintf("picture %q is larger than %d bytes", f.Name, lim.MaxPictureBytes)
	}
	b, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		return Picture{}, fmt.Sprintf("picture %q is not valid base64", f.Name)
	}
	if t := http.DetectContentType(b); !slices.Contains(PictureTypes, t) {
		return Picture{}, fmt.Sprintf("picture %q is not a PNG, JPEG or WebP picture (its bytes say %s)", f.Name, t)
	}
	return Picture{Name: f.Name, Data: b}, ""
}

// WriteMoodle writes the questions as Moodle XML, a category entry before
// each run of questions in one category, as Moodle's importer
// (question/format/xml/format.php) reads it: texts in format "html" (the
// markdown rendered by HTML), a picture as <img src="@@PLUGINFILE@@/name">
// with its bytes in a <file name="name" path="/" encoding="base64"> of the
// same text, every answer's fraction 100 or 0 (values of Moodle's
// fraction_options_full), one option at 100 on a single-answer
// multichoice, short-answer answers as plain text.
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
		mq, err := toMoodle(q, i+1)
		if err != nil {
			return err
		}
		if err := enc.Encode(mq); err != nil {
			return err
		}
	}
	if err := enc.Flush(); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n</quiz>\n")
	return err
}

// moodleName is a question's name as Moodle keeps it (at most 255
// characters).
func moodleName(name string, n int) string {
	if name = strings.TrimSpace(name); name == "" {
		name = fmt.Sprintf("Question %d", n)
	}
	if r := []rune(name); len(r) > 255 {
		name = string(r[:255])
	}
	return name
}

// unsafeFileName is what Moodle's PARAM_FILE would strip from a name.
var unsafeFileName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// htmlText is a markdown text as a Moodle HTML text, its picture kept
// with it.
func htmlText(markdown string, pic *Picture) (*mText, error) {
	h, err := HTML(markdown)
	if err != nil {
		return nil, err
	}
	t := &mText{Format: "html", Text: h}
	if pic != nil {
		name := unsafeFileName.ReplaceAllString(pic.Name, "_")
		t.Text += `<p><img src="` + PluginFile + url.PathEscape(name) + `" alt=""></p>`
		t.Files = []mFile{{Name: name, Path: "/", Encoding: "base64", Data: base64.StdEncoding.EncodeToString(pic.Data)}}
	}
	return t, nil
}

func toMoodle(q *Question, n int) (mQuestion, error) {
	mq := mQuestion{Name: &mName{Text: moodleName(q.Name, n)}}
	var err error
	if mq.QuestionText, err = htmlText(q.Text, q.Image); err != nil {
		return mq, err
	}
	if mq.GeneralFeedback, err = htmlText(q.Explanation, q.ExplanationImage); err != nil {
		return mq, err
	}
	for _, t := range q.Tags {
		mq.Tags = append(mq.Tags, mTag{Text: t})
	}
	if q.Type == TypeFillIn {
		mq.Type, mq.UseCase = "shortanswer", "0"
		for _, a := range strings.Split(q.CorrectAnswer, AnswerSeparator) {
			mq.Answers = append(mq.Answers, mAnswer{Fraction: "100", Format: "plain_text", Text: a})
		}
		return mq, nil
	}
	mq.Type, mq.Single = "multichoice", "true"
	for i, o := range q.Options {
		opt, err := HTML(o)
		if err != nil {
			return mq, err
		}
		a := mAnswer{Fraction: "0", Format: "html", Text: opt}
		if o == q.CorrectAnswer {
			a.Fraction = "100"
		}
		if i < len(q.OptionFeedback) && q.OptionFeedback[i] != "" {
			if a.Feedback, err = htmlText(q.OptionFeedback[i], nil); err != nil {
				return mq, err
			}
		}
		mq.Answers = append(mq.Answers, a)
	}
	return mq, nil
}
