// Package rank fuses the keyword and vector rankers by reciprocal rank
// fusion and applies a rerank to the head of the fused list, keeping the
// fused order whenever the rerank fails. Pure functions, no I/O.
package rank

import (
	"sort"
)

const (
	// K damps the weight of top ranks in reciprocal rank fusion.
	K = 60
	// PoolSize is how many fused candidates survive (and how deep each
	// ranker is read).
	PoolSize = 60
)

// Scored is one ranker's hit; Score is the ranker's own measure (ts_rank
// or cosine similarity).
type Scored struct {
	ID    int64
	Score float64
}

// Candidate is one fused item.
type Candidate struct {
	ID int64
	// Score is the fused score, or the rerank score once reranked.
	Score float64
	// Similarity is the cosine similarity when the vector ranker found it.
	Similarity float64
	// KeywordRank and VectorRank are 1-based positions; 0 means absent.
	KeywordRank int
	VectorRank  int
}

// Fuse merges the two rankings (each best first) by reciprocal rank fusion,
// score = sum over rankers of 1 / (K + rank), and returns at most PoolSize
// candidates, best first. Ties go to the item found by both rankers, then
// the better single rank, then the lower id, so the order is stable.
func Fuse(keyword, vector []Scored) []Candidate {
	byID := map[int64]*Candidate{}
	var order []*Candidate
	get := func(id int64) *Candidate {
		c, ok := byID[id]
		if !ok {
			c = &Candidate{ID: id}
			byID[id] = c
			order = append(order, c)
		}
		return c
	}
	for i, s := range keyword {
		c := get(s.ID)
		if c.KeywordRank == 0 {
			c.KeywordRank = i + 1
			c.Score += 1.0 / float64(K+i+1)
		}
	}
	for i, s := range vector {
		c := get(s.ID)
		if c.VectorRank == 0 {
			c.VectorRank = i + 1
			c.Similarity = s.Score
			c.Score += 1.0 / float64(K+i+1)
		}
	}
	sort.SliceStable(order, func(i, j int) bool {
		a, b := order[i], order[j]
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		if both(a) != both(b) {
			return both(a)
		}
		if ba, bb := best(a), best(b); ba != bb {
			return ba < bb
		}
		return a.ID < b.ID
	})
	if len(order) > PoolSize {
		order = order[:PoolSize]
	}
	out := make([]Candidate, len(order))
	for i, c := range order {
		out[i] = *c
	}
	return out
}

func both(c *Candidate) bool { return c.KeywordRank > 0 && c.VectorRank > 0 }

func best(c *Candidate) int {
	switch {
	case c.KeywordRank == 0:
		return c.VectorRank
	case c.VectorRank == 0:
		return c.KeywordRank
	}
	return min(c.KeywordRank, c.VectorRank)
}

// Scorer scores the given candidates (relevance, higher is better), one
// score per candidate in order, or fails.
type Scorer func(head []Candidate) ([]float64, error)

// Rerank reorders the first max candidates by score's verdict; the rest
// keep their fused order after them. On any failure (or a reply of the
// wrong length) it returns cands unchanged, with the error for the log.
func Rerank(cands []Candidate, max int, score Scorer) ([]Candidate, error) {
	n := min(max, len(cands))
	if n == 0 {
		return cands, nil
	}
	scores, err := score(cands[:n])
	if err != nil {
		return cands, err
	}
	if len(scores) != n {
		return cands, errWrongLength
	}
	head := make([]Candidate, n)
	copy(head, cands[:n])
	for i := range head {
		head[i].Score = scores[i]
	}
	sort.SliceStable(head, func(i, j int) bool { return head[i].Score > head[j].Score })
	return append(head, cands[n:]...), nil
}

type rankError string

func (e rankError) Error() string { return string(e) }

const errWrongLength = rankError("rerank: one score per candidate expected")
