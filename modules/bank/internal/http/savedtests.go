package http

import (
	"context"

	"github.com/roundsedu/rounds/modules/bank/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/opt"
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

func (h *handlers) buildSavedTest(ctx context.Context, in *savedTestInput) (*savedTestOutput, error) {
	b := in.Body
	z, err := h.svc.BuildSavedTest(ctx, auth.MustFrom(ctx), app.SavedTest{Title: b.Title, Mode: b.Mode,
		TimeLimitMinutes: opt.Deref(b.TimeLimitMinutes), QuestionIDs: b.QuestionIDs})
	if err != nil {
		return nil, err
	}
	return &savedTestOutput{Body: toSavedTest(z)}, nil
}

// toSavedTest is the test a learner built for themselves (POST /saved-tests
// and, inside CustomBlockBody, POST /saved-tests/custom).
func toSavedTest(z *app.Quiz) SavedTestBody {
	return SavedTestBody{QuizCreatedBody: toQuizCreated(z), Mode: z.Mode}
}
