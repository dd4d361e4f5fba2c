package http

import (
	"context"
	nethttp "net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/modules/flashcards/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
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
	out := &deckArticlesOut{Body: make([]DeckArticleResponse, len(ls))}
	for i, l := range ls {
		out.Body[i] = DeckArticleResponse{ArticleID: l.ArticleID, IsSource: l.IsSource, CreatedAt: l.CreatedAt}
	}
	return out, nil
}

// DeckArticlePath names a deck's link to an article.
type DeckArticlePath struct {
	DeckPath
	ArticleID int64 `path:"article_id" minimum:"1"`
}

func registerArticles(r *httpapi.Router, svc *app.Service) {
	tags := []string{"flashcards"}
	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodGet, Path: "/flashcards/{deck_id}/articles", Tags: tags,
		Summary: "The library articles a deck's cards came from, its source first (anyone who may study it)",
		Errors:  []int{nethttp.StatusNotFound},
	}, func(ctx context.Context, in *DeckPath) (*deckArticlesOut, error) {
		return deckArticles(svc.DeckArticles(ctx, auth.MustFrom(ctx), in.DeckID))
	})

	// Like the card links, deck links check the moderator role itself.
	httpapi.Register(r, auth.Mod, huma.Operation{
		Method: nethttp.MethodPut, Path: "/flashcards/{deck_id}/articles/{article_id}", Tags: tags,
		Summary: "Link a deck to an article (moderators); its first link, or one sent with source=true, is its source",
		Errors:  []int{nethttp.StatusNotFound},
	}, func(ctx context.Context, in *struct {
		DeckArticlePath
		Source bool `query:"source" doc:"flag this link as the deck's source (the flag leaves the link that held it)"`
	}) (*deckArticlesOut, error) {
		return deckArticles(svc.LinkDeckArticle(ctx, auth.MustFrom(ctx), in.DeckID, in.ArticleID, in.Source))
	})

	httpapi.Register(r, auth.Mod, huma.Operation{
		Method: nethttp.MethodDelete, Path: "/flashcards/{deck_id}/articles/{article_id}", Tags: tags,
		Summary: "Unlink a deck from an article (moderators); unlinking the source passes the flag to the oldest link left",
		Errors:  []int{nethttp.StatusNotFound},
	}, func(ctx context.Context, in *DeckArticlePath) (*deckArticlesOut, error) {
		return deckArticles(svc.UnlinkDeckArticle(ctx, auth.MustFrom(ctx), in.DeckID, in.ArticleID))
	})
}
