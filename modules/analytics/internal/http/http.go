// Package http is the analytics module's HTTP surface: a question's item
// analysis for its editors, the bank-wide flags for moderators, and the
// peer comparison of a learner's submitted attempt.
package http

import (
	"context"
	nethttp "net/http"

	"github.com/danielgtaylor/huma/v2"

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
	for i, it := range items {
		out[i] = ItemResponse{QuestionID: it.QuestionID, Version: it.Version, Responses: it.Responses,
			Facility: it.Facility, Discrimination: it.Discrimination, BlankRate: it.BlankRate, Options: toOptions(it.Options)}
	}
	return out
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

// Register adds the analytics operations.
func Register(r *httpapi.Router, svc *app.Service) {
	chartRoutes(r, svc)
	httpapi.Register(r, auth.Mod, huma.Operation{
		Method: nethttp.MethodGet, Path: "/questions/analysis", Tags: []string{"questions"},
		Summary: "Item versions an analysis flag picks out (too easy, too hard, poorly or negatively discriminating), most answered first",
	}, func(ctx context.Context, in *struct {
		httpapi.Page
		Flag string `query:"flag" required:"true" enum:"too_easy,too_hard,poorly_discriminating,negative_discrimination" doc:"app.Flags: the service refuses any other"`
	}) (*httpapi.Listing[ItemResponse], error) {
		items, total, err := svc.Flagged(ctx, in.Flag, in.Limit, in.Offset)
		if err != nil {
			return nil, err
		}
		return httpapi.Listed(toItems(items), total), nil
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodGet, Path: "/questions/{question_id}/analysis", Tags: []string{"questions"},
		Summary: "Item analysis of every version of a question (its editors)",
		Errors:  []int{nethttp.StatusForbidden, nethttp.StatusNotFound},
	}, func(ctx context.Context, in *struct {
		QuestionID int64 `path:"question_id" minimum:"1"`
	}) (*struct{ Body []ItemResponse }, error) {
		items, err := svc.QuestionAnalysis(ctx, auth.MustFrom(ctx), in.QuestionID)
		if err != nil {
			return nil, err
		}
		return &struct{ Body []ItemResponse }{toItems(items)}, nil
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodGet, Path: "/attempts/{attempt_id}/peers", Tags: []string{"attempts"},
		Summary: "How everyone answered the questions of your submitted attempt, and your percentile",
		Errors:  []int{nethttp.StatusNotFound},
	}, func(ctx context.Context, in *struct {
		AttemptID int64 `path:"attempt_id" minimum:"1"`
	}) (*struct{ Body PeersResponse }, error) {
		p, err := svc.Peers(ctx, auth.MustFrom(ctx), in.AttemptID)
		if err != nil {
			return nil, err
		}
		out := PeersResponse{AttemptID: p.AttemptID, QuizID: p.QuizID, Percentage: p.Percentage,
			Percentile: p.Percentile, Sittings: p.Sittings, Questions: make([]PeerQuestionResponse, len(p.Questions))}
		for i, q := range p.Questions {
			out.Questions[i] = PeerQuestionResponse{QuestionID: q.QuestionID, Version: q.Version, YourAnswer: q.YourAnswer,
				Responses: q.Responses, CorrectRate: q.CorrectRate, Options: toOptions(q.Options)}
		}
		return &struct{ Body PeersResponse }{out}, nil
	})
}
