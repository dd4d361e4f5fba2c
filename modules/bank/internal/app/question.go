package app

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/roundsedu/rounds/modules/bank/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/db"
	"github.com/roundsedu/rounds/platform/opt"
)

// Question types, in their canonical spelling: stored and answered so.
const (
	TypeMCQ    = "mcq"
	TypeFillIn = "fill_in"
)

// ParseType reads a question type in any spelling clients send (the spec
// writes MCQ and non-MCQ (fill-in); letter case, '-', '_' and a space are
// all accepted) and returns its canonical spelling. ok is false for
// anything else.
func ParseType(s string) (canonical string, ok bool) {
	key := strings.NewReplacer("-", "_", " ", "_").Replace(strings.ToLower(strings.TrimSpace(s)))
	switch key {
	case "mcq":
		return TypeMCQ, true
	case "fill_in", "fillin", "non_mcq", "nonmcq":
		return TypeFillIn, true
	}
	return "", false
}

// typeProblem is the message for a question type ParseType refuses.
var typeProblem = fmt.Sprintf("question_type must be %s or %s (MCQ, fill-in and non-MCQ are accepted in any letter case)",
	TypeMCQ, TypeFillIn)

// Figure roles: only stem figures are shown to callers who may not see the
// answer side.
const (
	RoleStem        = "stem"
	RoleAnswer      = "answer"
	RoleExplanation = "explanation"
)

// Figure is an image hung on a question.
type Figure struct {
	Path    string
	Role    string
	Caption string
}

// Content is the versioned content of a question: what a PATCH may change
// and a version snapshot records.
type Content struct {
	Type                 string
	Text                 string
	Options              []string
	CorrectAnswer        string
	Explanation          string
	OptionExplanations   []string
	KeyPoints            []string
	AttendingTip         string
	ExplanationImagePath string
	ImagePath            string
	Figures              []Figure
}

// Question is a question as the service hands it out.
type Question struct {
	ID int64
	Content
	CategoryID   *int64
	CategoryName string
	Difficulty   *string // easy, medium or hard once rated; not answer-side
	Version      int
	CreatedAt    time.Time
	UpdatedAt    time.Time
	DeletedAt    *time.Time
	Tags         []Tag
	// CanEdit: the caller may edit it. AnswersShown: the answer side is
	// filled in (editors, or inside an authorised attempt); when false the
	// answer fields are empty and only stem figures remain.
	CanEdit      bool
	AnswersShown bool
}

func contentOf(q *store.Question) Content {
	c := Content{Type: q.QuestionType, Text: q.QuestionText, Options: opt.NonNil(q.Options),
		CorrectAnswer: q.CorrectAnswer, Explanation: q.Explanation,
		OptionExplanations: opt.NonNil(q.OptionExplanations), KeyPoints: opt.NonNil(q.KeyPoints),
		AttendingTip: q.AttendingTip, ExplanationImagePath: q.ExplanationImagePath, ImagePath: q.ImagePath,
		Figures: []Figure{}}
	for _, f := range q.Figures {
		c.Figures = append(c.Figures, Figure{Path: f.Path, Role: f.Role, Caption: f.Caption})
	}
	return c
}

// apply writes c into the row's versioned fields.
func (c Content) apply(q *store.Question) {
	q.QuestionType, q.QuestionText, q.Options = c.Type, c.Text, c.Options
	q.CorrectAnswer, q.Explanation = c.CorrectAnswer, c.Explanation
	q.OptionExplanations, q.KeyPoints, q.AttendingTip = c.OptionExplanations, c.KeyPoints, c.AttendingTip
	q.ExplanationImagePath, q.ImagePath = c.ExplanationImagePath, c.ImagePath
	q.Figures = make(store.Figures, 0, len(c.Figures))
	for _, f := range c.Figures {
		q.Figures = append(q.Figures, store.Figure{Path: f.Path, Role: f.Role, Caption: f.Caption})
	}
}

func toQuestion(r *store.QuestionWithFiling) *Question {
	q := &Question{ID: r.ID, Content: contentOf(&r.Question), CategoryID: r.QuestionCategoryID,
		Difficulty: r.Difficulty, Version: r.Version, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, DeletedAt: r.DeletedAt}
	if r.QuestionCategoryName != nil {
		q.CategoryName = *r.QuestionCategoryName
	}
	return q
}

// redact empties the answer side and keeps only stem figures.
func (q *Question) redact() {
	q.AnswersShown = false
	q.CorrectAnswer, q.Explanation, q.AttendingTip, q.ExplanationImagePath = "", "", "", ""
	q.OptionExplanations, q.KeyPoints = nil, nil
	stem := []Figure{}
	for _, f := range q.Figures {
		if f.Role == RoleStem {
			stem = append(stem, f)
		}
	}
	q.Figures = stem
}

