package store

import "context"

// Schedules reads a learner's states of a deck's cards, in card order, and
// their reviews, by card then time.
func (s *Store) Schedules(ctx context.Context, userID, deckID int64) ([]State, []ReviewLog, error) {
	var states []State
	err := s.db.Conn(ctx).Where("user_id = ? AND deck_id = ?", userID, deckID).Order("card_id").Find(&states).Error
	if err != nil {
		return nil, nil, err
	}
	logs, err := s.Reviews(ctx, userID, deckID)
	return states, logs, err
}

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
