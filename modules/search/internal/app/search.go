package app

import (
	"context"
	"errors"
	"strings"
	"sync"

	"github.com/roundsedu/rounds/modules/search/internal/embed"
	"github.com/roundsedu/rounds/modules/search/internal/rank"
	"github.com/roundsedu/rounds/modules/search/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
)

// MaxLimit bounds Semantic and Keyword lists.
const MaxLimit = 1000

// MaxRerank is the most candidates one rerank may see (the spec's limit).
const MaxRerank = 50

// ErrUnavailable: the query could not be embedded (the embeddings endpoint
// failed), so a semantic ranking cannot be made now.
var ErrUnavailable = errors.New("search: semantic search unavailable: the query could not be embedded")

// Hit is one ranked item (the facade's search.Hit).
type Hit struct {
	ID int64
	// Score is the cosine similarity (0..1) for Semantic, the ts_rank for
	// Keyword, the fused (or reranked) score for Hybrid; higher is better.
	Score float64
	// Similarity is the cosine similarity when the vector ranker found the
	// item (0 otherwise). Hybrid callers that list "semantic matches first"
	// split on it.
	Similarity float64
	// Keyword reports that the keyword ranker matched the item.
	Keyword bool
}

func clampLimit(limit int) int {
	if limit <= 0 {
		return 50
	}
	return min(limit, MaxLimit)
}

// query is an embedded query: its vector (nil when it has nothing to
// embed) and the model that made it, whose vectors alone it is compared
// with.
type query struct {
	vec   []float32
	model string
}

// queryVector embeds the query with the model in use: from the cache when
// this model embedded the same text lately, else by the model, a remote
// one only within the caller's allowance (queryVectors).
func (s *Service) queryVector(ctx context.Context, q string) (query, error) {
	e, err := s.embedder(ctx)
	if err != nil {
		return query{}, err
	}
	key := queryKey(e.Model(), q)
	if vec, ok := s.queries.cache.Get(key); ok {
		return query{vec: vec, model: e.Model()}, nil
	}
	if e != embed.Embedder(s.local) {
		if err := s.queries.allow(ctx); err != nil {
			return query{}, err
		}
	}
	vecs, err := e.Embed(ctx, []string{q})
	if err != nil {
		return query{}, err
	}
	s.queries.cache.Add(key, vecs[0])
	return query{vec: vecs[0], model: e.Model()}, nil
}

// Semantic ranks live items of kind by cosine similarity to q, keeping those
// at or above minSimilarity, best first.
func (s *Service) Semantic(ctx context.Context, kind, q string, minSimilarity float64, limit int) ([]Hit, error) {
	q = strings.TrimSpace(q)
	if q == "" {
		return nil, nil
	}
	qv, err := s.queryVector(ctx, q)
	if err != nil {
		s.logQueryFailure(ctx, "search: query embedding failed", err)
		return nil, ErrUnavailable
	}
	if qv.vec == nil {
		return nil, nil
	}
	scored, err := s.store.Vector(ctx, store.VectorQuery{Kind: kind, Vector: qv.vec, Model: qv.model,
		Limit: clampLimit(limit), EfSearch: s.tuning.EfSearch, MinSimilarity: minSimilarity})
	if err != nil {
		return nil, err
	}
	out := make([]Hit, len(scored))
	for i, h := range scored {
		out[i] = Hit{ID: h.ID, Score: h.Score, Similarity: h.Score}
	}
	return out, nil
}

// Keyword ranks live items of kind by full-text match of their public text
// (never the answer side: facade callers show results to learners), best
// first.
func (s *Service) Keyword(ctx context.Context, kind, q string, limit int) ([]Hit, error) {
	q = strings.TrimSpace(q)
	if q == "" {
		return nil, nil
	}
	scored, err := s.store.Keyword(ctx, kind, q, clampLimit(limit), false)
	if err != nil {
		return nil, err
	}
	out := make([]Hit, len(scored))
	for i, h := range scored {
		out[i] = Hit{ID: h.ID, Score: h.Score, Keyword: true}
	}
	return out, nil
}

// Hybrid fuses the keyword and vector rankers and, when rerank is asked and
// a rerank model is set, reranks the head of the fused pool. When the query
// cannot be embedded it answers from the keyword ranker alone.
func (s *Service) Hybrid(ctx context.Context, kind, q string, limit int, rerank bool) ([]Hit, error) {
	q = strings.TrimSpace(q)
	if q == "" {
		return nil, nil
	}
	vec, _ := s.hybridVector(ctx, q)
	res, err := s.hybridWith(ctx, kind, q, vec, rerank)
	if err != nil {
		return nil, err
	}
	return res.hits(limit), nil
}

// fused is one hybrid ranking.
type fused struct {
	cands    []rank.Candidate
	reranked bool
}

func (f fused) hits(limit int) []Hit {
	n := len(f.cands)
	if limit > 0 {
		n = min(n, limit)
	}
	out := make([]Hit, n)
	for i, c := range f.cands[:n] {
		out[i] = Hit{ID: c.ID, Score: c.Score, Similarity: c.Similarity, Keyword: c.KeywordRank > 0}
	}
	return out
}

