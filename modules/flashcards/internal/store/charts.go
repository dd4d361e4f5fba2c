package store

import (
	"context"
	"strconv"
	"strings"
	"time"
)

// DueDay is how many of a learner's started cards fall due on one UTC day,
// by the state they are in.
type DueDay struct {
	Day      time.Time
	New      int // a state row not reviewed yet (a review in flight)
	Learning int // learning and relearning
	Review   int
}

// DueDays counts the learner's started cards in the decks within reach due
// on each UTC day from today (overdue ones count today) up to, not
// including, until, by state.
func (s *Store) DueDays(ctx context.Context, userID int64, r Reach, today, until time.Time) ([]DueDay, error) {
	where, args := r.visible(`WHERE s.user_id = ? AND s.due < ?`)
	var out []DueDay
	err := s.db.Conn(ctx).Raw(`SELECT greatest(date_trunc('day', s.due, 'UTC'), ?) AS day,
		  count(*) FILTER (WHERE s.state = 0) AS new,
		  count(*) FILTER (WHERE s.state IN (1, 3)) AS learning,
		  count(*) FILTER (WHERE s.state = 2) AS review
		FROM flashcards.card_states s JOIN flashcards.decks d ON d.id = s.deck_id
		`+where+` GROUP BY 1 ORDER BY 1`, append([]any{today, userID, until}, args...)...).Scan(&out).Error
	return out, err
}

// Unseen counts the cards within reach the learner has never reviewed.
func (s *Store) Unseen(ctx context.Context, userID int64, r Reach) (int, error) {
	where, args := r.visible(`WHERE NOT EXISTS (SELECT 1 FROM flashcards.card_states s
		WHERE s.user_id = ? AND s.card_id = c.id)`)
	var n int
	err := s.db.Conn(ctx).Raw(`SELECT count(*) FROM flashcards.cards c JOIN flashcards.decks d ON d.id = c.deck_id `+where,
		append([]any{userID}, args...)...).Scan(&n).Error
	return n, err
}

// Bucket is one bucket of a spread: its index among the bounds (0 below
// the first) and its counts.
type Bucket struct {
	Bucket int
	N      int // reviews or cards
	Passed int // reviews not rated again (retention only)
}

// bounds writes lower bounds as a float8[] literal for width_bucket.
func bounds(b []float64) string {
	parts := make([]string, len(b))
	for i, v := range b {
		parts[i] = strconv.FormatFloat(v, 'f', -1, 64)
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// RetentionByInterval counts the learner's reviews of cards in review
// (not learning or relearning, as Anki's true retention does) by the days
// since the card's previous review, bucketed at the lower bounds given,
// and those not rated again.
func (s *Store) RetentionByInterval(ctx context.Context, userID int64, lower []float64) ([]Bucket, error) {
	var out []Bucket
	err := s.db.Conn(ctx).Raw(`SELECT width_bucket(elapsed_days, CAST(? AS float8[])) AS bucket,
		  count(*) AS n, count(*) FILTER (WHERE rating > 1) AS passed
		FROM flashcards.review_logs WHERE user_id = ? AND state = 2 GROUP BY 1 ORDER BY 1`,
		bounds(lower), userID).Scan(&out).Error
	return out, err
}

// StabilitySpread counts the learner's reviewed cards within reach by FSRS
// stability (days), bucketed at the lower bounds given.
func (s *Store) StabilitySpread(ctx context.Context, userID int64, r Reach, lower []float64) ([]Bucket, error) {
	where, args := r.visible(`WHERE s.user_id = ? AND s.state > 0`)
	var out []Bucket
	err := s.db.Conn(ctx).Raw(`SELECT width_bucket(s.stability, CAST(? AS float8[])) AS bucket, count(*) AS n
		FROM flashcards.card_states s JOIN flashcards.decks d ON d.id = s.deck_id
		`+where+` GROUP BY 1 ORDER BY 1`, append([]any{bounds(lower), userID}, args...)...).Scan(&out).Error
	return out, err
}
