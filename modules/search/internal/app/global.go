package app

import (
	"context"
	"strings"

	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/text"
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

// Global searches each kind (the query embedded once) for p, reranking the
// kinds the spec reranks, and returns every asked kind in the order asked,
// empty ones included, each with at most perKind hits and a snippet of at
// most snippetRunes of the public text. Only items p may find are ranked,
// and answer-side text is matched only where p may read it
// (reachedRankings).
func (s *Service) Global(ctx context.Context, p auth.Principal, kinds []string, q string, perKind, snippetRunes int) (GlobalResult, error) {
	q = strings.TrimSpace(q)
	vec, embedded := s.hybridVector(ctx, q)
	out := GlobalResult{Semantic: embedded}
	for _, kind := range kinds {
		kw, vc, err := s.reachedRankings(ctx, p, kind, q, vec)
		if err != nil {
			return GlobalResult{}, err
		}
		res := s.fuse(ctx, kind, q, kw, vc, Reranked[kind])
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
				Title: text.Clip(t.Title, 300), Snippet: text.Clip(strings.ReplaceAll(t.Body, "\n", " · "), snippetRunes)}
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

// Suggest completes what was typed from the live items of the kinds that p
// may find: a prefix match on the public full-text index (never the answer
// side), no embedding and no rerank.
func (s *Service) Suggest(ctx context.Context, p auth.Principal, kinds []string, typed string, limit int) ([]Suggestion, error) {
	found, err := s.store.Suggest(ctx, kinds, typed, suggestDepth)
	if err != nil {
		return nil, err
	}
	byKind := map[string][]int64{}
	for _, f := range found {
		byKind[f.Kind] = append(byKind[f.Kind], f.ID)
	}
	ok := map[string]map[int64]bool{}
	for kind, ids := range byKind {
		visible, editable, err := s.reachable(ctx, p, kind, ids)
		if err != nil {
			return nil, err
		}
		ok[kind] = map[int64]bool{}
		for _, id := range ids {
			ok[kind][id] = visible[id] || editable[id]
		}
	}
	out := []Suggestion{}
	for _, f := range found {
		if len(out) == limit {
			break
		}
		if ok[f.Kind][f.ID] {
			out = append(out, Suggestion{Kind: f.Kind, ID: f.ID, Text: text.Clip(f.Title, 160)})
		}
	}
	return out, nil
}
