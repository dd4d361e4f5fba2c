// Package http is the share module's HTTP surface: making, listing and
// revoking links (signed in), and opening one (anyone with the token).
package http

import (
	"context"
	nethttp "net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/modules/share/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

// LinkResponse is a link as its maker reads it.
type LinkResponse struct {
	ID          int64      `json:"id"`
	Kind        string     `json:"kind"`
	TargetID    int64      `json:"target_id"`
	Title       string     `json:"title" doc:"the target's title when the link was made"`
	WithAnswers bool       `json:"with_answers"`
	Status      string     `json:"status" enum:"active,expired,revoked"`
	ExpiresAt   time.Time  `json:"expires_at"`
	RevokedAt   *time.Time `json:"revoked_at"`
	Views       int64      `json:"views"`
	CreatedAt   time.Time  `json:"created_at"`
}

func toResponse(svc *app.Service, l *app.Link) LinkResponse {
	return LinkResponse{ID: l.ID, Kind: l.Kind, TargetID: l.TargetID, Title: l.Title, WithAnswers: l.WithAnswers,
		Status: svc.Status(l), ExpiresAt: l.ExpiresAt, RevokedAt: l.RevokedAt, Views: l.Views, CreatedAt: l.CreatedAt}
}

type createdOut struct {
	Body struct {
		LinkResponse
		Token string `json:"token" doc:"open it at GET /share/open/{token}; not shown again"`
	}
}

type openedOut struct {
	CacheControl string `header:"Cache-Control"`
	Body         struct {
		Kind        string    `json:"kind"`
		TargetID    int64     `json:"target_id"`
		WithAnswers bool      `json:"with_answers"`
		ExpiresAt   time.Time `json:"expires_at"`
		Content     any       `json:"content" doc:"the shared thing as its module shows it to visitors"`
	}
}

// Register adds the share operations.
func Register(r *httpapi.Router, svc *app.Service) {
	tags := []string{"share"}
	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodPost, Path: "/share/links", Tags: tags, DefaultStatus: nethttp.StatusCreated,
		Summary:     "Make a read-only link to a published thing; the token is shown only in this answer",
		Description: "kind: quiz, deck or article. with_answers shows correct answers and explanations to visitors; for a timed quiz only a moderator may choose it.",
		Errors:      []int{nethttp.StatusForbidden, nethttp.StatusNotFound, nethttp.StatusConflict, nethttp.StatusTooManyRequests},
	}, func(ctx context.Context, in *struct {
		Body struct {
			Kind          string `json:"kind" minLength:"1" maxLength:"40"`
			TargetID      int64  `json:"target_id" minimum:"1"`
			WithAnswers   bool   `json:"with_answers,omitempty" required:"false"`
			ExpiresInDays int    `json:"expires_in_days,omitempty" required:"false" minimum:"0" doc:"0 or absent: the configured default"`
		}
	}) (*createdOut, error) {
		b := in.Body
		l, token, err := svc.Create(ctx, auth.MustFrom(ctx), app.NewLink{Kind: b.Kind, TargetID: b.TargetID,
			WithAnswers: b.WithAnswers, Days: b.ExpiresInDays})
		if err != nil {
			return nil, err
		}
		out := &createdOut{}
		out.Body.LinkResponse, out.Body.Token = toResponse(svc, l), token
		return out, nil
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodGet, Path: "/share/links", Tags: tags,
		Summary: "Your share links, newest first",
	}, func(ctx context.Context, in *struct{ httpapi.Page }) (*httpapi.Listing[LinkResponse], error) {
		ls, total, err := svc.Mine(ctx, auth.MustFrom(ctx), in.Limit, in.Offset)
		if err != nil {
			return nil, err
		}
		return httpapi.ListOf(ls, total, func(l *app.Link) LinkResponse { return toResponse(svc, l) }), nil
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodDelete, Path: "/share/links/{link_id}", Tags: tags, DefaultStatus: nethttp.StatusNoContent,
		Summary: "Revoke a link (yours; moderators any); it stops opening at once",
		Errors:  []int{nethttp.StatusNotFound},
	}, func(ctx context.Context, in *struct {
		ID int64 `path:"link_id" minimum:"1"`
	}) (*struct{}, error) {
		return nil, svc.Revoke(ctx, auth.MustFrom(ctx), in.ID)
	})

	httpapi.Register(r, auth.Public, huma.Operation{
		Method: nethttp.MethodGet, Path: "/share/open/{token}", Tags: tags,
		Summary: "What a share link shows, read-only, without signing in",
		Errors:  []int{nethttp.StatusNotFound, nethttp.StatusGone, nethttp.StatusTooManyRequests},
	}, func(ctx context.Context, in *struct {
		Token string `path:"token" minLength:"1" maxLength:"64"`
	}) (*openedOut, error) {
		o, err := svc.Open(ctx, in.Token, httpapi.ClientAddress(ctx))
		if err != nil {
			return nil, err
		}
		out := &openedOut{CacheControl: "private, no-store"}
		out.Body.Kind, out.Body.TargetID, out.Body.WithAnswers = o.Link.Kind, o.Link.TargetID, o.Link.WithAnswers
		out.Body.ExpiresAt, out.Body.Content = o.Link.ExpiresAt, o.View
		return out, nil
	})
}
