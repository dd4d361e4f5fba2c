package app

import (
	"context"
	"errors"
	"iter"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/roundsedu/rounds/modules/attempts/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
)

// Limits of an answer set a client sends (saved or given at submission),
// and of the flags a save carries.
const (
	maxSavedAnswers = 1000
	maxAnswerLength = 2000
	maxSavedFlags   = 1000
)

// Progress is a learner's saved progress for one quiz: the stored row,
// whose fields are exactly what the service hands out.
type Progress = store.Progress

// SaveInput is one autosave.
type SaveInput struct {
	QuizID    int64
	AttemptID int64
	Answers   map[string]string // question id (decimal) -> answer
	// AnswersJSON, when given, stands for the answers instead of Answers
	// (then nil): a JSON object whose strings are all plain (no escape)
	// and whose keys are in jsonb's order (shorter first, then bytewise,
	// none twice), as a browser writes question ids. The save's statement
	// takes it as it is, and no map is built unless the slow path needs
	// one.
	AnswersJSON string
	CurrentIdx  int
	Mode        *string
	Voice       *string
	TimeLeft    *float64
	StartedAt   *time.Time
	TotalTime   *float64
	Revision    *int64 // optional, monotonic per device: an older save never overwrites a newer one
	// Flagged are the questions the learner flagged (each a question of the
	// attempt); nil keeps the ones saved before, empty clears them.
	Flagged []int64
}

// Saved is the outcome of an autosave. Stale means a newer save from the
// same device was already stored and this one changed nothing.
type Saved struct {
	Stale     bool
	SavedAt   time.Time
	ExpiresAt time.Time
}

