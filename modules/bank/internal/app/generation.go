package app

import (
	"context"
	"slices"

	"github.com/roundsedu/rounds/modules/bank/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
)

// Difficulties are the levels a question may be rated.
var Difficulties = []string{"easy", "medium", "hard"}

// Rated is a live question as a model reads it.
type Rated = store.Rated

// RatedQuestions reads up to limit live questions by id: those among ids,
// or when categoryID is set those filed in its branch (the category and
// everything below it).
func (s *Service) RatedQuestions(ctx context.Context, ids []int64, categoryID *int64, limit int) ([]Rated, error) {
	if categoryID == nil {
		return s.store.RatedQuestions(ctx, ids, nil, limit)
	}
	t, err := s.loadTree(ctx)
	if err != nil {
		return nil, err
	}
	branch := t.branch(*categoryID)
	if branch == nil {
		return nil, apperr.Invalidf("category_id", "category %d does not exist", *categoryID)
	}
	return s.store.RatedQuestions(ctx, nil, branch, limit)
}

// SetDifficulty stores the levels on the live questions among them, in
// one transaction, and counts those stored.
func (s *Service) SetDifficulty(ctx context.Context, levels map[int64]string) (int64, error) {
	ids := make([]int64, 0, len(levels))
	for id, l := range levels {
		if !slices.Contains(Difficulties, l) {
			return 0, apperr.Invalidf("difficulty", "difficulty is easy, medium or hard, not %q", l)
		}
		ids = append(ids, id)
	}
	slices.Sort(ids)
	vals := make([]string, len(ids))
	for i, id := range ids {
		vals[i] = levels[id]
	}
	var n int64
	err := s.write(ctx, func(ctx context.Context) error {
		var err error
		n, err = s.store.SetDifficulty(ctx, ids, vals)
		return err
	})
	return n, err
}
