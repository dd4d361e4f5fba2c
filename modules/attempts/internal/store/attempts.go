package store

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/modules/bank"

	"github.com/roundsedu/rounds/platform/db"
)

// Attempt is a row of attempts.attempts.
type Attempt struct {
	ID               int64 `gorm:"primaryKey"`
	UserID           int64
	QuizID           int64
	QuizTitle        string
	Mode             string
	TimeLimitSeconds *int
	TotalQuestions   int
	Score            *int
	Percentage       *float64
	StartedAt        time.Time
	DeadlineAt       *time.Time
	CompletedAt      *time.Time
	AutoSubmitted    bool
}

// TableName places the row in the module's schema.
func (Attempt) TableName() string { return "attempts.attempts" }

// Completed reports whether the attempt has been scored.
func (a *Attempt) Completed() bool { return a.CompletedAt != nil }

// AnswersOpen reports whether the attempt shows its answer side: a study
// attempt at once, a timed one after submission.
func (a *Attempt) AnswersOpen() bool { return a.Mode == bank.ModeLearning || a.Completed() }

// InsertAttempt creates an attempt starting now with its questions in
// order (their ids and the ids of the snapshots sat), in one statement;
// its deadline is now plus the time limit when it has one.
func (s *Store) InsertAttempt(ctx context.Context, a *Attempt, questionIDs, satIDs []int64) error {
	return s.db.Conn(ctx).Raw(`WITH a AS (INSERT INTO attempts.attempts
		  (user_id, quiz_id, quiz_title, mode, time_limit_seconds, total_questions, deadline_at)
		  VALUES (?, ?, ?, ?, ?, ?, now() + make_interval(secs => ?::int))
		  RETURNING *),
		q AS (INSERT INTO attempts.answers (attempt_id, position, question_id, sat_question_id)
		  SELECT a.id, q.n - 1, q.question_id, q.sat_question_id
		  FROM a, unnest(?::bigint[], ?::bigint[]) WITH ORDINALITY AS q (question_id, sat_question_id, n))
		SELECT * FROM a`, a.UserID, a.QuizID, a.QuizTitle, a.Mode, a.TimeLimitSeconds, a.TotalQuestions,
		a.TimeLimitSeconds, db.IDArray(questionIDs), db.IDArray(satIDs)).Scan(a).Error
}

// Attempt loads one of the user's attempts under lock (db.ErrNotFound when
// it is missing or someone else's).
func (s *Store) Attempt(ctx context.Context, userID, id int64, lock db.Lock) (*Attempt, error) {
	return ownedRow[Attempt](ctx, s, "id", id, userID, lock)
}

// AttemptByID loads any attempt, locked for update (the sweep, which acts for
// no caller).
func (s *Store) AttemptByID(ctx context.Context, id int64) (*Attempt, error) {
	var a Attempt
	if err := s.db.Locked(ctx).Where("id = ?", id).Take(&a).Error; err != nil {
		return nil, err
	}
	return &a, nil
}

// CompletedAttempt loads any completed attempt (db.ErrNotFound when it is
// missing or still open).
func (s *Store) CompletedAttempt(ctx context.Context, id int64) (*Attempt, error) {
	var a Attempt
	if err := s.db.Conn(ctx).Where("id = ? AND completed_at IS NOT NULL", id).Take(&a).Error; err != nil {
		return nil, err
	}
	return &a, nil
}

// LatestOpen is the user's most recently started incomplete attempt of a
// quiz in mode, locked for update; nil when none.
func (s *Store) LatestOpen(ctx context.Context, userID, quizID int64, mode string) (*Attempt, error) {
	var a Attempt
	res := s.db.Conn(ctx).Raw(`SELECT * FROM attempts.attempts
		WHERE user_id = ? AND quiz_id = ? AND completed_at IS NULL AND mode = ?
		ORDER BY started_at DESC, id DESC LIMIT 1 FOR UPDATE`, userID, quizID, mode).Scan(&a)
	if res.Error != nil || res.RowsAffected == 0 {
		return nil, res.Error
	}
	return &a, nil
}

