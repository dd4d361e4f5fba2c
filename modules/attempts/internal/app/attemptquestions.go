package app

import (
	"context"
	"slices"

	lru "github.com/hashicorp/golang-lru/v2"
)

// attemptsKept bounds the attempts whose questions a process keeps: the
// attempts being sat on it at once, with room (a few MB at the sizes
// quizzes have).
const attemptsKept = 4096

// attemptQuestions keeps, per serving process, the question ids of the
// attempts being sat, sorted. An attempt's questions are fixed when it
// starts (start.go inserts them in the starting transaction, and nothing
// changes them after) and attempt ids are never reused, so a kept set
// never goes stale, on this process or any other, and needs no
// invalidation. The autosave fast path checks a save's answers against it
// instead of asking the database on every save (docs/decisions/attempts.md).
type attemptQuestions = lru.Cache[int64, []int64]

func newAttemptQuestions() *attemptQuestions {
	c, err := lru.New[int64, []int64](attemptsKept)
	if err != nil {
		panic(err) // only for a size below 1
	}
	return c
}

// attemptHolds reports whether every id is a question of the attempt
// (sorting ids). It reads the attempt's questions once per process; an
// attempt with none (no such attempt, or one not yet committed) is not
// kept, so it is read again next time. It says nothing of whose attempt
// it is: the save's statement, or the slow path, checks that.
func (s *Service) attemptHolds(ctx context.Context, attemptID int64, ids []int64) (bool, error) {
	qs, ok := s.questions.Get(attemptID)
	if !ok {
		var err error
		if qs, err = s.store.AttemptQuestionIDs(ctx, attemptID); err != nil {
			return false, err
		}
		slices.Sort(qs)
		if len(qs) > 0 {
			s.questions.Add(attemptID, qs)
		}
	}
	// One walk through both, sorted (a browser sends ids in order already).
	slices.Sort(ids)
	i := 0
	for _, id := range ids {
		for i < len(qs) && qs[i] < id {
			i++
		}
		if i == len(qs) || qs[i] != id {
			return false, nil
		}
	}
	return true, nil
}
