package store

import (
	"context"
	"time"
)

// Reviews reads a learner's reviews of a deck's cards, by card then time.
func (s *Store) Reviews(ctx context.Context, userID, deckID int64) ([]ReviewLog, error) {
	var logs []ReviewLog
	err := s.db.Conn(ctx).Where("user_id = ? AND deck_id = ?", userID, deckID).
		Order("card_id, reviewed_at, id").Find(&logs).Error
	return logs, err
}

// InsertSchedules stores states and reviews brought from another program
// (for cards that have none yet), in batches.
func (s *Store) InsertSchedules(ctx context.Context, states []State, logs []ReviewLog) error {
	const batch = 500
	if len(states) > 0 {
		if err := s.db.Conn(ctx).CreateInBatches(states, batch).Error; err != nil {
			return err
		}
	}
	if len(logs) > 0 {
		return s.db.Conn(ctx).Omit("ID").CreateInBatches(logs, batch).Error
	}
	return nil
}

// CardsAfter reads up to limit of a deck's cards with ids above after, by
// id (the export's pages: a key, not an offset, so each page costs the same).
func (s *Store) CardsAfter(ctx context.Context, deckID, after int64, limit int) ([]Card, error) {
	var out []Card
	err := s.db.Conn(ctx).Where("deck_id = ? AND id > ?", deckID, after).Order("id").Limit(limit).Find(&out).Error
	return out, err
}

// SchedulesOf reads a learner's states and reviews of some cards, reviews
// by card then time.
func (s *Store) SchedulesOf(ctx context.Context, userID int64, cardIDs []int64) ([]State, []ReviewLog, error) {
	var states []State
	if err := s.db.Conn(ctx).Where("user_id = ? AND card_id IN ?", userID, cardIDs).Find(&states).Error; err != nil {
		return nil, nil, err
	}
	var logs []ReviewLog
	err := s.db.Conn(ctx).Where("user_id = ? AND card_id IN ?", userID, cardIDs).
		Order("card_id, reviewed_at, id").Find(&logs).Error
	return states, logs, err
}

// EarliestSchedule is the earliest time a learner's schedules of a deck
// hold (a due date, a last review, a review), nil when they hold none.
func (s *Store) EarliestSchedule(ctx context.Context, userID, deckID int64) (*time.Time, error) {
	var row struct{ Earliest *time.Time }
	err := s.db.Conn(ctx).Raw(`SELECT least(
		(SELECT min(least(due, coalesce(last_review, due))) FROM flashcards.card_states WHERE user_id = ? AND deck_id = ?),
		(SELECT min(reviewed_at) FROM flashcards.review_logs WHERE user_id = ? AND deck_id = ?)) AS earliest`,
		userID, deckID, userID, deckID).Scan(&row).Error
	return row.Earliest, err
}