// Complete records the score of an attempt.
func (s *Store) Complete(ctx context.Context, id int64, score int, pct float64, at time.Time, auto bool) error {
	return s.db.Conn(ctx).Exec(`UPDATE attempts.attempts
		SET score = ?, percentage = ?, completed_at = ?, auto_submitted = ? WHERE id = ?`,
		score, pct, at, auto, id).Error
}

// DeleteAttempt removes one of the user's attempts with its answers, saved
// progress and the reminder entries it last moved (foreign keys cascade).
func (s *Store) DeleteAttempt(ctx context.Context, userID, id int64) error {
	return s.db.Conn(ctx).Exec(`DELETE FROM attempts.attempts WHERE id = ? AND user_id = ?`, id, userID).Error
}

// Attempts lists the user's attempts newest first, of one quiz when quizID
// is set.
func (s *Store) Attempts(ctx context.Context, userID int64, quizID *int64, limit, offset int) ([]Attempt, error) {
	var out []Attempt
	err := s.db.Conn(ctx).Raw(`SELECT * FROM attempts.attempts
		WHERE user_id = ? AND (?::bigint IS NULL OR quiz_id = ?)
		ORDER BY started_at DESC, id DESC LIMIT ? OFFSET ?`, userID, quizID, quizID, limit, offset).Scan(&out).Error
	return out, err
}

// OpenAttempt is an incomplete attempt with what its saved progress says.
type OpenAttempt struct {
	Attempt
	Answered   *int
	CurrentIdx *int
	SavedAt    *time.Time
}

// OpenAttempts lists the user's incomplete attempts, most recently started
// first, with their saved progress when there is some.
func (s *Store) OpenAttempts(ctx context.Context, userID int64, limit, offset int) ([]OpenAttempt, error) {
	var out []OpenAttempt
	err := s.db.Conn(ctx).Raw(`SELECT a.*,
		  CASE WHEN p.attempt_id IS NOT NULL THEN (SELECT count(*) FROM jsonb_object_keys(p.answers)) END AS answered,
		  p.current_idx, p.saved_at
		FROM attempts.attempts a
		LEFT JOIN attempts.saved_progress p ON p.attempt_id = a.id AND p.expires_at > now()
		WHERE a.user_id = ? AND a.completed_at IS NULL
		ORDER BY a.started_at DESC, a.id DESC LIMIT ? OFFSET ?`, userID, limit, offset).Scan(&out).Error
	return out, err
}

// Expired lists incomplete attempts whose deadline passed more than grace
// ago, oldest deadline first: the user's (of one quiz when quizID is set),
// or everyone's when userID is nil.
func (s *Store) Expired(ctx context.Context, userID, quizID *int64, grace time.Duration, limit int) ([]int64, error) {
	var ids []int64
	err := s.db.Conn(ctx).Raw(`SELECT id FROM attempts.attempts
		WHERE completed_at IS NULL AND deadline_at IS NOT NULL
		  AND deadline_at < now() - make_interval(secs => ?)
		  AND (?::bigint IS NULL OR user_id = ?) AND (?::bigint IS NULL OR quiz_id = ?)
		ORDER BY deadline_at LIMIT ?`, grace.Seconds(), userID, userID, quizID, quizID, limit).Scan(&ids).Error
	return ids, err
}

// HasCompleted reports whether the user completed an attempt of the quiz.
func (s *Store) HasCompleted(ctx context.Context, userID, quizID int64) (bool, error) {
	var ok bool
	err := s.db.Conn(ctx).Raw(`SELECT EXISTS (SELECT 1 FROM attempts.attempts
		WHERE user_id = ? AND quiz_id = ? AND completed_at IS NOT NULL)`, userID, quizID).Scan(&ok).Error
	return ok, err
}

// LockStart serialises starts of one quiz by one learner, so two racing
// "start or resume" calls resume the same attempt instead of making two.
func (s *Store) LockStart(ctx context.Context, userID, quizID int64) error {
	return s.db.Conn(ctx).Exec(`SELECT pg_advisory_xact_lock(?::int, hashtext(concat(?::bigint, ':', ?::bigint)))`,
		startLockSpace, userID, quizID).Error
}

// startLockSpace is the first key of the start lock (the second hashes the
// learner and quiz); it keeps these locks apart from other modules'.
const startLockSpace = 7_470_501
