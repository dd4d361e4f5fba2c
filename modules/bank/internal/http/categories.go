package http

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

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

func registerCategories(r *httpapi.Router, s *app.Service) {
	tags := []string{"categories"}
	httpapi.Register(r, auth.User, huma.Operation{Method: http.MethodGet, Path: "/categories/", Tags: tags,
		Summary: "Quiz categories with the number of quizzes the caller can see in each"},
		func(ctx context.Context, _ *struct{}) (*quizCategoriesOutput, error) {
			cs, err := s.QuizCategories(ctx, auth.MustFrom(ctx))
			if err != nil {
				return nil, err
			}
			out := &quizCategoriesOutput{Body: make([]QuizCategoryBody, 0, len(cs))}
			for _, c := range cs {
				out.Body = append(out.Body, QuizCategoryBody(c))
			}
			return out, nil
		})

	httpapi.Register(r, auth.Mod, huma.Operation{Method: http.MethodPost, Path: "/categories/", Tags: tags,
		DefaultStatus: http.StatusCreated, Summary: "Add a quiz category (moderators)",
		Errors: []int{http.StatusConflict}},
		func(ctx context.Context, in *createQuizCategoryInput) (*quizCategoryOutput, error) {
			c, err := s.CreateQuizCategory(ctx, auth.MustFrom(ctx), in.Body.Name)
			if err != nil {
				return nil, err
			}
			return &quizCategoryOutput{Body: QuizCategoryBody(*c)}, nil
		})

	httpapi.Register(r, auth.Mod, huma.Operation{Method: http.MethodDelete, Path: "/categories/{category_id}", Tags: tags,
		DefaultStatus: http.StatusNoContent, Summary: "Remove a quiz category; its quizzes become unassigned (moderators)"},
		func(ctx context.Context, in *quizCategoryIDInput) (*struct{}, error) {
			return nil, s.DeleteQuizCategory(ctx, auth.MustFrom(ctx), in.CategoryID)
		})

	httpapi.Register(r, auth.Mod, huma.Operation{Method: http.MethodPatch, Path: "/categories/quizzes/{quiz_id}", Tags: tags,
		Summary: "File a quiz under a quiz category, or none (moderators)"},
		func(ctx context.Context, in *setQuizCategoryInput) (*setQuizCategoryOutput, error) {
			cat := in.CategoryID.Ptr()
			if err := s.SetQuizCategory(ctx, auth.MustFrom(ctx), in.QuizID, cat); err != nil {
				return nil, err
			}
			out := &setQuizCategoryOutput{}
			out.Body.QuizID, out.Body.CategoryID = in.QuizID, cat
			return out, nil
		})

	registerQuestionCategories(r, s)
}

func registerQuestionCategories(r *httpapi.Router, s *app.Service) {
	tags := []string{"question-categories"}
	httpapi.Register(r, auth.User, huma.Operation{Method: http.MethodGet, Path: "/question-categories/", Tags: tags,
		Summary: "The question-category tree (build it from parent_id) with live-question counts"},
		func(ctx context.Context, _ *struct{}) (*questionCategoriesOutput, error) {
			cs, err := s.QuestionCategories(ctx)
			if err != nil {
				return nil, err
			}
			out := &questionCategoriesOutput{Body: make([]QuestionCategoryBody, 0, len(cs))}
			for i := range cs {
				out.Body = append(out.Body, toQuestionCategoryBody(&cs[i]))
			}
			return out, nil
		})

	httpapi.Register(r, auth.Mod, huma.Operation{Method: http.MethodPost, Path: "/question-categories/", Tags: tags,
		DefaultStatus: http.StatusCreated, Summary: "Add a question category (moderators)",
		Errors: []int{http.StatusConflict}},
		func(ctx context.Context, in *createQuestionCategoryInput) (*questionCategoryOutput, error) {
			b := in.Body
			c, err := s.CreateQuestionCategory(ctx, auth.MustFrom(ctx), app.CategoryInput{Name: b.Name,
				Description: b.Description, ParentID: b.ParentID, SystemID: b.SystemID})
			if err != nil {
				return nil, err
			}
			return &questionCategoryOutput{Body: toQuestionCategoryBody(c)}, nil
		})

	httpapi.Register(r, auth.Mod, huma.Operation{Method: http.MethodPatch, Path: "/question-categories/{cat_id}", Tags: tags,
		Summary: "Rename, describe, move or re-system a question category (moderators)",
		Errors:  []int{http.StatusBadRequest, http.StatusConflict}},
		func(ctx context.Context, in *patchQuestionCategoryInput) (*questionCategoryOutput, error) {
			b := in.Body
			c, err := s.UpdateQuestionCategory(ctx, auth.MustFrom(ctx), in.CatID, app.CategoryPatch{Name: b.Name,
				Description: patchOpt(b.Description), ParentID: patchOpt(b.ParentID), SystemID: patchOpt(b.SystemID)})
			if err != nil {
				return nil, err
			}
			return &questionCategoryOutput{Body: toQuestionCategoryBody(c)}, nil
		})

	httpapi.Register(r, auth.Mod, huma.Operation{Method: http.MethodDelete, Path: "/question-categories/{cat_id}", Tags: tags,
		DefaultStatus: http.StatusNoContent,
		Summary:       "Remove a question category: questions go to move_to (or nowhere), subcategories up a level (moderators)",
		Errors:        []int{http.StatusBadRequest}},
		func(ctx context.Context, in *deleteQuestionCategoryInput) (*struct{}, error) {
			return nil, s.DeleteQuestionCategory(ctx, auth.MustFrom(ctx), in.CatID, in.MoveTo.Ptr())
		})

	httpapi.Register(r, auth.Mod, huma.Operation{Method: http.MethodPost, Path: "/question-categories/{cat_id}/create-quiz",
		Tags: tags, DefaultStatus: http.StatusCreated,
		Summary: "Make a quiz of every live question in a category's branch (moderators; starts unpublished)",
		Errors:  []int{http.StatusBadRequest}},
		func(ctx context.Context, in *quizFromCategoryInput) (*quizCreatedOutput, error) {
			in2 := app.NewQuiz{Title: in.Title, Mode: in.Mode}
			if t := in.TimeLimitMinutes.Ptr(); t != nil {
				m := int(*t)
				in2.TimeLimitMinutes = &m
			}
			z, err := s.QuizFromCategory(ctx, auth.MustFrom(ctx), in.CatID, in2)
			if err != nil {
				return nil, err
			}
			return toQuizCreated(z), nil
		})
}
