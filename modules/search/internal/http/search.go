// Package searchhttp holds the search module's thin huma handlers: decode,
// call the service, map the result.
package searchhttp

import (
	"context"
	"strings"

	"github.com/roundsedu/rounds/modules/search/internal/app"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
)

// parseKinds reads a comma-separated kinds list; empty means every kind.
func parseKinds(raw string) ([]string, error) {
	if strings.TrimSpace(raw) == "" {
		return app.Kinds, nil
	}
	var out []string
	seen := map[string]bool{}
	for _, k := range strings.Split(raw, ",") {
		k = strings.TrimSpace(k)
		if !app.IsKind(k) {
			return nil, apperr.Invalidf("query.kinds", "unknown kind %q (use question, article, deck, media)", k)
		}
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out, nil
}

type globalInput struct {
	Q       string `query:"q" required:"true" minLength:"2" maxLength:"200" doc:"What to look for (2 to 200 characters)"`
	Kinds   string `query:"kinds" doc:"Comma-separated kinds to search (question, article, deck, media); default all"`
	PerKind int    `query:"per_kind" default:"5" minimum:"1" maximum:"20" doc:"Hits per kind"`
}

// SearchHitBody is one hit.
type SearchHitBody struct {
	ID         int64   `json:"id"`
	Score      float64 `json:"score" doc:"Fused score, or the rerank score in a reranked section"`
	Similarity float64 `json:"similarity" doc:"Cosine similarity when the vector ranker found it, else 0"`
	Keyword    bool    `json:"keyword" doc:"The keyword ranker matched it"`
	Title      string  `json:"title"`
	Snippet    string  `json:"snippet"`
}

// SearchSectionBody is one kind's section.
type SearchSectionBody struct {
	Kind     string          `json:"kind"`
	Reranked bool            `json:"reranked" doc:"This section's order comes from the rerank model"`
	Hits     []SearchHitBody `json:"hits"`
}

// SearchResultsBody is the answer of GET /search.
type SearchResultsBody struct {
	Query    string              `json:"query"`
	Semantic bool                `json:"semantic" doc:"False when the query could not be embedded: keyword results only"`
	Results  []SearchSectionBody `json:"results"`
}

func (h *handlers) global(ctx context.Context, in *globalInput) (*searchOut, error) {
	q := strings.TrimSpace(in.Q)
	if len([]rune(q)) < 2 {
		return nil, apperr.Invalidf("query.q", "q must have at least 2 characters besides spaces")
	}
	kinds, err := parseKinds(in.Kinds)
	if err != nil {
		return nil, err
	}
	res, err := h.svc.Global(ctx, auth.MustFrom(ctx), kinds, q, in.PerKind, 200)
	if err != nil {
		return nil, err
	}
	return &searchOut{SearchResultsBody{Query: q, Semantic: res.Semantic, Results: toSections(res.Kinds)}}, nil
}

type searchOut struct{ Body SearchResultsBody }

func toSection(k app.KindResult) SearchSectionBody {
	return SearchSectionBody{Kind: k.Kind, Reranked: k.Reranked, Hits: toHits(k.Hits)}
}

func toSections(ks []app.KindResult) []SearchSectionBody {
	out := make([]SearchSectionBody, len(ks))
	for i, k := range ks {
		out[i] = toSection(k)
	}
	return out
}

func toHit(hit app.GlobalHit) SearchHitBody {
	return SearchHitBody{ID: hit.ID, Score: hit.Score, Similarity: hit.Similarity,
		Keyword: hit.Keyword, Title: hit.Title, Snippet: hit.Snippet}
}

func toHits(hs []app.GlobalHit) []SearchHitBody {
	out := make([]SearchHitBody, len(hs))
	for i, hit := range hs {
		out[i] = toHit(hit)
	}
	return out
}

type suggestInput struct {
	Q     string `query:"q" required:"true" minLength:"1" maxLength:"100" doc:"What has been typed so far"`
	Kinds string `query:"kinds" doc:"Comma-separated kinds (question, article, deck, media); default all"`
	Limit int    `query:"limit" default:"8" minimum:"1" maximum:"20"`
}

// SearchSuggestionBody is one suggestion.
type SearchSuggestionBody struct {
	Kind string `json:"kind"`
	ID   int64  `json:"id"`
	Text string `json:"text"`
}

// SearchSuggestBody is the answer of GET /search/suggest.
type SearchSuggestBody struct {
	Query       string                 `json:"query"`
	Suggestions []SearchSuggestionBody `json:"suggestions"`
}

func (h *handlers) suggest(ctx context.Context, in *suggestInput) (*suggestOut, error) {
	kinds, err := parseKinds(in.Kinds)
	if err != nil {
		return nil, err
	}
	found, err := h.svc.Suggest(ctx, auth.MustFrom(ctx), kinds, in.Q, in.Limit)
	if err != nil {
		return nil, err
	}
	return &suggestOut{SearchSuggestBody{Query: in.Q, Suggestions: toSuggestions(found)}}, nil
}

type suggestOut struct{ Body SearchSuggestBody }

func toSuggestions(found []app.Suggestion) []SearchSuggestionBody {
	out := make([]SearchSuggestionBody, len(found))
	for i, f := range found {
		out[i] = SearchSuggestionBody{Kind: f.Kind, ID: f.ID, Text: f.Text}
	}
	return out
}
