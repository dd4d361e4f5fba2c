package store

import "context"

// ArticleDeck is the live deck linked to an article that generated cards
// go to: the one whose source it is first, else the oldest link; nil when
// none.
func (s *Store) ArticleDeck(ctx context.Context, articleID int64) (*int64, error) {
	var ids []int64
	err := s.db.Conn(ctx).Raw(`SELECT da.deck_id FROM flashcards.deck_articles da
		JOIN flashcards.decks d ON d.id = da.deck_id AND d.deleted_at IS NULL
		WHERE da.article_id = ? ORDER BY da.is_source DESC, da.created_at, da.deck_id LIMIT 1`, articleID).Scan(&ids).Error
	if err != nil || len(ids) == 0 {
		return nil, err
	}
	return &ids[0], nil
}
