package store

import "context"

// Counted and Uncounted keep a learner's running tallies
// (attempts.question_tallies and day_tallies) equal to what their completed
// attempts add up to: the caller runs them in the transaction that
// completes an attempt, or deletes a completed one (under its row lock,
// before the delete).
//
// Both are one additive upsert per table, so two transactions of one
// learner add up instead of overwriting each other; each takes its row
// locks in one order (questions by id, then the day), so two of them
// never wait on each other in a circle. Rows left at nothing go, so a
// tally names only what the learner's attempts still hold.

// Counted adds a completed attempt to its learner's tallies.
func (s *Store) Counted(ctx context.Context, attemptID int64) error {
	return s.tally(ctx, attemptID, 1)
}

// Uncounted takes a completed attempt out of its learner's tallies (an
// incomplete one was never counted: nothing changes).
func (s *Store) Uncounted(ctx context.Context, attemptID int64) error {
	return s.tally(ctx, attemptID, -1)
}

func (s *Store) tally(ctx context.Context, attemptID int64, sign int) error {
	conn := s.db.Conn(ctx)
	err := conn.Exec(`INSERT INTO attempts.question_tallies AS t (user_id, question_id, seen, correct)
		SELECT a.user_id, x.question_id, ?, CASE WHEN x.is_correct THEN ? ELSE 0 END
		FROM attempts.attempts a JOIN attempts.answers x ON x.attempt_id = a.id
		WHERE a.id = ? AND a.completed_at IS NOT NULL
		ORDER BY x.question_id
		ON CONFLICT (user_id, question_id) DO UPDATE
		SET seen = t.seen + excluded.seen, correct = t.correct + excluded.correct`, sign, sign, attemptID).Error
	if err == nil {
		err = conn.Exec(`INSERT INTO attempts.day_tallies AS t (user_id, day, completed, answered, correct, percentage_sum)
			SELECT user_id, (completed_at AT TIME ZONE 'UTC')::date, ?, ? * total_questions, ? * score, ? * percentage::numeric
			FROM attempts.attempts WHERE id = ? AND completed_at IS NOT NULL
			ON CONFLICT (user_id, day) DO UPDATE
			SET completed = t.completed + excluded.completed, answered = t.answered + excluded.answered,
			  correct = t.correct + excluded.correct, percentage_sum = t.percentage_sum + excluded.percentage_sum`,
			sign, sign, sign, sign, attemptID).Error
	}
	if err != nil || sign > 0 {
		return err
	}
	err = conn.Exec(`DELETE FROM attempts.question_tallies t USING attempts.attempts a, attempts.answers x
		WHERE a.id = ? AND x.attempt_id = a.id AND t.user_id = a.user_id AND t.question_id = x.question_id
		  AND t.seen = 0`, attemptID).Error
	if err == nil {
		err = conn.Exec(`DELETE FROM attempts.day_tallies t USING attempts.attempts a
			WHERE a.id = ? AND t.user_id = a.user_id AND t.day = (a.completed_at AT TIME ZONE 'UTC')::date
			  AND t.completed = 0`, attemptID).Error
	}
	return err
}
