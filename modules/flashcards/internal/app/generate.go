package app

import (
	"context"

	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
)

// ArticleCards is what writing generated cards did: the deck (made when
// new), the card rows stored and, by the card's index, why a card was
// refused.
type ArticleCards struct {
	DeckID  int64
	Created bool
	Rows    int
	Refused map[int]string
}

// WriteArticleCards writes cards made from an article into the deck linked
// to it (its source deck first), or into a new deck titled title under
// categoryID linked to the article as its source, in one transaction. Each
// card goes through the rules of a card written by hand; one they refuse
// is listed and skipped. p must be able to edit the deck (and, for a new
// one, start decks: moderators).
func (s *Service) WriteArticleCards(ctx context.Context, p auth.Principal, articleID int64, title string,
	categoryID *int64, cards []NewCard) (*ArticleCards, error) {
	out := &ArticleCards{Refused: map[int]string{}}
	err := s.db.Tx(ctx, func(ctx context.Context) error {
		linked, err := s.store.ArticleDeck(ctx, articleID)
		if err != nil {
			return err
		}
		if linked != nil {
			if _, err := s.editable(ctx, p, *linked, db.ForUpdate); err != nil {
				return err
			}
			out.DeckID = *linked
		} else {
			if !p.IsModerator() {
				return apperr.Forbiddenf("only moderators start decks")
			}
			if categoryID == nil {
				return apperr.Invalidf("category_id", "the article has no category, and a new deck needs one")
			}
			d := &Deck{UserID: p.UserID}
			if err := (DeckInput{Title: &title, CategoryID: categoryID}).apply(d); err != nil {
				return err
			}
			if err := s.ports.Bank.CheckCategory(ctx, "body.category_id", *categoryID); err != nil {
				return err
			}
			if err := s.store.InsertDeck(ctx, d); err != nil {
				return err
			}
			if err := s.store.LinkArticle(ctx, d.ID, articleID, true); err != nil {
				return err
			}
			out.DeckID, out.Created = d.ID, true
		}
		for i, c := range cards {
			rows, err := s.rows(ctx, p, out.DeckID, c)
			if ae, ok := apperr.As(err); ok && ae.Code == apperr.Invalid {
				out.Refused[i] = ae.Message // refused before any statement: the transaction goes on
				continue
			}
			if err != nil {
				return err
			}
			if err := s.store.InsertCards(ctx, rows); err != nil {
				return err
			}
			out.Rows += len(rows)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
