package store

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/platform/db"
)

// A learner's statistics and history: every read here may be answered by
// a read replica (db.Replica), which shows the learner their own writes.

// Summary is a learner's attempt totals.
type Summary struct {
	Attempts          int
	Completed         int
	InProgress        int
	AveragePercentage *float64
	BestPercentage    *float64
	QuestionsAnswered int
	CorrectAnswers    int
}

// Summary counts a learner's attempts and, over completed ones, the
// average and best percentage and the questions sat and got right: the
// completed ones from the learner's day tallies, the best and the ones in
// progress from partial indexes (attempts_user_best_idx, _open_idx).
func (s *Store) Summary(ctx context.Context, userID int64) (Summary, error) {
	var out Summary
	err := s.db.Replica(ctx).Raw(`SELECT d.completed + o.n AS attempts, d.completed, o.n AS in_progress,
		  (d.percentage_sum / nullif(d.completed, 0))::float8 AS average_percentage,
		  (SELECT percentage FROM attempts.attempts WHERE user_id = ? AND completed_at IS NOT NULL
		   ORDER BY percentage DESC LIMIT 1) AS best_percentage,
		  d.answered AS questions_answered, d.correct AS correct_answers
		FROM (SELECT coalesce(sum(completed), 0) AS completed, coalesce(sum(answered), 0) AS answered,
		    coalesce(sum(correct), 0) AS correct, sum(percentage_sum) AS percentage_sum
		  FROM attempts.day_tallies WHERE user_id = ?) d,
		  (SELECT count(*) AS n FROM attempts.attempts WHERE user_id = ? AND completed_at IS NULL) o`,
		userID, userID, userID).Scan(&out).Error
	return out, err
}

// Tally is how often a learner sat one question in completed attempts and
// how often they got it right.
type Tally struct {
	QuestionID int64
	Seen       int
	Correct    int
}

// QuestionTallies tallies every question the learner sat in completed
// attempts (their running tally, tallies.go).
func (s *Store) QuestionTallies(ctx context.Context, userID int64) ([]Tally, error) {
	var out []Tally
	err := s.db.Replica(ctx).Raw(`SELECT question_id, seen, correct FROM attempts.question_tallies
		WHERE user_id = ?`, userID).Scan(&out).Error
	return out, err
}

// ActiveDays lists the UTC days on which the learner completed an attempt,
// newest first.
func (s *Store) ActiveDays(ctx context.Context, userID int64) ([]time.Time, error) {
	var out []time.Time
	err := s.db.Replica(ctx).Raw(`SELECT day::timestamp AS day FROM attempts.day_tallies
		WHERE user_id = ? ORDER BY day DESC`, userID).Scan(&out).Error
	return out, err
}

// QuizHistory is a learner's record on one quiz.
type QuizHistory struct {
	QuizID            int64
	QuizTitle         string
	Attempts          int
	Completed         int
	BestPercentage    *float64
	AveragePercentage *float64
	LastStartedAt     time.Time
}

// History summarises the learner's attempts per quiz, most recently sat
// quiz first. The title is the one of the latest attempt.
func (s *Store) History(ctx context.Context, userID int64, limit, offset int) ([]QuizHistory, error) {
	var out []QuizHistory
	err := s.db.Replica(ctx).Raw(`SELECT quiz_id,
		  (array_agg(quiz_title ORDER BY started_at DESC, id DESC))[1] AS quiz_title,
		  count(*) AS attempts, count(*) FILTER (WHERE completed_at IS NOT NULL) AS completed,
		  max(percentage) AS best_percentage, avg(percentage) AS average_percentage,
		  max(started_at) AS last_started_at
		FROM attempts.attempts WHERE user_id = ?
		GROUP BY quiz_id ORDER BY last_started_at DESC, quiz_id LIMIT ? OFFSET ?`, userID, limit, offset).
		Scan(&out).Error
	return out, err
}

// RecentOfQuizzes lists, for each quiz, the learner's perQuiz most recent
// attempts (newest first), in one query.
func (s *Store) RecentOfQuizzes(ctx context.Context, userID int64, quizIDs []int64, perQuiz int) ([]Attempt, error) {
	var out []Attempt
	if len(quizIDs) == 0 {
		return out, nil
	}
	err := s.db.Replica(ctx).Raw(`SELECT a.* FROM unnest(?::bigint[]) AS z(quiz_id)
		CROSS JOIN LATERAL (SELECT * FROM attempts.attempts t
		  WHERE t.user_id = ? AND t.quiz_id = z.quiz_id ORDER BY t.started_at DESC, t.id DESC LIMIT ?) a
		ORDER BY a.quiz_id, a.started_at DESC, a.id DESC`, db.IDArray(quizIDs), userID, perQuiz).Scan(&out).Error
	return out, err
}
