package app

import (
	"context"

	"github.com/roundsedu/rounds/modules/search/internal/rank"
	"github.com/roundsedu/rounds/platform/auth"
)

// Reach asks the module that owns kind which of ids p may find (visible)
// and whose answer side p may read (editable): search.Reach, looked up by
// kind. A kind no module vouches for is found by nobody.
type Reach func(ctx context.Context, p auth.Principal, kind string, ids []int64) (visible, editable map[int64]bool, err error)

// reachDepth is how deep each ranker is read before the caller's reach is
// applied, so a caller who reaches a small part of the index still gets a
// full pool. At 200 the vector ranker costs what it costs at 60: its HNSW
// candidate list is ef_search (200) either way.
const reachDepth = 200

// suggestDepth is how many typeahead matches are read before reach is
// applied.
const suggestDepth = 100

// reachable asks the kind's owner about ids (none asked: nothing to say).
func (s *Service) reachable(ctx context.Context, p auth.Principal, kind string, ids []int64) (visible, editable map[int64]bool, err error) {
	if len(ids) == 0 {
		return nil, nil, nil
	}
	return s.reach(ctx, p, kind, ids)
}

// reachedRankings ranks one kind for p: each ranker read reachDepth deep,
// the answer side matched only where p may read it, and only items p may
// find kept, each list cut to the fusion pool.
func (s *Service) reachedRankings(ctx context.Context, p auth.Principal, kind, q string, qv query) (kw, vc []rank.Scored, err error) {
	public, all, vec0, err := s.rankers(ctx, kind, q, qv, reachDepth, true)
	if err != nil {
		return nil, nil, err
	}
	visible, editable, err := s.reachable(ctx, p, kind, idsOf(public, all, vec0))
	if err != nil {
		return nil, nil, err
	}
	kw, vc = rank.Restrict(public, all, vec0, visible, editable, rank.PoolSize)
	return kw, vc, nil
}

// idsOf lists the distinct ids of the lists.
func idsOf(lists ...[]rank.Scored) []int64 {
	seen := map[int64]bool{}
	var out []int64
	for _, l := range lists {
		for _, s := range l {
			if !seen[s.ID] {
				seen[s.ID] = true
				out = append(out, s.ID)
			}
		}
	}
	return out
}
