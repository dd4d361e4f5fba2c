package store

import (
	"context"
	"time"
)

// ScorePoint is one completed attempt's score (the score-over-time chart).
type ScorePoint struct {
	AttemptID   int64
	QuizID      int64
	QuizTitle   string
	Mode        string
	CompletedAt time.Time
	Percentage  float64
}

// ScorePoints gives the learner's latest limit attempts completed since
// since, oldest first.
func (s *Store) ScorePoints(ctx context.Context, userID int64, since time.Time, limit int) ([]ScorePoint, error) {
	var out []ScorePoint
	err := s.db.Conn(ctx).Raw(`SELECT * FROM (
		  SELECT id AS attempt_id, quiz_id, quiz_title, mode, completed_at, percentage
		  FROM attempts.attempts WHERE user_id = ? AND completed_at >= ?
		  ORDER BY completed_at DESC, id DESC LIMIT ?) latest
		ORDER BY completed_at, attempt_id`, userID, since, limit).Scan(&out).Error
	return out, err
}

// DayCount is what a learner sat on one UTC day, by the day each attempt
// was completed.
type DayCount struct {
	Day      time.Time
	Answered int // questions sat (a blank counts, as wrong: the dashboard's questions_answered)
	Correct  int
}

// DayCounts gives the questions sat and answered right per UTC day in the
// learner's attempts completed since since (a UTC midnight), oldest day
// first; days with nothing are left out. It reads the learner's day
// tallies (tallies.go), a row a day.
func (s *Store) DayCounts(ctx context.Context, userID int64, since time.Time) ([]DayCount, error) {
	var out []DayCount
	err := s.db.Conn(ctx).Raw(`SELECT day, answered, correct FROM attempts.day_tallies
		WHERE user_id = ? AND day >= (?::timestamptz AT TIME ZONE 'UTC')::date ORDER BY day`, userID, since).Scan(&out).Error
	return out, err
}

// Pace is one timed attempt's seconds per question beside the cohort's
// median on the same quiz.
type Pace struct {
	AttemptID                int64
	QuizID                   int64
	QuizTitle                string
	CompletedAt              time.Time
	SecondsPerQuestion       float64
	CohortSecondsPerQuestion *float64 // nil below minCohort attempts
	CohortAttempts           int
}

// secondsPerQuestion is an attempt's time per question: from start to
// submission, or to the deadline for one the sweep submitted late.
const secondsPerQuestion = `extract(epoch FROM least(completed_at, coalesce(deadline_at, completed_at)) - started_at) / total_questions`

// Paces gives the learner's latest limit timed attempts completed since
// since, oldest first, each with the median time per question of every
// other learner's completed timed attempts of that quiz when there are at
// least minCohort of them (fewer would come close to naming a person). The
// cohort is read quiz by quiz (a lateral join on attempts_quiz_timed_done_idx):
// an IN over the learner's quizzes is misjudged and scans every attempt.
func (s *Store) Paces(ctx context.Context, userID int64, since time.Time, limit, minCohort int) ([]Pace, error) {
	var out []Pace
	err := s.db.Conn(ctx).Raw(`WITH mine AS (
		  SELECT id, quiz_id, quiz_title, completed_at, `+secondsPerQuestion+` AS spq
		  FROM attempts.attempts WHERE user_id = ? AND mode = 'timed' AND completed_at >= ?
		  ORDER BY completed_at DESC, id DESC LIMIT ?),
		cohort AS (
		  SELECT q.quiz_id, c.median, c.n FROM (SELECT DISTINCT quiz_id FROM mine) q
		  CROSS JOIN LATERAL (
		    SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY `+secondsPerQuestion+`) AS median, count(*) AS n
		    FROM attempts.attempts o
		    WHERE o.quiz_id = q.quiz_id AND o.mode = 'timed' AND o.completed_at IS NOT NULL AND o.user_id <> ?) c)
		SELECT m.id AS attempt_id, m.quiz_id, m.quiz_title, m.completed_at, m.spq AS seconds_per_question,
		  CASE WHEN c.n >= ? THEN c.median END AS cohort_seconds_per_question, coalesce(c.n, 0) AS cohort_attempts
		FROM mine m LEFT JOIN cohort c USING (quiz_id)
		ORDER BY m.completed_at, m.id`, userID, since, limit, userID, minCohort).Scan(&out).Error
	return out, err
}