// SaveProgress stores the caller's progress on their incomplete attempt.
// device is the x-quiz-session header ("" when absent). Another device gets
// 409 while the holder's last save is younger than the device lock and
// takes over after it. A timed attempt past its time is auto-submitted and
// the save refused.
func (s *Service) SaveProgress(ctx context.Context, p auth.Principal, device string, in SaveInput) (*Saved, error) {
	var ids []int64
	canonical := true // every key spelled as the id's decimal, nothing else ("07" is 7 too)
	err := checkAnswers(in.answers(), func(key string, id int64, _ string) {
		ids = append(ids, id)
		canonical = canonical && key[0] != '0' && key[0] != '+'
	})
	if err != nil {
		return nil, err
	}
	flags, err := checkFlags(in.Flagged)
	if err != nil {
		return nil, err
	}
	row := &store.Progress{UserID: p.UserID, QuizID: in.QuizID, AttemptID: in.AttemptID,
		Answers: in.Answers, CurrentIdx: in.CurrentIdx, Mode: in.Mode, Voice: in.Voice, TimeLeft: in.TimeLeft,
		StartedAt: in.StartedAt, TotalTime: in.TotalTime, Device: device, Revision: in.Revision, Flagged: flags}
	// The common case in one statement shared with other learners' saves
	// (saves.go), once its answers and flags are known to name questions
	// of the attempt; anything else takes the slow path, which applies the
	// same rules step by step and says what went wrong.
	fits := canonical
	named := ids
	if len(flags) > 0 {
		named = slices.Concat(ids, flags) // a copy: attemptHolds sorts it, the slow path counts ids
	}
	if fits && len(named) > 0 {
		if fits, err = s.attemptHolds(ctx, in.AttemptID, named); err != nil {
			return nil, err
		}
	}
	if fits {
		fit := &store.FitSave{Progress: row, AnswersJSON: in.AnswersJSON}
		if err := s.saves.Do(ctx, fit); err != nil {
			return nil, err
		}
		if fit.Applied {
			return &Saved{SavedAt: row.SavedAt, ExpiresAt: row.ExpiresAt}, nil
		}
	}
	if row.Answers == nil && in.AnswersJSON != "" {
		row.Answers = maps.Collect(in.answers())
	}
	var out Saved
	timeUp := false
	err = s.db.Tx(ctx, func(ctx context.Context) error {
		// KEY SHARE: saves run side by side, a submit (FOR UPDATE) waits.
		a, err := s.store.Attempt(ctx, p.UserID, in.AttemptID, db.ForKeyShare)
		if err != nil {
			return attemptErr(err)
		}
		if a.QuizID != in.QuizID {
			return apperr.Invalidf("quiz_id", "attempt %d is an attempt of quiz %d, not %d", a.ID, a.QuizID, in.QuizID)
		}
		if a.CompletedAt != nil {
			return apperr.Conflictf("this attempt has been submitted; its progress is no longer saved")
		}
		if s.expired(a) {
			timeUp = true
			return nil
		}
		if len(ids) > 0 {
			n, err := s.store.CountInAttempt(ctx, a.ID, ids)
			if err != nil {
				return err
			}
			if n != len(ids) {
				return apperr.Invalidf("answers", "answers name questions that are not in this attempt")
			}
		}
		if len(flags) > 0 {
			n, err := s.store.CountInAttempt(ctx, a.ID, flags)
			if err != nil {
				return err
			}
			if n != len(flags) {
				return apperr.Invalidf("flagged", "flagged names questions that are not in this attempt")
			}
		}
		applied, err := s.store.SaveProgress(ctx, row, s.policy.DeviceLock, s.policy.ProgressTTL)
		if err != nil {
			return err
		}
		if applied {
			out = Saved{SavedAt: row.SavedAt, ExpiresAt: row.ExpiresAt}
			return nil
		}
		// Refused: either another device holds the lock, or a newer save
		// from this device is already stored.
		cur, err := s.store.ProgressOfAttempt(ctx, p.UserID, in.AttemptID, db.ForUpdate)
		if errors.Is(err, db.ErrNotFound) {
			return apperr.Conflictf("the saved progress changed meanwhile; save again")
		}
		if err != nil {
			return err
		}
		if cur.Device != device {
			return s.lockedError(cur)
		}
		out = Saved{Stale: true, SavedAt: cur.SavedAt, ExpiresAt: cur.ExpiresAt}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if timeUp {
		if _, err := s.autoSubmit(ctx, in.AttemptID); err != nil {
			return nil, err
		}
		return nil, apperr.Conflictf("time is up: the attempt was submitted with the answers saved in time")
	}
	return &out, nil
}

// answers walks the save's answers, from whichever form stands for them.
func (in SaveInput) answers() iter.Seq2[string, string] {
	if in.AnswersJSON != "" {
		return plainPairs(in.AnswersJSON)
	}
	return maps.All(in.Answers)
}

// plainPairs walks a JSON object whose strings have no escape, so each
// quote opens or closes a string: its keys and values are the text
// between them, taken without a copy.
func plainPairs(object string) iter.Seq2[string, string] {
	return func(yield func(string, string) bool) {
		for rest := object; ; {
			k, afterKey, ok := nextPlain(rest)
			if !ok {
				return
			}
			v, afterValue, ok := nextPlain(afterKey)
			if !ok || !yield(k, v) {
				return
			}
			rest = afterValue
		}
	}
}

func nextPlain(s string) (str, rest string, ok bool) {
	open := strings.IndexByte(s, '"')
	if open < 0 {
		return "", "", false
	}
	s = s[open+1:]
	end := strings.IndexByte(s, '"')
	if end < 0 {
		return "", "", false
	}
	return s[:end], s[end+1:], true
}

// checkAnswers checks an answer set a client sent (keys are question ids,
// values are bounded) and hands each answer with its key and question id to
// each (whose work is thrown away on an error). Too many answers is the
// error reported first.
func checkAnswers(answers iter.Seq2[string, string], each func(key string, id int64, answer string)) error {
	n := 0
	var keyErr error
	for k, v := range answers {
		if n++; keyErr != nil {
			continue
		}
		id, err := strconv.ParseInt(k, 10, 64)
		switch {
		case err != nil || id <= 0:
			keyErr = apperr.Invalidf("answers", "answers are keyed by question id; %q is not one", k)
		case len(v) > maxAnswerLength:
			keyErr = apperr.Invalidf("answers", "the answer to question %d is longer than %d bytes", id, maxAnswerLength)
		default:
			each(k, id, v)
		}
	}
	if n > maxSavedAnswers {
		return apperr.Invalidf("answers", "at most %d answers", maxSavedAnswers)
	}
	return keyErr
}

// checkFlags bounds the flags a save sends and returns them ascending,
// each once (nil stays nil: the save keeps the flags stored before).
func checkFlags(flagged []int64) ([]int64, error) {
	if flagged == nil {
		return nil, nil
	}
	if len(flagged) > maxSavedFlags {
		return nil, apperr.Invalidf("flagged", "at most %d flagged questions", maxSavedFlags)
	}
	out := slices.Clone(flagged)
	slices.Sort(out)
	out = slices.Compact(out)
	if len(out) > 0 && out[0] <= 0 {
		return nil, apperr.Invalidf("flagged", "flagged holds question ids; %d is not one", out[0])
	}
	return out, nil
}

// lockedError is the 409 for progress held by another device; Retry-After
// says when it may take over.
func (s *Service) lockedError(cur *store.Progress) error {
	e := apperr.Conflictf("this progress is in use on another device; it can take over %s after that device's last save",
		s.policy.DeviceLock)
	if wait := cur.SavedAt.Add(s.policy.DeviceLock).Sub(s.now()); wait > 0 {
		e.RetryAfter = wait
	}
	return e
}

// lockedOut reports whether device must wait for the holder of cur: it is
// another device, the holder named itself, and its last save is younger
// than the lock.
func (s *Service) lockedOut(cur *store.Progress, device string) bool {
	return cur.Device != device && cur.Device != "" && s.now().Before(cur.SavedAt.Add(s.policy.DeviceLock))
}

// ProgressRead is what GET /attempts/progress finds: the saved progress (nil
// when none), and the attempts of the quiz auto-submitted by this read.
type ProgressRead struct {
	Progress      *Progress
	AutoSubmitted []int64
}

// Progress returns the caller's saved progress for a quiz: the most
// recently saved one, or the given attempt's when attemptID is set (it must
// be an attempt of the quiz). A timed attempt of the quiz whose time ran
// out is auto-submitted first (and its progress cleared); expired progress
// is removed and reads as none; another device gets 409 while the holder's
// lock is fresh.
func (s *Service) Progress(ctx context.Context, p auth.Principal, device string, quizID int64, attemptID *int64) (*ProgressRead, error) {
	if attemptID != nil {
		a, err := s.store.Attempt(ctx, p.UserID, *attemptID, db.NoLock)
		if err != nil {
			return nil, attemptErr(err)
		}
		if a.QuizID != quizID {
			return nil, apperr.Invalidf("attempt_id", "attempt %d is an attempt of quiz %d, not %d", a.ID, a.QuizID, quizID)
		}
	}
	done, err := s.settle(ctx, p.UserID, &quizID)
	if err != nil {
		return nil, err
	}
	out := &ProgressRead{AutoSubmitted: done}
	var cur *store.Progress
	if attemptID != nil {
		cur, err = s.store.ProgressOfAttempt(ctx, p.UserID, *attemptID, db.NoLock)
	} else {
		cur, err = s.store.LatestProgress(ctx, p.UserID, quizID)
	}
	if errors.Is(err, db.ErrNotFound) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	if !cur.ExpiresAt.After(s.now()) {
		return out, s.store.DeleteExpiredProgress(ctx, p.UserID, quizID)
	}
	if s.lockedOut(cur, device) {
		return nil, s.lockedError(cur)
	}
	out.Progress = cur
	return out, nil
}

// DeleteProgress drops the saved progress of the caller's attempt (204 when
// there is none). Another device gets 409 while the holder's lock is fresh.
func (s *Service) DeleteProgress(ctx context.Context, p auth.Principal, device string, attemptID int64) error {
	return s.db.Tx(ctx, func(ctx context.Context) error {
		if _, err := s.store.Attempt(ctx, p.UserID, attemptID, db.NoLock); err != nil {
			return attemptErr(err)
		}
		cur, err := s.store.ProgressOfAttempt(ctx, p.UserID, attemptID, db.ForUpdate)
		if errors.Is(err, db.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		if s.lockedOut(cur, device) && cur.ExpiresAt.After(s.now()) {
			return s.lockedError(cur)
		}
		return s.store.DeleteProgressOfAttempt(ctx, attemptID)
	})
}
