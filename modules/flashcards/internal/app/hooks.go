package app

import "context"

// CardExists reports whether a card exists (in any deck, binned or not).
func (s *Service) CardExists(ctx context.Context, id int64) (bool, error) {
	var ok bool
	err := s.db.Conn(ctx).Raw(`SELECT EXISTS (SELECT 1 FROM flashcards.cards WHERE id = ?)`, id).Scan(&ok).Error
	return ok, err
}

// DeckExists reports whether a deck exists and is not in the bin.
func (s *Service) DeckExists(ctx context.Context, id int64) (bool, error) {
	var ok bool
	err := s.db.Conn(ctx).Raw(`SELECT EXISTS (SELECT 1 FROM flashcards.decks WHERE id = ? AND deleted_at IS NULL)`, id).Scan(&ok).Error
	return ok, err
}
