package app

import (
	"context"
	"fmt"

	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
)

// Pools a custom block draws from, by the learner's own history: unused
// (never met in a completed attempt), incorrect (wrong, or left blank, the
// last time met), flagged (flagged the last time met).
const (
	PoolUnused    = "unused"
	PoolIncorrect = "incorrect"
	PoolFlagged   = "flagged"
)

// CustomBlock is a learner's "create test": questions drawn from what they
// reach, narrowed to categories (each with its branch) and to pools (any
// of; none means every question reached), Count of them at random.
type CustomBlock struct {
	Title            string
	Mode             string
	TimeLimitMinutes int
	CategoryIDs      []int64
	Pools            []string
	Count            int
}

// BlockCounts is how many questions reached (in the categories asked) are
// in each pool.
type BlockCounts struct {
	Total, Unused, Incorrect, Flagged int
}

// blockCandidate is one reached question with the learner's history of it.
type blockCandidate struct {
	id                     int64
	unused, wrong, flagged bool
}

// blockPool lists the questions p reaches in the categories asked (each with
// its branch), with p's history of each. The store narrows to the
// published and granted questions; the one reach policy (reach.go) then
// decides, so nothing unreachable can enter a block.
func (s *Service) blockPool(ctx context.Context, p auth.Principal, categoryIDs []int64) ([]blockCandidate, error) {
	v, err := s.viewerOf(ctx, p)
	if err != nil {
		return nil, err
	}
	var t *tree
	if len(categoryIDs) > 0 || len(v.branches) > 0 {
		if t, err = s.loadTree(ctx); err != nil {
			return nil, err
		}
	}
	var within []int64
	for _, id := range dedupe(categoryIDs) {
		within = append(within, t.branch(id)...)
	}
	ids, err := s.store.BlockPool(ctx, v.mod(), v.quizGrants, v.editableCategories(t), dedupe(within), len(categoryIDs) > 0)
	if err != nil {
		return nil, err
	}
	visible, _, err := s.reach(ctx, v, ids)
	if err != nil {
		return nil, err
	}
	reached := make([]int64, 0, len(ids))
	for _, id := range ids {
		if visible[id] {
			reached = append(reached, id)
		}
	}
	met, flagged, err := s.ports.Attempts.LastAnswers(ctx, p.UserID, reached)
	if err != nil {
		return nil, err
	}
	out := make([]blockCandidate, len(reached))
	for i, id := range reached {
		right, seen := met[id]
		out[i] = blockCandidate{id: id, unused: !seen, wrong: seen && !right, flagged: flagged[id]}
	}
	return out, nil
}

// CustomBlockCounts counts what a custom block could draw from.
func (s *Service) CustomBlockCounts(ctx context.Context, p auth.Principal, categoryIDs []int64) (*BlockCounts, error) {
	pool, err := s.blockPool(ctx, p, categoryIDs)
	if err != nil {
		return nil, err
	}
	c := &BlockCounts{Total: len(pool)}
	for _, q := range pool {
		c.Unused += btoi(q.unused)
		c.Incorrect += btoi(q.wrong)
		c.Flagged += btoi(q.flagged)
	}
	return c, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// BuildCustomBlock draws the block and files it as p's saved test
// (BuildSavedTest, which checks reach again under the questions' locks).
// 409 when nothing matches. available is how many matched.
func (s *Service) BuildCustomBlock(ctx context.Context, p auth.Principal, in CustomBlock) (quiz *Quiz, available int, err error) {
	want := map[string]bool{}
	for _, pool := range in.Pools {
		if pool != PoolUnused && pool != PoolIncorrect && pool != PoolFlagged {
			return nil, 0, apperr.Invalidf("pools", "a pool is unused, incorrect or flagged")
		}
		want[pool] = true
	}
	if in.Count < 1 {
		return nil, 0, apperr.Invalidf("count", "a block has at least one question")
	}
	pool, err := s.blockPool(ctx, p, in.CategoryIDs)
	if err != nil {
		return nil, 0, err
	}
	var ids []int64
	for _, q := range pool {
		if len(want) == 0 || (want[PoolUnused] && q.unused) || (want[PoolIncorrect] && q.wrong) || (want[PoolFlagged] && q.flagged) {
			ids = append(ids, q.id)
		}
	}
	if len(ids) == 0 {
		return nil, 0, apperr.Conflictf("no question you can reach matches these choices")
	}
	available = len(ids)
	shuffle(ids)
	if len(ids) > in.Count {
		ids = ids[:in.Count]
	}
	if in.Title == "" {
		in.Title = fmt.Sprintf("Custom block: %d question%s", len(ids), map[bool]string{true: "s"}[len(ids) != 1])
	}
	quiz, err = s.BuildSavedTest(ctx, p, SavedTest{Title: in.Title, Mode: in.Mode, TimeLimitMinutes: in.TimeLimitMinutes, QuestionIDs: ids})
	return quiz, available, err
}
