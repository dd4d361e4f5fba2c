package http

import (
	"context"

	"github.com/roundsedu/rounds/modules/analytics/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

// OptionResponse is one option's share of the responses.
type OptionResponse struct {
	Option         string   `json:"option"`
	Chosen         int64    `json:"chosen"`
	Rate           float64  `json:"rate"`
	Discrimination *float64 `json:"discrimination,omitempty" doc:"point-biserial of choosing it against the rest of the test (editors only)"`
}

// ItemResponse is the analysis of one version of a question.
type ItemResponse struct {
	QuestionID     int64            `json:"question_id"`
	Version        int              `json:"version"`
	Responses      int64            `json:"responses"`
	Facility       *float64         `json:"facility" doc:"share answered right (p-value)"`
	Discrimination *float64         `json:"discrimination" doc:"point-biserial against the rest-of-test score; null without spread"`
	BlankRate      *float64         `json:"blank_rate"`
	Options        []OptionResponse `json:"options"`
}

func toItems(items []app.Item) []ItemResponse {
	out := make([]ItemResponse, len(items))
	for i := range items {
		out[i] = toItem(&items[i])
	}
	return out
}

func toItem(it *app.Item) ItemResponse {
	return ItemResponse{QuestionID: it.QuestionID, Version: it.Version, Responses: it.Responses,
		Facility: it.Facility, Discrimination: it.Discrimination, BlankRate: it.BlankRate, Options: toOptions(it.Options)}
}

func toOptions(opts []app.Option) []OptionResponse {
	out := make([]OptionResponse, len(opts))
	for i, o := range opts {
		out[i] = OptionResponse{Option: o.Option, Chosen: o.Chosen, Rate: o.Rate, Discrimination: o.Discrimination}
	}
	return out
}

// PeerQuestionResponse is one question of the attempt beside everyone's answers.
type PeerQuestionResponse struct {
	QuestionID  int64            `json:"question_id"`
	Version     int              `json:"version"`
	YourAnswer  string           `json:"your_answer"`
	Responses   int64            `json:"responses"`
	CorrectRate *float64         `json:"correct_rate"`
	Options     []OptionResponse `json:"options"`
}

// PeersResponse compares a submitted attempt with everyone's.
type PeersResponse struct {
	AttemptID  int64                  `json:"attempt_id"`
	QuizID     int64                  `json:"quiz_id"`
	Percentage float64                `json:"percentage"`
	Percentile *float64               `json:"percentile" doc:"mid-rank percentile among every timed sitting of the quiz"`
	Sittings   int64                  `json:"sittings"`
	Questions  []PeerQuestionResponse `json:"questions"`
}

func toPeers(p *app.Peers) PeersResponse {
	return PeersResponse{AttemptID: p.AttemptID, QuizID: p.QuizID, Percentage: p.Percentage,
		Percentile: p.Percentile, Sittings: p.Sittings, Questions: toPeerQuestions(p.Questions)}
}

func toPeerQuestions(qs []app.PeerQuestion) []PeerQuestionResponse {
	out := make([]PeerQuestionResponse, len(qs))
	for i, q := range qs {
		out[i] = PeerQuestionResponse{QuestionID: q.QuestionID, Version: q.Version, YourAnswer: q.YourAnswer,
			Responses: q.Responses, CorrectRate: q.CorrectRate, Options: toOptions(q.Options)}
	}
	return out
}

type flaggedIn struct {
	httpapi.Page
	Flag string `query:"flag" required:"true" enum:"too_easy,too_hard,poorly_discriminating,negative_discrimination" doc:"app.Flags: the service refuses any other"`
}

func (h *handlers) flagged(ctx context.Context, in *flaggedIn) (*httpapi.Listing[ItemResponse], error) {
	items, total, err := h.svc.Flagged(ctx, in.Flag, in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	return httpapi.Listed(toItems(items), total), nil
}

type questionPath struct {
	QuestionID int64 `path:"question_id" minimum:"1"`
}

type itemsOut struct{ Body []ItemResponse }

func (h *handlers) questionAnalysis(ctx context.Context, in *questionPath) (*itemsOut, error) {
	items, err := h.svc.QuestionAnalysis(ctx, auth.MustFrom(ctx), in.QuestionID)
	if err != nil {
		return nil, err
	}
	return &itemsOut{toItems(items)}, nil
}

type attemptPath struct {
	AttemptID int64 `path:"attempt_id" minimum:"1"`
}

type peersOut struct{ Body PeersResponse }

func (h *handlers) peers(ctx context.Context, in *attemptPath) (*peersOut, error) {
	p, err := h.svc.Peers(ctx, auth.MustFrom(ctx), in.AttemptID)
	if err != nil {
		return nil, err
	}
	return &peersOut{toPeers(p)}, nil
}
