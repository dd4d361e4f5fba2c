package http

import (
	"context"

	"github.com/roundsedu/rounds/modules/bank/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

// QuizCategoryBody is a quiz category.
type QuizCategoryBody struct {
	ID        int64  `json:"id"`
	Name      string `json:"name"`
	QuizCount int    `json:"quiz_count"`
}

type quizCategoriesOutput struct{ Body []QuizCategoryBody }

type quizCategoryOutput struct{ Body QuizCategoryBody }

type createQuizCategoryInput struct {
	Body struct {
		Name string `json:"name" minLength:"1" maxLength:"120"`
	}
}

type quizCategoryIDInput struct {
	CategoryID int64 `path:"category_id" minimum:"1"`
}

type setQuizCategoryInput struct {
	QuizID     int64              `path:"quiz_id" minimum:"1"`
	CategoryID httpapi.OptionalID `query:"category_id" doc:"absent: no category"`
}

type setQuizCategoryOutput struct {
	Body struct {
		QuizID     int64  `json:"quiz_id"`
		CategoryID *int64 `json:"category_id"`
	}
}

// QuestionCategoryBody is a node of the question-category tree.
type QuestionCategoryBody struct {
	ID                  int64   `json:"id"`
	Name                string  `json:"name"`
	Description         *string `json:"description"`
	QuestionCount       int     `json:"question_count" doc:"live questions filed directly here"`
	BranchQuestionCount int     `json:"branch_question_count" doc:"live questions here and in every subcategory"`
	ParentID            *int64  `json:"parent_id"`
	SystemID            *int64  `json:"system_id" doc:"the organ-system tag this category names"`
	InheritedSystemID   *int64  `json:"inherited_system_id" doc:"the system its questions carry (own or nearest ancestor's)"`
}

func toQuestionCategoryBody(c *app.QuestionCategory) QuestionCategoryBody {
	return QuestionCategoryBody{ID: c.ID, Name: c.Name, Description: c.Description, QuestionCount: c.QuestionCount,
		BranchQuestionCount: c.BranchCount, ParentID: c.ParentID, SystemID: c.SystemID,
		InheritedSystemID: c.InheritedSystemID}
}

type questionCategoriesOutput struct{ Body []QuestionCategoryBody }

type questionCategoryOutput struct{ Body QuestionCategoryBody }

type createQuestionCategoryInput struct {
	Body struct {
		Name        string  `json:"name" minLength:"1" maxLength:"120"`
		Description *string `json:"description" required:"false" nullable:"true" maxLength:"2000"`
		ParentID    *int64  `json:"parent_id" required:"false" nullable:"true"`
		SystemID    *int64  `json:"system_id" required:"false" nullable:"true"`
	}
}

type patchQuestionCategoryInput struct {
	CatID int64 `path:"cat_id" minimum:"1"`
	Body  struct {
		Name        *string                  `json:"name,omitempty" required:"false" minLength:"1" maxLength:"120"`
		Description httpapi.Nullable[string] `json:"description,omitempty" required:"false" maxLength:"2000"`
		ParentID    httpapi.Nullable[int64]  `json:"parent_id,omitempty" required:"false" doc:"null: move to the top"`
		SystemID    httpapi.Nullable[int64]  `json:"system_id,omitempty" required:"false"`
	}
}

type deleteQuestionCategoryInput struct {
	CatID  int64              `path:"cat_id" minimum:"1"`
	MoveTo httpapi.OptionalID `query:"move_to" doc:"where its questions go; absent: uncategorised"`
}

type quizFromCategoryInput struct {
	CatID            int64              `path:"cat_id" minimum:"1"`
	Title            string             `query:"title" required:"true" minLength:"1" maxLength:"200"`
	Mode             string             `query:"mode" enum:"timed,learning" default:"timed"`
	TimeLimitMinutes httpapi.OptionalID `query:"time_limit_minutes" minimum:"1" maximum:"1440"`
}

func (h *handlers) quizCategories(ctx context.Context, _ *struct{}) (*quizCategoriesOutput, error) {
	cs, err := h.svc.QuizCategories(ctx, auth.MustFrom(ctx))
	if err != nil {
		return nil, err
	}
	return &quizCategoriesOutput{Body: toQuizCategories(cs)}, nil
}

func (h *handlers) createQuizCategory(ctx context.Context, in *createQuizCategoryInput) (*quizCategoryOutput, error) {
	c, err := h.svc.CreateQuizCategory(ctx, auth.MustFrom(ctx), in.Body.Name)
	if err != nil {
		return nil, err
	}
	return &quizCategoryOutput{Body: QuizCategoryBody(*c)}, nil
}

func (h *handlers) deleteQuizCategory(ctx context.Context, in *quizCategoryIDInput) (*struct{}, error) {
	return nil, h.svc.DeleteQuizCategory(ctx, auth.MustFrom(ctx), in.CategoryID)
}

func (h *handlers) setQuizCategory(ctx context.Context, in *setQuizCategoryInput) (*setQuizCategoryOutput, error) {
	cat := in.CategoryID.Ptr()
	if err := h.svc.SetQuizCategory(ctx, auth.MustFrom(ctx), in.QuizID, cat); err != nil {
		return nil, err
	}
	out := &setQuizCategoryOutput{}
	out.Body.QuizID, out.Body.CategoryID = in.QuizID, cat
	return out, nil
}

func (h *handlers) questionCategories(ctx context.Context, _ *struct{}) (*questionCategoriesOutput, error) {
	cs, err := h.svc.QuestionCategories(ctx)
	if err != nil {
		return nil, err
	}
	return &questionCategoriesOutput{Body: toQuestionCategoryBodies(cs)}, nil
}

func (h *handlers) createQuestionCategory(ctx context.Context, in *createQuestionCategoryInput) (*questionCategoryOutput, error) {
	b := in.Body
	c, err := h.svc.CreateQuestionCategory(ctx, auth.MustFrom(ctx), app.CategoryInput{Name: b.Name,
		Description: b.Description, ParentID: b.ParentID, SystemID: b.SystemID})
	if err != nil {
		return nil, err
	}
	return &questionCategoryOutput{Body: toQuestionCategoryBody(c)}, nil
}

func (h *handlers) patchQuestionCategory(ctx context.Context, in *patchQuestionCategoryInput) (*questionCategoryOutput, error) {
	b := in.Body
	c, err := h.svc.UpdateQuestionCategory(ctx, auth.MustFrom(ctx), in.CatID, app.CategoryPatch{Name: b.Name,
		Description: patchOpt(b.Description), ParentID: patchOpt(b.ParentID), SystemID: patchOpt(b.SystemID)})
	if err != nil {
		return nil, err
	}
	return &questionCategoryOutput{Body: toQuestionCategoryBody(c)}, nil
}

func (h *handlers) deleteQuestionCategory(ctx context.Context, in *deleteQuestionCategoryInput) (*struct{}, error) {
	return nil, h.svc.DeleteQuestionCategory(ctx, auth.MustFrom(ctx), in.CatID, in.MoveTo.Ptr())
}

func (h *handlers) quizFromCategory(ctx context.Context, in *quizFromCategoryInput) (*quizCreatedOutput, error) {
	in2 := app.NewQuiz{Title: in.Title, Mode: in.Mode}
	if t := in.TimeLimitMinutes.Ptr(); t != nil {
		m := int(*t)
		in2.TimeLimitMinutes = &m
	}
	z, err := h.svc.QuizFromCategory(ctx, auth.MustFrom(ctx), in.CatID, in2)
	if err != nil {
		return nil, err
	}
	return &quizCreatedOutput{Body: toQuizCreated(z)}, nil
}

func toQuizCategories(cs []app.QuizCategory) []QuizCategoryBody {
	out := make([]QuizCategoryBody, len(cs))
	for i, c := range cs {
		out[i] = QuizCategoryBody(c)
	}
	return out
}

func toQuestionCategoryBodies(cs []app.QuestionCategory) []QuestionCategoryBody {
	out := make([]QuestionCategoryBody, len(cs))
	for i := range cs {
		out[i] = toQuestionCategoryBody(&cs[i])
	}
	return out
}
