package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"sort"

	"github.com/roundsedu/rounds/modules/attempts/internal/store"
	"github.com/roundsedu/rounds/modules/bank"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
)

// Started is the attempt a start call landed on.
type Started struct {
	Attempt *Attempt
	Resumed bool
}

// Start starts or resumes the caller's attempt of a quiz they may sit.
// Without fresh it resumes their latest incomplete attempt of the quiz in
// the same mode (a timed one whose time ran out is auto-submitted first and
// a new one started); with fresh it starts a new one and drops the quiz's
// saved progress. mode is "timed" or "learning" (study); empty means the
// quiz's own mode, the only one a saved test is sat in. A new attempt
// records every question as it is now.
func (s *Service) Start(ctx context.Context, p auth.Principal, quizID int64, fresh bool, mode string) (*Started, error) {
	quiz, err := s.ports.Bank.QuizForSitting(ctx, p, quizID)
	if errors.Is(err, bank.ErrNotFound) {
		return nil, apperr.NotFoundf("quiz not found")
	}
	if err != nil {
		return nil, err
	}
	switch {
	case mode == "":
		mode = quiz.Mode
	case quiz.SavedTest && mode != quiz.Mode:
		// An exam paper sat as a study session would show its answers at
		// once and be recorded as the result (docs/decisions/attempts.md).
		return nil, apperr.Invalidf("mode", "this is a saved test built to be sat %s: it is sat in that mode only", quiz.Mode)
	}
	if len(quiz.Questions) == 0 {
		return nil, apperr.BadRequestf("this quiz has no questions to sit")
	}
	var out Started
	var made *sitting // the sitting a new attempt was stored with
	err = s.db.Tx(ctx, func(ctx context.Context) error {
		made = nil
		if err := s.store.LockStart(ctx, p.UserID, quizID); err != nil {
			return err
		}
		if fresh {
			if err := s.store.DeleteProgress(ctx, p.UserID, quizID); err != nil {
				return err
			}
		} else {
			open, err := s.store.LatestOpen(ctx, p.UserID, quizID, mode)
			if err != nil {
				return err
			}
			if open != nil && !s.expired(open) {
				out = Started{Attempt: open, Resumed: true}
				return nil
			}
			if open != nil {
				if err := s.finish(ctx, open, nil, nil, true); err != nil {
					return err
				}
			}
		}
		var a *Attempt
		a, made, err = s.createAttempt(ctx, p.UserID, quiz, mode)
		out = Started{Attempt: a}
		return err
	})
	if err != nil {
		return nil, err
	}
	if made != nil {
		// Committed: its snapshot ids now exist for every later start, and
		// the attempt's questions are known to its first save.
		s.sittings.keep(quiz, made)
		s.questions.Add(out.Attempt.ID, made.sorted)
	}
	return &out, nil
}

// createAttempt stores a new attempt with its questions as they are now,
// and says which sitting it used.
func (s *Service) createAttempt(ctx context.Context, userID int64, quiz *bank.QuizSnapshot, mode string) (*Attempt, *sitting, error) {
	st, err := s.sittingOf(ctx, quiz)
	if err != nil {
		return nil, nil, err
	}
	row := &store.Attempt{UserID: userID, QuizID: quiz.ID, QuizTitle: quiz.Title, Mode: mode,
		TotalQuestions: len(quiz.Questions)}
	if mode == ModeTimed && quiz.TimeLimitMinutes != nil && *quiz.TimeLimitMinutes > 0 {
		secs := *quiz.TimeLimitMinutes * 60
		row.TimeLimitSeconds = &secs
	}
	if err := s.store.InsertAttempt(ctx, row, st.questionIDs, st.satIDs); err != nil {
		return nil, nil, err
	}
	return row, st, nil
}

// storeSnapshots makes sure every question's current content is stored
// once and returns the snapshot ids in the questions' order. Content already
// sat by anyone is shared, not copied again.
func (s *Service) storeSnapshots(ctx context.Context, qs []bank.QuestionSnapshot) ([]int64, error) {
	rows := make([]store.SatQuestion, len(qs))
	keys := make([]string, len(qs))
	for i, q := range qs {
		rows[i] = toSatRow(q)
		keys[i] = rows[i].SnapshotKey
	}
	ids, err := s.store.SatIDs(ctx, keys)
	if err != nil {
		return nil, err
	}
	var missing []store.SatQuestion
	seen := map[string]bool{}
	for _, r := range rows {
		if _, ok := ids[r.SnapshotKey]; !ok && !seen[r.SnapshotKey] {
			seen[r.SnapshotKey] = true
			missing = append(missing, r)
		}
	}
	if len(missing) > 0 {
		// One order for every inserter, so two starts never deadlock.
		sort.Slice(missing, func(i, j int) bool { return missing[i].SnapshotKey < missing[j].SnapshotKey })
		if err := s.store.InsertSat(ctx, missing); err != nil {
			return nil, err
		}
		if ids, err = s.store.SatIDs(ctx, keys); err != nil {
			return nil, err
		}
	}
	out := make([]int64, len(rows))
	for i, r := range rows {
		id, ok := ids[r.SnapshotKey]
		if !ok {
			return nil, errors.New("attempts: a question snapshot was not stored")
		}
		out[i] = id
	}
	return out, nil
}

func toSatRow(q bank.QuestionSnapshot) store.SatQuestion {
	r := store.SatQuestion{QuestionID: q.ID, Version: q.Version, QuestionType: q.Type, QuestionText: q.Text,
		Options: q.Options, CorrectAnswer: q.CorrectAnswer, Explanation: q.Explanation,
		OptionExplanations: q.OptionExplanations, KeyPoints: q.KeyPoints, AttendingTip: q.AttendingTip,
		ExplanationImagePath: q.ExplanationImagePath, ImagePath: q.ImagePath}
	r.SnapshotKey = snapshotKey(r)
	return r
}

// snapshotKey identifies a question's exact content: its id, version and
// every field sat, hashed. Two attempts share a snapshot only when nothing
// differs, even if the bank ever changed a field without a new version.
func snapshotKey(r store.SatQuestion) string {
	b, _ := json.Marshal([]any{r.QuestionID, r.Version, r.QuestionType, r.QuestionText, r.Options,
		r.CorrectAnswer, r.Explanation, r.OptionExplanations, r.KeyPoints, r.AttendingTip,
		r.ExplanationImagePath, r.ImagePath})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
