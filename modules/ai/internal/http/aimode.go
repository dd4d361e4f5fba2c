package http

import (
	"context"
	"fmt"
	nethttp "net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/modules/ai/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

// AskSource is an item AI Mode answered from.
type AskSource struct {
	N         int    `json:"n" doc:"the number the answer cites it by, as [n]"`
	Kind      string `json:"kind" enum:"article,question"`
	ID        int64  `json:"id" doc:"the article's or the question's id"`
	SectionID *int64 `json:"section_id" doc:"articles: the section found; null for questions"`
	Title     string `json:"title"`
	Snippet   string `json:"snippet" doc:"the public text the model was given (never a question's answer)"`
	Link      string `json:"link" doc:"where the item is read: /articles/{id} or /questions/{id}"`
	Cited     bool   `json:"cited" doc:"the answer cites it"`
}

// AskResponse is AI Mode's answer.
type AskResponse struct {
	Answer   string      `json:"answer" doc:"markdown citing sources as [n]"`
	Sources  []AskSource `json:"sources" doc:"the shortlist, articles first, each kind best first"`
	Semantic bool        `json:"semantic" doc:"false: the shortlist came from keywords alone (the embedder was unavailable)"`
}

func aiModeRoutes(r *httpapi.Router, svc *app.Service) {
	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodPost, Path: "/ai-mode/ask", Tags: []string{"ai-mode"},
		Summary: "Ask the library and the bank",
		Description: "Your own search over articles and questions (what you may find, reranked when a rerank model " +
			"is set) makes a shortlist of up to five of each; the tutor model answers from it alone and cites it as " +
			"[n]. Nothing found: a plain answer and no model call. 503 without a tutor model, 502 when the model " +
			"fails; 30 questions per 10 minutes and the ai_mode_daily_quota setting (admins and unthrottled people exempt).",
		Errors: []int{nethttp.StatusTooManyRequests, nethttp.StatusBadGateway, nethttp.StatusServiceUnavailable},
	}, func(ctx context.Context, in *struct {
		Body struct {
			Question string `json:"question" minLength:"1" maxLength:"2000"`
			ModelID  *int64 `json:"model_id,omitempty" required:"false" minimum:"1" doc:"a tutor model's id (GET /teach/models); absent: the default"`
		}
	}) (*struct{ Body AskResponse }, error) {
		a, err := svc.Ask(ctx, auth.MustFrom(ctx), in.Body.Question, in.Body.ModelID)
		if err != nil {
			return nil, err
		}
		out := AskResponse{Answer: a.Answer, Sources: make([]AskSource, len(a.Sources)), Semantic: a.Semantic}
		for i, s := range a.Sources {
			out.Sources[i] = AskSource{N: s.N, Kind: s.Kind, ID: s.ID, SectionID: s.SectionID, Title: s.Title, Snippet: s.Snippet,
				Link: fmt.Sprintf("/%ss/%d", s.Kind, s.ID), Cited: s.Cited}
		}
		return &struct{ Body AskResponse }{out}, nil
	})
}
