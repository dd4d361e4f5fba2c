package http

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/modules/attempts/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
)

// PageQuery is limit/offset pagination.
type PageQuery struct {
	Limit  int `query:"limit" default:"50" minimum:"1" maximum:"200"`
	Offset int `query:"offset" default:"0" minimum:"0"`
}

// AttemptPath names one of the caller's attempts.
type AttemptPath struct {
	AttemptID int64 `path:"attempt_id" minimum:"1"`
}

type startIn struct {
	QuizID int64  `query:"quiz_id" required:"true" minimum:"1"`
	Fresh  bool   `query:"fresh" default:"false" doc:"start a new attempt even if one is incomplete"`
	Mode   string `query:"mode" enum:"timed,learning" doc:"how to sit the quiz; default the quiz's own mode"`
}

// StartResponse is the attempt a start landed on.
type StartResponse struct {
	AttemptResponse
	Resumed bool `json:"resumed" doc:"an incomplete attempt was resumed"`
}

type startOut struct{ Body StartResponse }

func (h *handlers) start(ctx context.Context, in *startIn) (*startOut, error) {
	st, err := h.svc.Start(ctx, auth.MustFrom(ctx), in.QuizID, in.Fresh, in.Mode)
	if err != nil {
		return nil, err
	}
	return &startOut{Body: StartResponse{AttemptResponse: toAttemptResponse(st.Attempt), Resumed: st.Resumed}}, nil
}

// SubmitBody carries final answers by question id and the flagged
// questions (both optional).
type SubmitBody struct {
	Answers map[string]string `json:"answers" required:"false" doc:"question id -> answer (the option text for MCQ); wins over saved progress"`
	Flagged []int64           `json:"flagged" required:"false" maxItems:"10000" doc:"ids of the questions you flagged while sitting; kept with the attempt and shown in its review (absent: the flags saved with the progress)"`
}

type submitIn struct {
	AttemptPath
	Body *SubmitBody
}

type detailOut struct{ Body AttemptDetail }

func (h *handlers) submit(ctx context.Context, in *submitIn) (*detailOut, error) {
	var answers map[string]string
	var flagged []int64
	if in.Body != nil {
		answers, flagged = in.Body.Answers, in.Body.Flagged
	}
	d, err := h.svc.Submit(ctx, auth.MustFrom(ctx), in.AttemptID, answers, flagged)
	if err != nil {
		return nil, err
	}
	return &detailOut{Body: toAttemptDetail(d)}, nil
}

type listIn struct {
	PageQuery
	QuizID int64 `query:"quiz_id" minimum:"1" doc:"only this quiz's attempts"`
}

type attemptsOut struct{ Body []AttemptResponse }

func (h *handlers) list(ctx context.Context, in *listIn) (*attemptsOut, error) {
	var quiz *int64
	if in.QuizID > 0 {
		quiz = &in.QuizID
	}
	as, err := h.svc.Attempts(ctx, auth.MustFrom(ctx), quiz, in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	return &attemptsOut{Body: toAttemptResponses(as)}, nil
}

func (h *handlers) detail(ctx context.Context, in *AttemptPath) (*detailOut, error) {
	d, err := h.svc.Detail(ctx, auth.MustFrom(ctx), in.AttemptID)
	if err != nil {
		return nil, err
	}
	return &detailOut{Body: toAttemptDetail(d)}, nil
}

func (h *handlers) delete(ctx context.Context, in *AttemptPath) (*struct{}, error) {
	return nil, h.svc.Delete(ctx, auth.MustFrom(ctx), in.AttemptID)
}

// OpenAttemptResponse is an incomplete attempt with what its saved progress
// says (null when nothing is saved).
type OpenAttemptResponse struct {
	AttemptResponse
	Answered   *int       `json:"answered" doc:"answers in the saved progress"`
	CurrentIdx *int       `json:"current_idx" doc:"where the saved progress left off"`
	SavedAt    *time.Time `json:"saved_at"`
}

type inProgressOut struct{ Body []OpenAttemptResponse }

func (h *handlers) inProgress(ctx context.Context, in *PageQuery) (*inProgressOut, error) {
	as, err := h.svc.InProgress(ctx, auth.MustFrom(ctx), in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	return &inProgressOut{Body: toOpenAttemptResponses(as)}, nil
}

type inProgressOneIn struct {
	AttemptPath
	QuizID int64 `query:"quiz_id" required:"true" minimum:"1"`
}

type maybeAttemptOut struct{ Body *AttemptResponse }

func (h *handlers) inProgressOne(ctx context.Context, in *inProgressOneIn) (*maybeAttemptOut, error) {
	a, err := h.svc.OpenAttemptOf(ctx, auth.MustFrom(ctx), in.AttemptID, in.QuizID)
	if err != nil || a == nil {
		return &maybeAttemptOut{}, err
	}
	r := toAttemptResponse(a)
	return &maybeAttemptOut{Body: &r}, nil
}

func toOpenAttemptResponses(as []app.OpenAttempt) []OpenAttemptResponse {
	out := make([]OpenAttemptResponse, len(as))
	for i := range as {
		a := &as[i]
		out[i] = OpenAttemptResponse{AttemptResponse: toAttemptResponse(&a.Attempt), Answered: a.Answered,
			CurrentIdx: a.CurrentIdx, SavedAt: a.SavedAt}
	}
	return out
}