// normalize trims c and checks every rule a stored question must meet. It
// returns the problems found, one per field.
func (c *Content) normalize() []apperr.Field {
	var bad []apperr.Field
	fail := func(field, format string, args ...any) {
		bad = append(bad, apperr.Field{Field: field, Message: fmt.Sprintf(format, args...), Type: "value_error"})
	}
	c.Text = strings.TrimSpace(c.Text)
	c.CorrectAnswer = strings.TrimSpace(c.CorrectAnswer)
	c.Explanation = strings.TrimSpace(c.Explanation)
	c.AttendingTip = strings.TrimSpace(c.AttendingTip)
	c.Options = trimAll(c.Options, false)
	c.OptionExplanations = trimAll(c.OptionExplanations, false)
	c.KeyPoints = trimAll(c.KeyPoints, true)
	if c.Figures == nil {
		c.Figures = []Figure{}
	}
	if c.Text == "" {
		fail("question_text", "the question text is empty")
	}
	if t, ok := ParseType(c.Type); ok {
		c.Type = t
	}
	switch c.Type {
	case TypeMCQ:
		if len(c.Options) < 2 {
			fail("options", "a multiple-choice question needs at least two options")
		}
		seen := map[string]bool{}
		for i, o := range c.Options {
			key := strings.ToLower(o)
			switch {
			case o == "":
				fail(fmt.Sprintf("options[%d]", i), "option %d is empty", i+1)
			case seen[key]:
				fail(fmt.Sprintf("options[%d]", i), "option %q appears twice", o)
			}
			seen[key] = true
		}
		if c.CorrectAnswer == "" {
			fail("correct_answer", "no correct answer is marked")
		} else if !slices.Contains(c.Options, c.CorrectAnswer) {
			fail("correct_answer", "the correct answer %q is not one of the options", c.CorrectAnswer)
		}
		if len(c.OptionExplanations) > 0 && len(c.OptionExplanations) != len(c.Options) {
			fail("option_explanations", "give one explanation per option (%d), or none", len(c.Options))
		}
	case TypeFillIn:
		if len(c.Options) > 0 {
			fail("options", "a fill-in question has no options")
		}
		if len(c.OptionExplanations) > 0 {
			fail("option_explanations", "a fill-in question has no options to explain")
		}
		if strings.Trim(c.CorrectAnswer, "| ") == "" {
			fail("correct_answer", "a fill-in question needs a correct answer")
		}
	default:
		fail("question_type", "%s", typeProblem)
	}
	for field, p := range map[string]*string{"image_path": &c.ImagePath, "explanation_image_path": &c.ExplanationImagePath} {
		*p = strings.TrimSpace(*p)
		if msg := checkKey(*p); msg != "" {
			fail(field, "%s", msg)
		}
	}
	for i := range c.Figures {
		f := &c.Figures[i]
		f.Path, f.Caption = strings.TrimSpace(f.Path), strings.TrimSpace(f.Caption)
		if f.Path == "" {
			fail(fmt.Sprintf("figures[%d].path", i), "a figure needs a path")
		} else if msg := checkKey(f.Path); msg != "" {
			fail(fmt.Sprintf("figures[%d].path", i), "%s", msg)
		}
		if f.Role != RoleStem && f.Role != RoleAnswer && f.Role != RoleExplanation {
			fail(fmt.Sprintf("figures[%d].role", i), "role must be stem, answer or explanation")
		}
	}
	slices.SortFunc(bad, func(a, b apperr.Field) int { return strings.Compare(a.Field, b.Field) })
	return bad
}

// checkKey refuses anything but a storage key: stored paths are keys,
// never URLs.
func checkKey(p string) string {
	switch {
	case p == "":
		return ""
	case strings.Contains(p, "://"), strings.HasPrefix(p, "/"), strings.Contains(p, "\\"):
		return "give a storage key (like figures/heart.png), not a URL or absolute path"
	case slices.Contains(strings.Split(p, "/"), ".."):
		return "a storage key cannot climb out of its folder"
	}
	return ""
}

func trimAll(in []string, dropEmpty bool) []string {
	out := make([]string, 0, len(in))
	for _, s := range in {
		s = strings.TrimSpace(s)
		if s == "" && dropEmpty {
			continue
		}
		out = append(out, s)
	}
	return out
}

// invalid is a 422 carrying every problem as fields; badRequest is the
// same as a plain 400 (the quiz question route's contract: fields belong to
// validation failures only).
func invalid(fields []apperr.Field) *apperr.Error {
	return &apperr.Error{Code: apperr.Invalid, Message: fields[0].Message, Fields: fields}
}

func badRequest(fields []apperr.Field) *apperr.Error {
	msgs := make([]string, len(fields))
	for i, f := range fields {
		msgs[i] = f.Message
	}
	return apperr.BadRequestf("%s", strings.Join(msgs, "; "))
}

func notFoundOr(err error, what string) error {
	if db.IsNotFound(err) {
		return apperr.NotFoundf("%s not found", what)
	}
	return err
}

// liveQuestion loads a question that is not in the trash (404 otherwise).
func (s *Service) liveQuestion(ctx context.Context, id int64, lock bool) (*store.QuestionWithFiling, error) {
	q, err := s.store.Question(ctx, id, lock)
	if err != nil {
		return nil, notFoundOr(err, "question")
	}
	if q.DeletedAt != nil {
		return nil, apperr.NotFoundf("question not found")
	}
	return q, nil
}
