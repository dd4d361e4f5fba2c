package store

import (
	"context"
	"fmt"
	"time"

	"github.com/roundsedu/rounds/platform/db"
)

// upsertProgress is the insert-or-replace both saves share; %s is where its
// row comes from. The WHERE is the save rule: a save replaces the stored
// progress when the stored row has expired, or it is the same device's and
// the save is not older by revision, or it is another device's whose lock
// (the last parameter, in seconds) has lapsed (a device of "" holds no
// lock). Positional parameters: gorm's named ones re-parse the statement
// on every save, the hottest write.
const upsertProgress = `INSERT INTO attempts.saved_progress AS sp
		  (user_id, quiz_id, attempt_id, answers, current_idx, mode, voice, time_left, started_at, total_time,
		   device, revision, saved_at, expires_at)
		%s
		ON CONFLICT (attempt_id) DO UPDATE SET
		  answers = EXCLUDED.answers, current_idx = EXCLUDED.current_idx,
		  mode = EXCLUDED.mode, voice = EXCLUDED.voice, time_left = EXCLUDED.time_left,
		  started_at = EXCLUDED.started_at, total_time = EXCLUDED.total_time, device = EXCLUDED.device,
		  revision = EXCLUDED.revision, saved_at = EXCLUDED.saved_at, expires_at = EXCLUDED.expires_at
		WHERE sp.expires_at <= now()
		   OR (sp.device = EXCLUDED.device
		       AND (EXCLUDED.revision IS NULL OR sp.revision IS NULL OR EXCLUDED.revision >= sp.revision))
		   OR (sp.device <> EXCLUDED.device
		       AND (sp.device = '' OR sp.saved_at <= now() - make_interval(secs => ?)))
		RETURNING saved_at, expires_at`

// savedFields are the saved fields after the attempt id, in upsertProgress's
// column order (answers to revision).
func savedFields(p *Progress) []any {
	return []any{p.Answers, p.CurrentIdx, p.Mode, p.Voice, p.TimeLeft, p.StartedAt, p.TotalTime, p.Device, p.Revision}
}

// Progress is a row of attempts.saved_progress.
type Progress struct {
	AttemptID  int64 `gorm:"primaryKey"`
	UserID     int64
	QuizID     int64
	Answers    AnswerMap `gorm:"type:jsonb"`
	CurrentIdx int
	Mode       *string
	Voice      *string
	TimeLeft   *float64
	StartedAt  *time.Time
	TotalTime  *float64
	Device     string
	Revision   *int64
	SavedAt    time.Time
	ExpiresAt  time.Time
}

// TableName places the row in the module's schema.
func (Progress) TableName() string { return "attempts.saved_progress" }

// SaveProgress upserts the progress of an attempt in one statement,
// under the row lock ON CONFLICT takes, so racing saves are decided against
// the newest committed row. The save is applied when there is no row, the
// row has expired, the row is the same device's and the save is not older
// than it (by revision), or the row is another device's whose lock has
// lapsed (a device of ” holds no lock). It reports whether it applied,
// and fills p.SavedAt and p.ExpiresAt when it did.
func (s *Store) SaveProgress(ctx context.Context, p *Progress, lock, ttl time.Duration) (bool, error) {
	args := append([]any{p.UserID, p.QuizID, p.AttemptID}, savedFields(p)...)
	q := fmt.Sprintf(upsertProgress, `VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, now(), now() + make_interval(secs => ?))`)
	return s.saved(ctx, p, q, append(args, ttl.Seconds(), lock.Seconds())...)
}

// saved runs a save statement answering (saved_at, expires_at) in at most
// one row, scanned into explicit targets; it reports whether the save was
// applied (a row with times) and fills p's times when it was.
func (s *Store) saved(ctx context.Context, p *Progress, query string, args ...any) (bool, error) {
	tx := s.db.Conn(ctx).Raw(query, args...)
	rows, err := tx.Rows()
	if err != nil {
		return false, err
	}
	defer rows.Close()
	var savedAt, expiresAt *time.Time
	if rows.Next() {
		if err := rows.Scan(&savedAt, &expiresAt); err != nil {
			return false, tx.AddError(err)
		}
	}
	if err := rows.Err(); err != nil {
		return false, tx.AddError(err)
	}
	if savedAt == nil || expiresAt == nil {
		return false, nil
	}
	p.SavedAt, p.ExpiresAt = *savedAt, *expiresAt
	return true, nil
}

