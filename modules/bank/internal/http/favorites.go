package http

import (
	"context"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/modules/bank/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
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

func registerFavorites(r *httpapi.Router, s *app.Service) {
	tags := []string{"favorites"}
	httpapi.Register(r, auth.User, huma.Operation{Method: http.MethodPost, Path: "/favorites", Tags: tags,
		DefaultStatus: http.StatusCreated, Summary: "Mark a question as a favourite (idempotent)",
		Errors: []int{http.StatusNotFound}},
		func(ctx context.Context, in *addFavoriteInput) (*favoriteOutput, error) {
			f, err := s.AddFavorite(ctx, auth.MustFrom(ctx), in.Body.QuestionID)
			if err != nil {
				return nil, err
			}
			return &favoriteOutput{Body: FavoriteBody(*f)}, nil
		})

	httpapi.Register(r, auth.User, huma.Operation{Method: http.MethodDelete, Path: "/favorites/{question_id}", Tags: tags,
		DefaultStatus: http.StatusNoContent, Summary: "Unmark a favourite (idempotent)"},
		func(ctx context.Context, in *favoriteQuestionInput) (*struct{}, error) {
			return nil, s.RemoveFavorite(ctx, auth.MustFrom(ctx), in.QuestionID)
		})

	httpapi.Register(r, auth.User, huma.Operation{Method: http.MethodGet, Path: "/favorites", Tags: tags,
		Summary: "The caller's favourite question ids, newest first"},
		func(ctx context.Context, _ *struct{}) (*favoritesOutput, error) {
			ids, err := s.Favorites(ctx, auth.MustFrom(ctx))
			if err != nil {
				return nil, err
			}
			return &favoritesOutput{Body: ids}, nil
		})
}
