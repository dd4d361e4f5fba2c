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
// lock). A save without flags (NULL) keeps the stored ones, unless they
// expired with the rest. Positional parameters: gorm's named ones re-parse
// the statement on every save, the hottest write.
const upsertProgress = `INSERT INTO attempts.saved_progress AS sp
		  (user_id, quiz_id, attempt_id, answers, current_idx, mode, voice, time_left, started_at, total_time,
		   device, revision, flagged, saved_at, expires_at)
		%s
		ON CONFLICT (attempt_id) DO UPDATE SET
		  answers = EXCLUDED.answers, current_idx = EXCLUDED.current_idx,
		  mode = EXCLUDED.mode, voice = EXCLUDED.voice, time_left = EXCLUDED.time_left,
		  started_at = EXCLUDED.started_at, total_time = EXCLUDED.total_time, device = EXCLUDED.device,
		  revision = EXCLUDED.revision, saved_at = EXCLUDED.saved_at, expires_at = EXCLUDED.expires_at,
		  flagged = CASE WHEN EXCLUDED.flagged IS NOT NULL OR sp.expires_at <= now() THEN EXCLUDED.flagged
		                 ELSE sp.flagged END
		WHERE sp.expires_at <= now()
		   OR (sp.device = EXCLUDED.device
		       AND (EXCLUDED.revision IS NULL OR sp.revision IS NULL OR EXCLUDED.revision >= sp.revision))
		   OR (sp.device <> EXCLUDED.device
		       AND (sp.device = '' OR sp.saved_at <= now() - make_interval(secs => ?)))
		RETURNING sp.attempt_id, sp.saved_at, sp.expires_at`

// savedFields are the saved fields after the attempt id, in upsertProgress's
// column order (answers to flagged).
func savedFields(p *Progress) []any {
	return []any{p.Answers, p.CurrentIdx, p.Mode, p.Voice, p.TimeLeft, p.StartedAt, p.TotalTime, p.Device, p.Revision,
		flaggedParam(p.Flagged)}
}

// flaggedParam is the flags as the statement takes them: NULL when the save
// sent none (the stored ones stay), else a JSON array.
func flaggedParam(ids db.JSONList[int64]) any {
	if ids == nil {
		return nil
	}
	return ids
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
	// Flagged are the questions the learner flagged, ascending; nil in a
	// save keeps the stored ones (and reads as none when none were sent).
	Flagged   db.JSONList[int64] `gorm:"type:jsonb"`
	SavedAt   time.Time
	ExpiresAt time.Time
}

// TableName places the row in the module's schema.
func (Progress) TableName() string { return "attempts.saved_progress" }

var saveProgress = fmt.Sprintf(upsertProgress,
	`VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, now(), now() + make_interval(secs => ?))`)

// SaveProgress upserts the progress of an attempt in one statement,
// under the row lock ON CONFLICT takes, so racing saves are decided against
// the newest committed row. The save is applied when there is no row, the
// row has expired, the row is the same device's and the save is not older
// than it (by revision), or the row is another device's whose lock has
// lapsed (a device of ” holds no lock). It reports whether it applied,
// and fills p.SavedAt and p.ExpiresAt when it did.
func (s *Store) SaveProgress(ctx context.Context, p *Progress, lock, ttl time.Duration) (bool, error) {
	args := append([]any{p.UserID, p.QuizID, p.AttemptID}, savedFields(p)...)
	return s.saved(ctx, p, saveProgress, append(args, ttl.Seconds(), lock.Seconds())...)
}

