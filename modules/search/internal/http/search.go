// Package searchhttp holds the search module's thin huma handlers: decode,
// call the service, map the result.
package searchhttp

import (
	"context"
	"net/http"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/modules/search/internal/app"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

// Register declares every route of the module.
func Register(r *httpapi.Router, svc *app.Service) {
	h := &handlers{svc: svc}
	httpapi.Register(r, auth.User, huma.Operation{
		Method: http.MethodGet, Path: "/search", Tags: []string{"search"},
		Summary: "Search every kind at once",
		Description: "Hybrid search (keyword and vector rankers fused by reciprocal rank fusion) across the " +
			"asked kinds, with one section per kind in the order asked. Question and article sections are " +
			"reranked when a rerank model is set; deck and media sections are not. Only live items the caller " +
			"may reach are found, and answer-side text (explanations) is matched only for items the caller may edit.",
	}, h.global)
	httpapi.Register(r, auth.User, huma.Operation{
		Method: http.MethodGet, Path: "/search/suggest", Tags: []string{"search"},
		Summary: "Typeahead suggestions",
		Description: "Prefix match on the full-text index (every typed word but the last whole, the last as a " +
			"prefix) over titles and bodies, never answer-side text; only items the caller may reach. No " +
			"embedding and no rerank, so it stays fast.",
	}, h.suggest)
	registerAdmin(r, h)
}

type handlers struct{ svc *app.Service }

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

func (h *handlers) global(ctx context.Context, in *globalInput) (*struct{ Body SearchResultsBody }, error) {
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
	out := SearchResultsBody{Query: q, Semantic: res.Semantic, Results: make([]SearchSectionBody, len(res.Kinds))}
	for i, k := range res.Kinds {
		sec := SearchSectionBody{Kind: k.Kind, Reranked: k.Reranked, Hits: make([]SearchHitBody, len(k.Hits))}
		for j, hit := range k.Hits {
			sec.Hits[j] = SearchHitBody{ID: hit.ID, Score: hit.Score, Similarity: hit.Similarity,
				Keyword: hit.Keyword, Title: hit.Title, Snippet: hit.Snippet}
		}
		out.Results[i] = sec
	}
	return &struct{ Body SearchResultsBody }{out}, nil
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

func (h *handlers) suggest(ctx context.Context, in *suggestInput) (*struct{ Body SearchSuggestBody }, error) {
	kinds, err := parseKinds(in.Kinds)
	if err != nil {
		return nil, err
	}
	found, err := h.svc.Suggest(ctx, auth.MustFrom(ctx), kinds, in.Q, in.Limit)
	if err != nil {
		return nil, err
	}
	out := SearchSuggestBody{Query: in.Q, Suggestions: make([]SearchSuggestionBody, len(found))}
	for i, f := range found {
		out.Suggestions[i] = SearchSuggestionBody{Kind: f.Kind, ID: f.ID, Text: f.Text}
	}
	return &struct{ Body SearchSuggestBody }{out}, nil
}
