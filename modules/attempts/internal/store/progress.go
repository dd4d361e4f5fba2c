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
// (@lock seconds) has lapsed (a device of "" holds no lock).
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
		       AND (sp.device = '' OR sp.saved_at <= now() - make_interval(secs => @lock)))
		RETURNING saved_at, expires_at`

// progressValues are the saved fields as upsertProgress's named parameters.
func progressValues(p *Progress, lock, ttl time.Duration) map[string]any {
	return map[string]any{"user": p.UserID, "quiz": p.QuizID, "attempt": p.AttemptID, "answers": p.Answers,
		"idx": p.CurrentIdx, "mode": p.Mode, "voice": p.Voice, "time_left": p.TimeLeft, "started": p.StartedAt,
		"total": p.TotalTime, "device": p.Device, "revision": p.Revision, "ttl": ttl.Seconds(), "lock": lock.Seconds()}
}

// savedTimes is what a save returns.
type savedTimes struct {
	SavedAt   *time.Time
	ExpiresAt *time.Time
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
	var saved savedTimes
	res := s.db.Conn(ctx).Raw(fmt.Sprintf(upsertProgress, `VALUES (@user, @quiz, @attempt, @answers, @idx, @mode,
		  @voice, @time_left, @started, @total, @device, @revision, now(), now() + make_interval(secs => @ttl))`),
		progressValues(p, lock, ttl)).Scan(&saved)
	if res.Error != nil || saved.SavedAt == nil {
		return false, res.Error
	}
	p.SavedAt, p.ExpiresAt = *saved.SavedAt, *saved.ExpiresAt
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
	args := progressValues(p, lock, ttl)
	args["grace"], args["questions"], args["answered"] = grace.Seconds(), db.IDArray(questionIDs), len(questionIDs)
	var saved savedTimes
	err := s.db.Conn(ctx).Raw(`WITH a AS (
		  SELECT id FROM attempts.attempts
		  WHERE id = @attempt AND user_id = @user AND quiz_id = @quiz AND completed_at IS NULL
		    AND (deadline_at IS NULL OR deadline_at >= now() - make_interval(secs => @grace))
		  FOR KEY SHARE
		), fits AS (
		  SELECT id FROM a WHERE (SELECT count(*) FROM attempts.answers
		    WHERE attempt_id = a.id AND question_id = ANY(CAST(@questions AS bigint[]))) = @answered
		), up AS (`+fmt.Sprintf(upsertProgress, `SELECT @user, @quiz, fits.id, @answers, @idx, @mode, @voice,
		  @time_left, @started, @total, @device, @revision, now(), now() + make_interval(secs => @ttl) FROM fits`)+`
		)
		SELECT up.saved_at, up.expires_at FROM (SELECT 1) AS one LEFT JOIN up ON true`, args).Scan(&saved).Error
	if err != nil || saved.SavedAt == nil {
		return false, err
	}
	p.SavedAt, p.ExpiresAt = *saved.SavedAt, *saved.ExpiresAt
	return true, nil
}
