package store

import (
	"context"
	"time"
)

// DeckArticle is a row of flashcards.deck_articles.
type DeckArticle struct {
	DeckID    int64
	ArticleID int64
	IsSource  bool
	CreatedAt time.Time
}

// TableName places the row in the module's schema.
func (DeckArticle) TableName() string { return "flashcards.deck_articles" }

// DeckArticles lists a deck's article links, the source first, then in the
// order made.
func (s *Store) DeckArticles(ctx context.Context, deckID int64) ([]DeckArticle, error) {
	out := []DeckArticle{}
	err := s.db.Conn(ctx).Where("deck_id = ?", deckID).Order("is_source DESC, created_at, article_id").Find(&out).Error
	return out, err
}

// LinkArticle links a deck to an article (again: no change). The deck's
// first link becomes its source; with source the link takes the flag from
// the one holding it. Callers hold the deck's row lock.
func (s *Store) LinkArticle(ctx context.Context, deckID, articleID int64, source bool) error {
	if source {
		if err := s.db.Conn(ctx).Exec(`UPDATE flashcards.deck_articles SET is_source = false
			WHERE deck_id = ? AND is_source AND article_id <> ?`, deckID, articleID).Error; err != nil {
			return err
		}
	}
	return s.db.Conn(ctx).Exec(`INSERT INTO flashcards.deck_articles (deck_id, article_id, is_source)
		VALUES (?, ?, ? OR NOT EXISTS (SELECT 1 FROM flashcards.deck_articles WHERE deck_id = ?))
		ON CONFLICT (deck_id, article_id) DO UPDATE SET is_source = flashcards.deck_articles.is_source OR excluded.is_source`,
		deckID, articleID, source, deckID).Error
}

// UnlinkArticle removes a deck's link to an article; when it was the
// source, the oldest remaining link becomes the source. It reports whether
// there was a link. Callers hold the deck's row lock.
func (s *Store) UnlinkArticle(ctx context.Context, deckID, articleID int64) (bool, error) {
	var gone []DeckArticle
	err := s.db.Conn(ctx).Raw(`DELETE FROM flashcards.deck_articles WHERE deck_id = ? AND article_id = ? RETURNING *`,
		deckID, articleID).Scan(&gone).Error
	if err != nil || len(gone) == 0 || !gone[0].IsSource {
		return len(gone) > 0, err
	}
	return true, s.db.Conn(ctx).Exec(`UPDATE flashcards.deck_articles SET is_source = true
		WHERE (deck_id, article_id) = (SELECT deck_id, article_id FROM flashcards.deck_articles
			WHERE deck_id = ? ORDER BY created_at, article_id LIMIT 1)`, deckID).Error
}
