package http

import (
	"context"

	"github.com/roundsedu/rounds/modules/bank/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
	"github.com/roundsedu/rounds/platform/opt"
)

type quizIDInput struct {
	QuizID int64 `path:"quiz_id" minimum:"1"`
}

type quizListInput struct {
	Limit  int `query:"limit" default:"200" minimum:"1" maximum:"500"`
	Offset int `query:"offset" default:"0" minimum:"0"`
}

type quizzesOutput struct{ Body []QuizBody }

type quizOutput struct{ Body QuizBody }

type quizDetailOutput struct{ Body QuizDetailBody }

type getQuizInput struct {
	QuizID int64 `path:"quiz_id" minimum:"1"`
	Study  bool  `query:"study" default:"false" doc:"force the answer side in (a study session)"`
	httpapi.Conditional
}

type shuffleInput struct {
	QuizID         int64 `path:"quiz_id" minimum:"1"`
	ShuffleOptions bool  `query:"shuffle_options" default:"true"`
}

type renameQuizInput struct {
	QuizID int64 `path:"quiz_id" minimum:"1"`
	Body   struct {
		Title string `json:"title" minLength:"1" maxLength:"200"`
	}
}

type publishInput struct {
	QuizID    int64 `path:"quiz_id" minimum:"1"`
	Published bool  `query:"published" default:"true"`
}

type publishOutput struct {
	Body struct {
		QuizID      int64 `json:"quiz_id"`
		IsPublished int   `json:"is_published" enum:"0,1"`
	}
}

// QuizQuestionBody is a question as the quiz editor lists it.
type QuizQuestionBody struct {
	ID            int64    `json:"id"`
	QuestionText  string   `json:"question_text"`
	QuestionType  string   `json:"question_type"`
	Options       []string `json:"options"`
	CorrectAnswer string   `json:"correct_answer"`
	Explanation   string   `json:"explanation"`
}

type quizQuestionsOutput struct{ Body []QuizQuestionBody }

type quizQuestionInput struct {
	QuizID     int64 `path:"quiz_id" minimum:"1"`
	QuestionID int64 `path:"question_id" minimum:"1"`
}

type patchQuizQuestionInput struct {
	QuizID     int64 `path:"quiz_id" minimum:"1"`
	QuestionID int64 `path:"question_id" minimum:"1"`
	Body       struct {
		QuestionText  *string  `json:"question_text,omitempty" required:"false" minLength:"1" maxLength:"10000"`
		Options       []string `json:"options,omitempty" required:"false" maxItems:"20"`
		CorrectAnswer *string  `json:"correct_answer,omitempty" required:"false" maxLength:"2000"`
		Explanation   *string  `json:"explanation,omitempty" required:"false" maxLength:"20000"`
		QuestionType  *string  `json:"question_type,omitempty" required:"false" maxLength:"20" doc:"mcq or fill_in (canonical, as answered); MCQ, fill-in and non-MCQ are accepted in any letter case"`
	}
}

type quizSearchInput struct {
	Q    string `query:"q" required:"true" minLength:"2" maxLength:"200"`
	Mode string `query:"mode" enum:"title,questions,all" default:"all"`
}

// QuizHitBody is one quiz search result.
type QuizHitBody struct {
	QuizID            int64                 `json:"quiz_id"`
	QuizTitle         string                `json:"quiz_title"`
	MatchType         string                `json:"match_type" enum:"title,questions,both"`
	MatchingQuestions []MatchingQuestionOut `json:"matching_questions"`
	QuestionsCount    int                   `json:"questions_count"`
	Mode              string                `json:"mode"`
	IsPublished       int                   `json:"is_published" enum:"0,1"`
}

// MatchingQuestionOut is a question that matched (stem only).
type MatchingQuestionOut struct {
	ID           int64  `json:"id"`
	QuestionText string `json:"question_text"`
}

type quizSearchOutput struct{ Body []QuizHitBody }

