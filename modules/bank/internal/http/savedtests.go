package http

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/modules/bank/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

type savedTestInput struct {
	Body struct {
		Title            string  `json:"title" minLength:"1" maxLength:"500"`
		Mode             string  `json:"mode,omitempty" required:"false" enum:"timed,learning" default:"timed"`
		TimeLimitMinutes *int    `json:"time_limit_minutes" required:"false" nullable:"true" minimum:"1" maximum:"1440"`
		QuestionIDs      []int64 `json:"question_ids" minItems:"1" maxItems:"200"`
	}
}

// SavedTestBody answers POST /saved-tests; questions_count is how many of
// the asked questions were kept (those open to the caller).
type SavedTestBody struct {
	QuizCreatedBody
	Mode string `json:"mode" enum:"timed,learning"`
}

type savedTestOutput struct{ Body SavedTestBody }

// registerSavedTests lets any signed-in user build a test of their own
// (issue 21); the rules live in app.BuildSavedTest.
func registerSavedTests(r *httpapi.Router, s *app.Service) {
	httpapi.Register(r, auth.User, huma.Operation{Method: http.MethodPost, Path: "/saved-tests", Tags: []string{"quizzes"},
		DefaultStatus: http.StatusCreated, Errors: []int{http.StatusConflict},
		Summary: "Build a test of your own from bank questions open to you (unpublished; only you sit it)"},
		func(ctx context.Context, in *savedTestInput) (*savedTestOutput, error) {
			b := in.Body
			st := app.SavedTest{Title: b.Title, Mode: b.Mode, QuestionIDs: b.QuestionIDs}
			if b.TimeLimitMinutes != nil {
				st.TimeLimitMinutes = *b.TimeLimitMinutes
			}
			z, err := s.BuildSavedTest(ctx, auth.MustFrom(ctx), st)
			if err != nil {
				return nil, err
			}
			return &savedTestOutput{Body: SavedTestBody{QuizCreatedBody: toQuizCreated(z).Body, Mode: z.Mode}}, nil
		})
}
