package store

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/platform/db"
)

// OwnAnswer is one of a learner's answers: from a completed attempt
// (Correct as scored, Seconds the sitting's time per question) or from the
// saved progress of an attempt not yet submitted (Running; Correct nil,
// and the question as sat, so the service can score a study attempt's).
type OwnAnswer struct {
	QuestionID    int64
	Mode          string
	Answer        *string
	Correct       *bool
	Running       bool
	Seconds       *float64
	At            time.Time
	QuestionType  string
	CorrectAnswer string
}

// ownAnswers reads both kinds, each part cut at the limit before they are
// merged: completed attempts newest first along the learner's index, and
// the saved answers of their unsubmitted attempts whose progress has not
// expired (what a submit would score). @all ignores @ids.
const ownAnswers = `SELECT * FROM (
	(SELECT an.question_id, a.mode, an.user_answer AS answer, an.is_correct AS correct, false AS running,
		EXTRACT(EPOCH FROM a.completed_at - a.started_at) / a.total_questions AS seconds, a.completed_at AS at,
		'' AS question_type, '' AS correct_answer
	FROM attempts.attempts a JOIN attempts.answers an ON an.attempt_id = a.id
	WHERE a.user_id = @user AND a.completed_at IS NOT NULL AND (@all OR an.question_id = ANY(CAST(@ids AS bigint[])))
	ORDER BY a.started_at DESC, a.id DESC, an.position LIMIT @limit)
	UNION ALL
	(SELECT an.question_id, a.mode, s.value, NULL, true, NULL, p.saved_at, q.question_type, q.correct_answer
	FROM attempts.attempts a
	JOIN attempts.saved_progress p ON p.attempt_id = a.id AND p.expires_at > @now
	CROSS JOIN LATERAL jsonb_each_text(p.answers) s
	JOIN attempts.answers an ON an.attempt_id = a.id AND CAST(an.question_id AS text) = s.key
	JOIN attempts.sat_questions q ON q.id = an.sat_question_id
	WHERE a.user_id = @user AND a.completed_at IS NULL AND (@all OR an.question_id = ANY(CAST(@ids AS bigint[])))
	ORDER BY p.saved_at DESC, an.position LIMIT @limit)
) mine ORDER BY at DESC LIMIT @limit`

// OwnAnswers lists the learner's latest answers to the questions among
// ids (all questions when ids is nil), newest first, at most limit.
func (s *Store) OwnAnswers(ctx context.Context, userID int64, ids []int64, limit int, now time.Time) ([]OwnAnswer, error) {
	var out []OwnAnswer
	err := s.db.Conn(ctx).Raw(ownAnswers, map[string]any{"user": userID, "all": ids == nil, "ids": db.IDArray(ids),
		"limit": limit, "now": now}).Scan(&out).Error
	return out, err
}

// TimedOpen lists the questions among ids that sit in one of the
// learner's timed attempts not yet submitted: their answer side is closed
// to the learner until then.
func (s *Store) TimedOpen(ctx context.Context, userID int64, ids []int64) (map[int64]bool, error) {
	var rows []int64
	err := s.db.Conn(ctx).Raw(`SELECT DISTINCT an.question_id FROM attempts.attempts a
		JOIN attempts.answers an ON an.attempt_id = a.id
		WHERE a.user_id = ? AND a.completed_at IS NULL AND a.mode = 'timed' AND an.question_id = ANY(CAST(? AS bigint[]))`,
		userID, db.IDArray(ids)).Scan(&rows).Error
	out := make(map[int64]bool, len(rows))
	for _, id := range rows {
		out[id] = true
	}
	return out, err
}
