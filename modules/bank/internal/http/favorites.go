package http

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/platform/auth"
)

// FavoriteBody is a favourite.
type FavoriteBody struct {
	ID         int64     `json:"id"`
	UserID     int64     `json:"user_id"`
	QuestionID int64     `json:"question_id"`
	CreatedAt  time.Time `json:"created_at"`
}

type addFavoriteInput struct {
	Body struct {
		QuestionID int64 `json:"question_id" minimum:"1"`
	}
}

type favoriteOutput struct{ Body FavoriteBody }

type favoriteQuestionInput struct {
	QuestionID int64 `path:"question_id" minimum:"1"`
}

type favoritesOutput struct{ Body []int64 }

func (h *handlers) addFavorite(ctx context.Context, in *addFavoriteInput) (*favoriteOutput, error) {
	f, err := h.svc.AddFavorite(ctx, auth.MustFrom(ctx), in.Body.QuestionID)
	if err != nil {
		return nil, err
	}
	return &favoriteOutput{Body: FavoriteBody(*f)}, nil
}

func (h *handlers) removeFavorite(ctx context.Context, in *favoriteQuestionInput) (*struct{}, error) {
	return nil, h.svc.RemoveFavorite(ctx, auth.MustFrom(ctx), in.QuestionID)
}

func (h *handlers) favorites(ctx context.Context, _ *struct{}) (*favoritesOutput, error) {
	ids, err := h.svc.Favorites(ctx, auth.MustFrom(ctx))
	if err != nil {
		return nil, err
	}
	return &favoritesOutput{Body: ids}, nil
}