// LatestProgress loads the learner's most recently saved progress for a
// quiz (expired or not).
func (s *Store) LatestProgress(ctx context.Context, userID, quizID int64) (*Progress, error) {
	var p Progress
	err := s.db.Conn(ctx).Where("user_id = ? AND quiz_id = ?", userID, quizID).
		Order("saved_at DESC, attempt_id DESC").Take(&p).Error
	if err != nil {
		return nil, err
	}
	return &p, nil
}

// ProgressOfAttempt loads the saved progress pointing at an attempt under
// lock (db.ForUpdate when the caller is about to submit the attempt or
// delete the progress).
func (s *Store) ProgressOfAttempt(ctx context.Context, userID, attemptID int64, lock db.Lock) (*Progress, error) {
	return ownedRow[Progress](ctx, s, "attempt_id", attemptID, userID, lock)
}

// DeleteProgressOfAttempt removes the saved progress pointing at an attempt.
func (s *Store) DeleteProgressOfAttempt(ctx context.Context, attemptID int64) error {
	return s.db.Conn(ctx).Exec(`DELETE FROM attempts.saved_progress WHERE attempt_id = ?`, attemptID).Error
}

// DeleteProgress removes a learner's saved progress for every attempt of a
// quiz.
func (s *Store) DeleteProgress(ctx context.Context, userID, quizID int64) error {
	return s.db.Conn(ctx).Exec(`DELETE FROM attempts.saved_progress WHERE user_id = ? AND quiz_id = ?`,
		userID, quizID).Error
}

// DeleteExpiredProgress removes the learner's expired progress for a quiz.
func (s *Store) DeleteExpiredProgress(ctx context.Context, userID, quizID int64) error {
	return s.db.Conn(ctx).Exec(`DELETE FROM attempts.saved_progress
		WHERE user_id = ? AND quiz_id = ? AND expires_at <= now()`, userID, quizID).Error
}

// PurgeExpiredProgress removes up to limit expired rows, reporting how many.
func (s *Store) PurgeExpiredProgress(ctx context.Context, limit int) (int64, error) {
	res := s.db.Conn(ctx).Exec(`DELETE FROM attempts.saved_progress WHERE attempt_id IN (
		SELECT attempt_id FROM attempts.saved_progress WHERE expires_at <= now() LIMIT ?)`, limit)
	return res.RowsAffected, res.Error
}

// SaveIfFits is the whole common autosave in one statement (no explicit
// transaction, one round trip): it key-share locks the learner's attempt
// (so a submit waits for it), checks the attempt is of the quiz, incomplete,
// within its time plus grace and holds every answered question, and then
// upserts under the same rules as SaveProgress. It reports whether it
// saved; when it did not, the caller works out why on the slow path.
func (s *Store) SaveIfFits(ctx context.Context, p *Progress, questionIDs []int64, grace, lock, ttl time.Duration) (bool, error) {
	args := []any{p.AttemptID, p.UserID, p.QuizID, grace.Seconds(), db.IDArray(questionIDs), len(questionIDs),
		p.UserID, p.QuizID}
	args = append(append(args, savedFields(p)...), ttl.Seconds(), lock.Seconds())
	return s.saved(ctx, p, `WITH a AS (
		  SELECT id FROM attempts.attempts
		  WHERE id = ? AND user_id = ? AND quiz_id = ? AND completed_at IS NULL
		    AND (deadline_at IS NULL OR deadline_at >= now() - make_interval(secs => ?))
		  FOR KEY SHARE
		), fits AS (
		  SELECT id FROM a WHERE (SELECT count(*) FROM attempts.answers
		    WHERE attempt_id = a.id AND question_id = ANY(CAST(? AS bigint[]))) = ?
		), up AS (`+fmt.Sprintf(upsertProgress, `SELECT ?, ?, fits.id, ?, ?, ?, ?, ?, ?, ?, ?, ?, now(),
		  now() + make_interval(secs => ?) FROM fits`)+`
		)
		SELECT up.saved_at, up.expires_at FROM (SELECT 1) AS one LEFT JOIN up ON true`, args...)
}
