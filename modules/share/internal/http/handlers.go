package http

import (
	"context"
	"time"

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

// CreateLinkInput asks for a link to a published thing.
type CreateLinkInput struct {
	Body struct {
		Kind          string `json:"kind" minLength:"1" maxLength:"40"`
		TargetID      int64  `json:"target_id" minimum:"1"`
		WithAnswers   bool   `json:"with_answers,omitempty" required:"false"`
		ExpiresInDays int    `json:"expires_in_days,omitempty" required:"false" minimum:"0" doc:"0 or absent: the configured default"`
	} `nameHint:"Post-share-linksRequest"`
}

// LinkPath names one link.
type LinkPath struct {
	ID int64 `path:"link_id" minimum:"1"`
}

// TokenPath is a link's token.
type TokenPath struct {
	Token string `path:"token" minLength:"1" maxLength:"64"`
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

func (h *handlers) toLink(l *app.Link) LinkResponse {
	return LinkResponse{ID: l.ID, Kind: l.Kind, TargetID: l.TargetID, Title: l.Title, WithAnswers: l.WithAnswers,
		Status: h.svc.Status(l), ExpiresAt: l.ExpiresAt, RevokedAt: l.RevokedAt, Views: l.Views, CreatedAt: l.CreatedAt}
}

func toOpened(o *app.Opened) *openedOut {
	out := &openedOut{CacheControl: "private, no-store"}
	out.Body.Kind, out.Body.TargetID, out.Body.WithAnswers = o.Link.Kind, o.Link.TargetID, o.Link.WithAnswers
	out.Body.ExpiresAt, out.Body.Content = o.Link.ExpiresAt, o.View
	return out
}

func (h *handlers) createLink(ctx context.Context, in *CreateLinkInput) (*createdOut, error) {
	b := in.Body
	l, token, err := h.svc.Create(ctx, auth.MustFrom(ctx), app.NewLink{Kind: b.Kind, TargetID: b.TargetID,
		WithAnswers: b.WithAnswers, Days: b.ExpiresInDays})
	if err != nil {
		return nil, err
	}
	out := &createdOut{}
	out.Body.LinkResponse, out.Body.Token = h.toLink(l), token
	return out, nil
}

func (h *handlers) myLinks(ctx context.Context, in *httpapi.Page) (*httpapi.Listing[LinkResponse], error) {
	ls, total, err := h.svc.Mine(ctx, auth.MustFrom(ctx), in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	return httpapi.ListOf(ls, total, h.toLink), nil
}

func (h *handlers) revoke(ctx context.Context, in *LinkPath) (*struct{}, error) {
	return nil, h.svc.Revoke(ctx, auth.MustFrom(ctx), in.ID)
}

func (h *handlers) open(ctx context.Context, in *TokenPath) (*openedOut, error) {
	o, err := h.svc.Open(ctx, in.Token, httpapi.ClientAddress(ctx))
	if err != nil {
		return nil, err
	}
	return toOpened(o), nil
}
