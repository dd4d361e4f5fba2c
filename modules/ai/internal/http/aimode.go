package http

import (
	"context"
	"fmt"

	"github.com/roundsedu/rounds/modules/ai/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
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

type askIn struct {
	Body struct {
		Question string `json:"question" minLength:"1" maxLength:"2000"`
		ModelID  *int64 `json:"model_id,omitempty" required:"false" minimum:"1" doc:"a tutor model's id (GET /teach/models); absent: the default"`
	} `nameHint:"Post-ai-mode-askRequest"`
}

type askOut struct{ Body AskResponse }

func (h *handlers) ask(ctx context.Context, in *askIn) (*askOut, error) {
	a, err := h.svc.Ask(ctx, auth.MustFrom(ctx), in.Body.Question, in.Body.ModelID)
	if err != nil {
		return nil, err
	}
	return &askOut{AskResponse{Answer: a.Answer, Sources: toAskSources(a.Sources), Semantic: a.Semantic}}, nil
}

func toAskSources(ss []app.Source) []AskSource {
	out := make([]AskSource, len(ss))
	for i, s := range ss {
		out[i] = AskSource{N: s.N, Kind: s.Kind, ID: s.ID, SectionID: s.SectionID, Title: s.Title, Snippet: s.Snippet,
			Link: fmt.Sprintf("/%ss/%d", s.Kind, s.ID), Cited: s.Cited}
	}
	return out
}
