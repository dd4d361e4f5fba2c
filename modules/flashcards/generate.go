package flashcards

import (
	"context"

	"github.com/roundsedu/rounds/modules/flashcards/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
)

// ArticleDeck names the article generated cards come from, and the title
// and category of the deck made for them when none is linked to it yet.
type ArticleDeck struct {
	ArticleID  int64
	Title      string
	CategoryID *int64
}

// ArticleCards is what writing generated cards did.
type ArticleCards = app.ArticleCards

// ArticleCards writes cards made from an article (the library's
// generate_article_cards) into the deck linked to it, or a new deck linked
// to it as its source, in one transaction; each card goes through the
// rules of a card written by hand, and one they refuse is listed by its
// index with the reason.
func (m *Module) ArticleCards(ctx context.Context, p auth.Principal, a ArticleDeck, cards []ImportedCard) (*ArticleCards, error) {
	in := make([]app.NewCard, len(cards))
	for i, c := range cards {
		in[i] = app.NewCard{Type: c.Type, Front: c.Front, Back: c.Back}
	}
	return m.svc.WriteArticleCards(ctx, p, a.ArticleID, a.Title, a.CategoryID, in)
}
