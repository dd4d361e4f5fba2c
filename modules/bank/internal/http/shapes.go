package http

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/modules/bank/internal/app"
	"github.com/roundsedu/rounds/platform/opt"
)

// FigureBody is a figure on the wire.
type FigureBody struct {
	Path    string `json:"path" minLength:"1" maxLength:"500" doc:"storage key, never a URL"`
	Role    string `json:"role" enum:"stem,answer,explanation" doc:"only stem figures are shown to callers who may not see the answer side"`
	Caption string `json:"caption,omitempty" required:"false" maxLength:"1000"`
}

// TagBody is a tag a question carries.
type TagBody struct {
	ID      int64  `json:"id"`
	Type    string `json:"type" enum:"subject,disease,system,keyword"`
	Name    string `json:"name"`
	Derived bool   `json:"derived" doc:"carried through the category tree (system tags)"`
}

// QuestionBody is a question with its answer side; the answer fields are
// null when the caller may not see them (can_edit tells redacted from
// blank).
type QuestionBody struct {
	ID                   int64    `json:"id"`
	QuestionText         string   `json:"question_text"`
	QuestionType         string   `json:"question_type" enum:"mcq,fill_in"`
	Options              []string `json:"options"`
	CorrectAnswer        *string  `json:"correct_answer"`
	Explanation          *string  `json:"explanation"`
	OptionExplanations   []string `json:"option_explanations"`
	KeyPoints            []string `json:"key_points"`
	AttendingTip         *string  `json:"attending_tip"`
	ExplanationImagePath *string  `json:"explanation_image_path"`
	ImagePath            *string  `json:"image_path"`
	QuestionCategoryID   *int64   `json:"question_category_id"`
	QuestionCategoryName *string  `json:"question_category_name"`
	// No enum on a nullable level: huma would not list null in it.
	Difficulty *string      `json:"difficulty" nullable:"true" doc:"easy, medium or hard, rated by classify_question_difficulty; null until rated"`
	Figures    []FigureBody `json:"figures"`
	Tags       []TagBody    `json:"tags,omitempty"`
	ReadMore   []ArticleRef `json:"read_more,omitempty" doc:"published articles claiming the question's topic (its detail and quiz review)"`
	CanEdit    bool         `json:"can_edit"`
	Version    int          `json:"version"`
	CreatedAt  time.Time    `json:"created_at"`
	UpdatedAt  time.Time    `json:"updated_at"`
	DeletedAt  *time.Time   `json:"deleted_at"`
}

// ArticleRef is a library article a question links to.
type ArticleRef struct {
	ID    int64  `json:"id"`
	Slug  string `json:"slug"`
	Title string `json:"title"`
}

// withReadMore adds each question's "read more" articles.
func withReadMore(ctx context.Context, s *app.Service, qs []QuestionBody) error {
	ids := make([]int64, len(qs))
	for i, q := range qs {
		ids[i] = q.ID
	}
	refs, err := s.ReadMore(ctx, ids)
	if err != nil {
		return err
	}
	for i := range qs {
		for _, a := range refs[qs[i].ID] {
			qs[i].ReadMore = append(qs[i].ReadMore, ArticleRef{ID: a.ID, Slug: a.Slug, Title: a.Title})
		}
	}
	return nil
}

func toQuestionBody(q *app.Question) QuestionBody {
	b := QuestionBody{ID: q.ID, QuestionText: q.Text, QuestionType: q.Type, Options: opt.NonNil(q.Options),
		ImagePath: opt.NilIfZero(q.ImagePath), QuestionCategoryID: q.CategoryID,
		QuestionCategoryName: opt.NilIfZero(q.CategoryName), Difficulty: q.Difficulty, Figures: []FigureBody{}, CanEdit: q.CanEdit,
		Version: q.Version, CreatedAt: q.CreatedAt, UpdatedAt: q.UpdatedAt, DeletedAt: q.DeletedAt}
	if q.AnswersShown {
		b.CorrectAnswer, b.Explanation, b.AttendingTip = ptr(q.CorrectAnswer), ptr(q.Explanation), ptr(q.AttendingTip)
		b.OptionExplanations, b.KeyPoints = opt.NonNil(q.OptionExplanations), opt.NonNil(q.KeyPoints)
		b.ExplanationImagePath = opt.NilIfZero(q.ExplanationImagePath)
	}
	for _, f := range q.Figures {
		b.Figures = append(b.Figures, FigureBody(f))
	}
	if q.Tags != nil {
		b.Tags = []TagBody{}
		for _, t := range q.Tags {
			b.Tags = append(b.Tags, TagBody{ID: t.ID, Type: t.Type, Name: t.Name, Derived: t.Derived})
		}
	}
	return b
}

func toQuestionBodies(qs []*app.Question) []QuestionBody {
	out := make([]QuestionBody, 0, len(qs))
	for _, q := range qs {
		out = append(out, toQuestionBody(q))
	}
	return out
}

// QuizBody is QuizResponse.
type QuizBody struct {
	ID               int64      `json:"id"`
	SectionID        *int64     `json:"section_id"`
	UserID           int64      `json:"user_id"`
	Title            string     `json:"title"`
	QuestionsCount   int        `json:"questions_count"`
	Mode             string     `json:"mode" enum:"timed,learning"`
	TimeLimitMinutes *int       `json:"time_limit_minutes"`
	IsPublished      int        `json:"is_published" enum:"0,1"`
	CategoryID       *int64     `json:"category_id"`
	CategoryName     *string    `json:"category_name"`
	CreatedAt        time.Time  `json:"created_at"`
	DeletedAt        *time.Time `json:"deleted_at"`
}

func toQuizBody(z *app.Quiz) QuizBody {
	return QuizBody{ID: z.ID, SectionID: z.SectionID, UserID: z.UserID, Title: z.Title,
		QuestionsCount: z.QuestionsCount, Mode: z.Mode, TimeLimitMinutes: z.TimeLimitMinutes,
		IsPublished: flag(z.IsPublished), CategoryID: z.CategoryID, CategoryName: z.CategoryName,
		CreatedAt: z.CreatedAt, DeletedAt: z.DeletedAt}
}

func toQuizBodies(zs []app.Quiz) []QuizBody {
	out := make([]QuizBody, 0, len(zs))
	for i := range zs {
		out = append(out, toQuizBody(&zs[i]))
	}
	return out
}

// QuizDetailBody is QuizDetail (timed: answer fields null) or
// QuizLearningDetail (learning or study: answers in).
type QuizDetailBody struct {
	QuizBody
	AnswersShown bool           `json:"answers_shown"`
	Questions    []QuestionBody `json:"questions"`
}

func toQuizDetailBody(d *app.QuizDetail) QuizDetailBody {
	return QuizDetailBody{QuizBody: toQuizBody(&d.Quiz), AnswersShown: d.AnswersShown,
		Questions: toQuestionBodies(d.Questions)}
}

// QuizCreatedBody answers the quiz-making routes.
type QuizCreatedBody struct {
	ID             int64  `json:"id"`
	Title          string `json:"title"`
	QuestionsCount int    `json:"questions_count"`
}

func toQuizCreated(z *app.Quiz) QuizCreatedBody {
	return QuizCreatedBody{ID: z.ID, Title: z.Title, QuestionsCount: z.QuestionsCount}
}

func ptr(s string) *string { return &s }

func flag(b bool) int {
	if b {
		return 1
	}
	return 0
}