// saved runs a save statement answering (attempt_id, saved_at, expires_at)
// in at most one row, scanned into explicit targets; it reports whether
// the save was applied (a row) and fills p's times when it was.
func (s *Store) saved(ctx context.Context, p *Progress, query string, args ...any) (bool, error) {
	tx := s.db.Conn(ctx).Raw(query, args...)
	rows, err := tx.Rows()
	if err != nil {
		return false, err
	}
	defer rows.Close()
	var id int64
	applied := rows.Next()
	if applied {
		if err := rows.Scan(&id, &p.SavedAt, &p.ExpiresAt); err != nil {
			return false, tx.AddError(err)
		}
	}
	return applied, tx.AddError(rows.Err())
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

// FitSave is one autosave for SaveManyIfFits: the row to store. Applied is
// its outcome: set (with the row's times) when it was stored.
type FitSave struct {
	Progress *Progress
	// AnswersJSON, when given, stands for the answers (Progress.Answers is
	// then nil): a JSON object whose keys are in jsonb's order (shorter
	// first, then bytewise), which the statement takes as it is.
	AnswersJSON string
	Applied     bool
}

// saveManyIfFits is SaveManyIfFits' statement, built once. started_at
// travels as microseconds since the epoch (fitbatch.go) and is added as
// whole seconds plus microseconds: interval arithmetic goes through
// float8, exact for either part, not for all the microseconds of a date
// far from 1970 (year 0 lost a few). Each save's attempt is found by an
// index probe and locked in attempt order: a LATERAL subquery with its own
// row lock is never flattened into a join, so the plan cannot turn into a
// hash join over the whole attempts table, which is what the prepared
// statement's generic plan did as a join (it guesses 100 saves a batch):
// 0.54 against 0.15 ms for a batch of 9 over 200 attempts.
var saveManyIfFits = `WITH input AS (
		  SELECT * FROM jsonb_to_recordset(CAST(? AS jsonb)) AS i(attempt_id bigint, user_id bigint, quiz_id bigint,
		    answers jsonb, current_idx int, mode text, voice text, time_left float8,
		    started_at bigint, total_time float8, device text, revision bigint, flagged jsonb)
		), a AS (
		  SELECT i.* FROM (SELECT * FROM input ORDER BY attempt_id) i
		  CROSS JOIN LATERAL (
		    SELECT FROM attempts.attempts t
		    WHERE t.id = i.attempt_id AND t.user_id = i.user_id AND t.quiz_id = i.quiz_id
		      AND t.completed_at IS NULL
		      AND (t.deadline_at IS NULL OR t.deadline_at >= now() - make_interval(secs => ?))
		    FOR KEY SHARE
		  ) t
		)
		` + fmt.Sprintf(upsertProgress, `SELECT user_id, quiz_id, attempt_id, answers, current_idx,
		  mode, voice, time_left,
		  timestamptz 'epoch' + started_at / 1000000 * interval '1 second' + started_at % 1000000 * interval '1 microsecond',
		  total_time,
		  device, revision, flagged, now(), now() + make_interval(secs => ?)
		  FROM a ORDER BY attempt_id`)

// SaveManyIfFits is the common autosave of many learners in one statement
// (one round trip, no explicit transaction), each save judged on its own:
// it key-share locks each learner's attempt (so a submit waits for it),
// checks the attempt is the learner's, of the quiz, incomplete and within
// its time plus grace, and upserts under the same rules as SaveProgress.
// The saves must name distinct attempts, and the caller has checked that
// each one's answers name questions of its attempt (an attempt's questions
// never change, so the caller can know without asking). It marks which
// saves it stored; the caller works out why for the others on the slow
// path.
func (s *Store) SaveManyIfFits(ctx context.Context, saves []*FitSave, grace, lock, ttl time.Duration) error {
	byAttempt := make(map[int64]*FitSave, len(saves))
	for _, f := range saves {
		byAttempt[f.Progress.AttemptID] = f
	}
	batch, err := fitBatch(saves)
	if err != nil {
		return err
	}
	tx := s.db.Conn(ctx).Raw(saveManyIfFits, batch, grace.Seconds(), ttl.Seconds(), lock.Seconds())
	rows, err := tx.Rows()
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var savedAt, expiresAt time.Time
		if err := rows.Scan(&id, &savedAt, &expiresAt); err != nil {
			return tx.AddError(err)
		}
		if f := byAttempt[id]; f != nil {
			f.Applied, f.Progress.SavedAt, f.Progress.ExpiresAt = true, savedAt, expiresAt
		}
	}
	return tx.AddError(rows.Err())
}
