package app

import (
	"context"
	"slices"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/roundsedu/rounds/modules/bank"
)

// sittingsKept bounds the quiz contents whose sittings a process keeps.
const sittingsKept = 1024

// A sitting is how one content of a quiz is stored for a new attempt: its
// question ids in order, the ids of their snapshots in
// attempts.sat_questions in the same order, and the question ids sorted
// (what attemptQuestions keeps for the autosave).
type sitting struct {
	questionIDs, satIDs, sorted []int64
}

type sittingKey struct{ quiz, version int64 }

// sittings keeps, per serving process, the sittings of the quizzes being
// started, by quiz and content version, so that an exam opening (a
// thousand starts of one quiz in a second) hashes and looks up its
// questions' snapshots once, not once per learner. A content version
// names the questions field for field (bank.QuizSnapshot.ContentVersion)
// and a snapshot row is never changed or deleted, so a kept sitting never
// goes stale and needs no invalidation. A sitting is kept only once the
// transaction that stored its snapshots has committed.
type sittings struct {
	cache *lru.Cache[sittingKey, *sitting]
}

func newSittings() *sittings {
	c, err := lru.New[sittingKey, *sitting](sittingsKept)
	if err != nil {
		panic(err) // only for a size below 1
	}
	return &sittings{cache: c}
}

func (k *sittings) get(q *bank.QuizSnapshot) (*sitting, bool) {
	if q.ContentVersion == 0 {
		return nil, false
	}
	return k.cache.Get(sittingKey{q.ID, q.ContentVersion})
}

// keep remembers st for q's content; call it after the commit that
// stored st's snapshots.
func (k *sittings) keep(q *bank.QuizSnapshot, st *sitting) {
	if q.ContentVersion != 0 {
		k.cache.Add(sittingKey{q.ID, q.ContentVersion}, st)
	}
}

// sittingOf is the sitting of quiz's content, from memory or made now
// (its snapshots stored in the transaction on ctx).
func (s *Service) sittingOf(ctx context.Context, quiz *bank.QuizSnapshot) (*sitting, error) {
	if st, ok := s.sittings.get(quiz); ok {
		return st, nil
	}
	satIDs, err := s.storeSnapshots(ctx, quiz.Questions)
	if err != nil {
		return nil, err
	}
	st := &sitting{questionIDs: make([]int64, len(quiz.Questions)), satIDs: satIDs}
	for i, q := range quiz.Questions {
		st.questionIDs[i] = q.ID
	}
	st.sorted = slices.Sorted(slices.Values(st.questionIDs))
	return st, nil
}