// hybridVector embeds the query for the vector ranker. When the embedder
// fails it logs and reports embedded false: the keyword ranker answers
// alone. vec is nil then, and when the query has nothing to embed.
func (s *Service) hybridVector(ctx context.Context, q string) (qv query, embedded bool) {
	qv, err := s.queryVector(ctx, q)
	if err != nil {
		s.logQueryFailure(ctx, "search: query embedding failed; answering from keywords only", err)
		return query{}, false
	}
	return qv, true
}

// logQueryFailure logs why a query was not embedded: a warning when the
// model failed, only a note when the caller's allowance is used up (that is
// the rule working).
func (s *Service) logQueryFailure(ctx context.Context, msg string, err error) {
	if apperr.Is(err, apperr.RateLimited) {
		s.log.InfoContext(ctx, "search: the caller's query embeddings are used up for now; keywords only")
		return
	}
	s.log.WarnContext(ctx, msg, "error", err)
}

// hybridWith runs both rankers over the public text with an already
// embedded query and fuses them (the facade's ranking: callers apply their
// own reach to what it returns). The rankers are read as deep as for GET
// /search and cut to the pool, so both rank alike for a caller who reaches
// everything (the HNSW scan's first 60 are not exactly the nearest 60).
func (s *Service) hybridWith(ctx context.Context, kind, q string, qv query, doRerank bool) (fused, error) {
	kw, _, vc, err := s.rankers(ctx, kind, q, qv, reachDepth, false)
	if err != nil {
		return fused{}, err
	}
	return s.fuse(ctx, kind, q, kw[:min(len(kw), rank.PoolSize)], vc[:min(len(vc), rank.PoolSize)], doRerank), nil
}

// rankers runs the keyword ranker over the public text (and, with hidden,
// a second time over the text with the answer side) and the vector ranker,
// concurrently on separate connections, each depth deep.
func (s *Service) rankers(ctx context.Context, kind, q string, qv query, depth int, hidden bool) (public, all, vc []rank.Scored, err error) {
	var (
		allErr, vcErr error
		wg            sync.WaitGroup
	)
	if qv.vec != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			vc, vcErr = s.store.Vector(ctx, store.VectorQuery{Kind: kind, Vector: qv.vec, Model: qv.model,
				Limit: depth, EfSearch: s.tuning.EfSearch, MinSimilarity: s.tuning.HybridMinSimilarity})
		}()
	}
	if hidden {
		wg.Add(1)
		go func() {
			defer wg.Done()
			all, allErr = s.store.Keyword(ctx, kind, q, depth, true)
		}()
	}
	public, err = s.store.Keyword(ctx, kind, q, depth, false)
	wg.Wait()
	return public, all, vc, errors.Join(err, allErr, vcErr)
}

// fuse merges the two rankings and, when asked, reranks the head.
func (s *Service) fuse(ctx context.Context, kind, q string, kw, vc []rank.Scored, doRerank bool) fused {
	res := fused{cands: rank.Fuse(kw, vc)}
	if doRerank && len(res.cands) > 1 {
		res.cands, res.reranked = s.rerank(ctx, kind, q, res.cands)
	}
	return res
}

// Rerank reorders a caller's own ranking of ids; see Facade.Rerank.
func (s *Service) Rerank(ctx context.Context, kind, q string, ids []int64) []int64 {
	q = strings.TrimSpace(q)
	if len(ids) < 2 || q == "" {
		return ids
	}
	cands := make([]rank.Candidate, len(ids))
	for i, id := range ids {
		cands[i] = rank.Candidate{ID: id, Score: float64(len(ids) - i)}
	}
	out, reranked := s.rerank(ctx, kind, q, cands)
	if !reranked {
		return ids
	}
	res := make([]int64, len(out))
	for i, c := range out {
		res[i] = c.ID
	}
	return res
}

// rerank reorders the head of the pool through the rerank model. Every
// failure (unset, down, slow, rate-limited, a reply that does not match)
// keeps the fused order; the caller never sees an error.
func (s *Service) rerank(ctx context.Context, kind, q string, cands []rank.Candidate) ([]rank.Candidate, bool) {
	model, err := s.rerankModel(ctx)
	if err != nil {
		s.log.Warn("search: reading the rerank model failed; keeping fusion order", "error", err)
		return cands, false
	}
	if strings.TrimSpace(model) == "" {
		return cands, false // unset: fusion order by design
	}
	out, err := rank.Rerank(cands, MaxRerank, func(head []rank.Candidate) ([]float64, error) {
		ids := make([]int64, len(head))
		for i, c := range head {
			ids[i] = c.ID
		}
		texts, err := s.store.Texts(ctx, kind, ids)
		if err != nil {
			return nil, err
		}
		docs := make([]string, len(head))
		for i, c := range head {
			t := texts[c.ID]
			docs[i] = strings.TrimSpace(t.Title + "\n" + t.Body) // the cross-encoder reads options too
		}
		return s.rerankScores(ctx, model, q, docs)
	})
	if err != nil {
		s.log.Warn("search: rerank failed; keeping fusion order", "kind", kind, "model", model, "error", err)
		return cands, false
	}
	return out, true
}
