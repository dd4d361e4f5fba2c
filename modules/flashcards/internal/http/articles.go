package http

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/modules/flashcards/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
)

// DeckArticleResponse is a deck's link to a library article.
type DeckArticleResponse struct {
	ArticleID int64     `json:"article_id"`
	IsSource  bool      `json:"is_source" doc:"exactly one link of a deck is its source"`
	CreatedAt time.Time `json:"created_at"`
}

type deckArticlesOut struct{ Body []DeckArticleResponse }

func deckArticles(ls []app.DeckArticle, err error) (*deckArticlesOut, error) {
	if err != nil {
		return nil, err
	}
	return &deckArticlesOut{Body: toDeckArticles(ls)}, nil
}

func toDeckArticles(ls []app.DeckArticle) []DeckArticleResponse {
	out := make([]DeckArticleResponse, len(ls))
	for i, l := range ls {
		out[i] = DeckArticleResponse{ArticleID: l.ArticleID, IsSource: l.IsSource, CreatedAt: l.CreatedAt}
	}
	return out
}

// DeckArticlePath names a deck's link to an article.
type DeckArticlePath struct {
	DeckPath
	ArticleID int64 `path:"article_id" minimum:"1"`
}

// LinkDeckArticleInput links a deck to an article.
type LinkDeckArticleInput struct {
	DeckArticlePath
	Source bool `query:"source" doc:"flag this link as the deck's source (the flag leaves the link that held it)"`
}

func (h *handlers) deckArticles(ctx context.Context, in *DeckPath) (*deckArticlesOut, error) {
	return deckArticles(h.svc.DeckArticles(ctx, auth.MustFrom(ctx), in.DeckID))
}

func (h *handlers) linkDeckArticle(ctx context.Context, in *LinkDeckArticleInput) (*deckArticlesOut, error) {
	return deckArticles(h.svc.LinkDeckArticle(ctx, auth.MustFrom(ctx), in.DeckID, in.ArticleID, in.Source))
}

func (h *handlers) unlinkDeckArticle(ctx context.Context, in *DeckArticlePath) (*deckArticlesOut, error) {
	return deckArticles(h.svc.UnlinkDeckArticle(ctx, auth.MustFrom(ctx), in.DeckID, in.ArticleID))
}