func (h *handlers) quizzes(ctx context.Context, in *quizListInput) (*quizzesOutput, error) {
	zs, err := h.svc.Quizzes(ctx, auth.MustFrom(ctx), in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	return &quizzesOutput{Body: toQuizBodies(zs)}, nil
}

func (h *handlers) searchQuizzes(ctx context.Context, in *quizSearchInput) (*quizSearchOutput, error) {
	hits, err := h.svc.SearchQuizzes(ctx, auth.MustFrom(ctx), in.Q, in.Mode)
	if err != nil {
		return nil, err
	}
	return &quizSearchOutput{Body: toQuizHits(hits)}, nil
}

func (h *handlers) quizTrash(ctx context.Context, in *quizListInput) (*quizzesOutput, error) {
	zs, err := h.svc.QuizTrash(ctx, auth.MustFrom(ctx), in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	return &quizzesOutput{Body: toQuizBodies(zs)}, nil
}

func (h *handlers) quiz(ctx context.Context, in *getQuizInput) (*httpapi.Encoded, error) {
	return h.bodies.get(ctx, in.QuizID, in.Study, in.Conditional)
}

func (h *handlers) renameQuiz(ctx context.Context, in *renameQuizInput) (*quizOutput, error) {
	z, err := h.svc.RenameQuiz(ctx, auth.MustFrom(ctx), in.QuizID, in.Body.Title)
	if err != nil {
		return nil, err
	}
	return &quizOutput{Body: toQuizBody(z)}, nil
}

func (h *handlers) shuffleQuiz(ctx context.Context, in *shuffleInput) (*quizDetailOutput, error) {
	d, err := h.svc.ShuffleQuiz(ctx, auth.MustFrom(ctx), in.QuizID, in.ShuffleOptions)
	if err != nil {
		return nil, err
	}
	return &quizDetailOutput{Body: toQuizDetailBody(d)}, nil
}

func (h *handlers) reviewQuiz(ctx context.Context, in *quizIDInput) (*quizDetailOutput, error) {
	d, err := h.svc.ReviewQuiz(ctx, auth.MustFrom(ctx), in.QuizID)
	if err != nil {
		return nil, err
	}
	body := toQuizDetailBody(d)
	if err := withReadMore(ctx, h.svc, body.Questions); err != nil {
		return nil, err
	}
	return &quizDetailOutput{Body: body}, nil
}

func (h *handlers) quizQuestions(ctx context.Context, in *quizIDInput) (*quizQuestionsOutput, error) {
	qs, err := h.svc.QuizQuestions(ctx, auth.MustFrom(ctx), in.QuizID)
	if err != nil {
		return nil, err
	}
	return &quizQuestionsOutput{Body: toQuizQuestions(qs)}, nil
}

func (h *handlers) patchQuizQuestion(ctx context.Context, in *patchQuizQuestionInput) (*questionOutput, error) {
	b := in.Body
	pt := app.Patch{Type: b.QuestionType, Text: b.QuestionText, CorrectAnswer: b.CorrectAnswer,
		Explanation: b.Explanation}
	if b.Options != nil {
		pt.Options = &b.Options
	}
	q, err := h.svc.UpdateQuizQuestion(ctx, auth.MustFrom(ctx), in.QuizID, in.QuestionID, pt)
	if err != nil {
		return nil, err
	}
	return &questionOutput{Body: toQuestionBody(q)}, nil
}

func (h *handlers) removeQuizQuestion(ctx context.Context, in *quizQuestionInput) (*struct{}, error) {
	return nil, h.svc.RemoveQuizQuestion(ctx, auth.MustFrom(ctx), in.QuizID, in.QuestionID)
}

func (h *handlers) publishQuiz(ctx context.Context, in *publishInput) (*publishOutput, error) {
	z, err := h.svc.PublishQuiz(ctx, auth.MustFrom(ctx), in.QuizID, in.Published)
	if err != nil {
		return nil, err
	}
	out := &publishOutput{}
	out.Body.QuizID, out.Body.IsPublished = z.ID, flag(z.IsPublished)
	return out, nil
}

func (h *handlers) trashQuiz(ctx context.Context, in *quizIDInput) (*struct{}, error) {
	return nil, h.svc.TrashQuiz(ctx, auth.MustFrom(ctx), in.QuizID)
}

func (h *handlers) restoreQuiz(ctx context.Context, in *quizIDInput) (*quizOutput, error) {
	z, err := h.svc.RestoreQuiz(ctx, auth.MustFrom(ctx), in.QuizID)
	if err != nil {
		return nil, err
	}
	return &quizOutput{Body: toQuizBody(z)}, nil
}

func (h *handlers) purgeQuiz(ctx context.Context, in *quizIDInput) (*struct{}, error) {
	return nil, h.svc.PurgeQuiz(ctx, auth.MustFrom(ctx), in.QuizID)
}

func toQuizHits(hits []app.QuizHit) []QuizHitBody {
	out := make([]QuizHitBody, len(hits))
	for i := range hits {
		out[i] = toQuizHit(&hits[i])
	}
	return out
}

func toQuizHit(hit *app.QuizHit) QuizHitBody {
	return QuizHitBody{QuizID: hit.Quiz.ID, QuizTitle: hit.Quiz.Title, MatchType: hit.MatchType,
		QuestionsCount: hit.Quiz.QuestionsCount, Mode: hit.Quiz.Mode, IsPublished: flag(hit.Quiz.IsPublished),
		MatchingQuestions: toMatchingQuestions(hit.Matching)}
}

func toMatchingQuestions(ms []app.MatchingQuestion) []MatchingQuestionOut {
	out := make([]MatchingQuestionOut, len(ms))
	for i, m := range ms {
		out[i] = MatchingQuestionOut{ID: m.ID, QuestionText: m.Text}
	}
	return out
}

func toQuizQuestions(qs []*app.Question) []QuizQuestionBody {
	out := make([]QuizQuestionBody, len(qs))
	for i, q := range qs {
		out[i] = QuizQuestionBody{ID: q.ID, QuestionText: q.Text, QuestionType: q.Type,
			Options: opt.NonNil(q.Options), CorrectAnswer: q.CorrectAnswer, Explanation: q.Explanation}
	}
	return out
}
