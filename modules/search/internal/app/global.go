package app

import (
	"context"
	"strings"
	"unicode/utf8"
)

// KindResult is one kind's section of a global search.
type KindResult struct {
	Kind     string
	Reranked bool
	Hits     []GlobalHit
}

// GlobalHit is a hit with the text to show for it.
type GlobalHit struct {
	ID         int64
	Score      float64
	Similarity float64
	Keyword    bool
	Title      string
	Snippet    string
}

// GlobalResult is a global search's answer.
type GlobalResult struct {
	// Semantic is false when the query could not be embedded and the
	// results come from the keyword ranker alone.
	Semantic bool
	Kinds    []KindResult
}

// Global searches each kind (the query embedded once), reranking the kinds
// the spec reranks, and returns every asked kind in the order asked, empty
// ones included, each with at most perKind hits.
func (s *Service) Global(ctx context.Context, kinds []string, q string, perKind int) (GlobalResult, error) {
	q = strings.TrimSpace(q)
	vec, embedded := s.hybridVector(ctx, q)
	out := GlobalResult{Semantic: embedded}
	for _, kind := range kinds {
		res, err := s.hybridWith(ctx, kind, q, vec, Reranked[kind])
		if err != nil {
			return GlobalResult{}, err
		}
		hits := res.hits(perKind)
		ids := make([]int64, len(hits))
		for i, h := range hits {
			ids[i] = h.ID
		}
		texts, err := s.store.Texts(ctx, kind, ids)
		if err != nil {
			return GlobalResult{}, err
		}
		kr := KindResult{Kind: kind, Reranked: res.reranked, Hits: make([]GlobalHit, len(hits))}
		for i, h := range hits {
			t := texts[h.ID]
			kr.Hits[i] = GlobalHit{ID: h.ID, Score: h.Score, Similarity: h.Similarity, Keyword: h.Keyword,
				Title: clip(t.Title, 300), Snippet: clip(strings.ReplaceAll(t.Body, "\n", " · "), 200)}
		}
		out.Kinds = append(out.Kinds, kr)
	}
	return out, nil
}

// Suggestion is one typeahead entry.
type Suggestion struct {
	Kind string
	ID   int64
	Text string
}

// Suggest completes what was typed from the live items of the kinds: a
// prefix match on the full-text index, no embedding and no rerank.
func (s *Service) Suggest(ctx context.Context, kinds []string, typed string, limit int) ([]Suggestion, error) {
	found, err := s.store.Suggest(ctx, kinds, typed, limit)
	if err != nil {
		return nil, err
	}
	out := make([]Suggestion, len(found))
	for i, f := range found {
		out[i] = Suggestion{Kind: f.Kind, ID: f.ID, Text: clip(f.Title, 160)}
	}
	return out, nil
}

// clip shortens s to at most n runes, ending with an ellipsis when cut.
func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n-1])) + "…"
}
