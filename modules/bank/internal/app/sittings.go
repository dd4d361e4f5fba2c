package app

import (
	"context"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/roundsedu/rounds/modules/bank/internal/store"
	"github.com/roundsedu/rounds/platform/db"
)

// sittingsKept bounds the quizzes whose questions a process keeps for
// sitting (a 50-question quiz with its answer side is about 100 KB).
const sittingsKept = 512

// sittings keeps, per quiz, its live questions with their answer side as
// one content version shows them: what every start of the quiz records
// (an exam opening starts it a thousand times in a second) and what an
// export or a share reads. A kept list is used only while the quiz's row
// (quizRows: in memory, forgotten when the bank's triggers say it
// changed) carries the same version, and a version names one list for
// good (the triggers move it on any change a list could show), so a kept
// list is never stale beyond the row it is checked against. The lists are
// shared: nobody may write through them.
type sittings = lru.Cache[int64, sitting]

type sitting struct {
	version   int64
	questions []*Question
}

func newSittings() *sittings {
	c, err := lru.New[int64, sitting](sittingsKept)
	if err != nil {
		panic(err) // only for a size below one
	}
	return c
}

// sittingQuestions is quiz z's live questions with the answer side, and
// the content version they were read at. Inside a transaction it reads
// the database and keeps nothing (the transaction may have written them).
func (s *Service) sittingQuestions(ctx context.Context, z *store.QuizVersioned) ([]*Question, int64, error) {
	tx := db.InTx(ctx)
	if hit, ok := s.sittings.Get(z.ID); ok && !tx && hit.version == z.Version {
		return hit.questions, hit.version, nil
	}
	d, err := s.detail(ctx, &z.QuizSummary, true)
	if err != nil {
		return nil, 0, err
	}
	if !tx && len(d.Questions) > 0 {
		s.sittings.Add(z.ID, sitting{version: d.Version, questions: d.Questions})
	}
	return d.Questions, d.Version, nil
}
