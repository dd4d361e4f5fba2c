package http

import (
	"context"

	"github.com/roundsedu/rounds/modules/identity/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
)

type accessRoleInput struct {
	UserPath
	Body struct {
		Role string `json:"role" enum:"user,moderator" doc:"a moderator cannot make an administrator"`
	}
}

type giveGrantInput struct {
	UserPath
	Body struct {
		Kind     string `json:"kind" enum:"category,deck,quiz,article"`
		TargetID int64  `json:"target_id" minimum:"1" doc:"the category, deck, quiz or article id"`
		Scope    string `json:"scope,omitempty" enum:"deck,category" doc:"deck grants only: one deck, or a category branch of decks"`
	}
}

type grantPath struct {
	UserPath
	GrantID int64 `path:"grant_id" minimum:"1"`
}

type grantOut struct{ Body GrantResponse }

func (h *Handlers) accessSetRole(ctx context.Context, in *accessRoleInput) (*userOutput, error) {
	return userOf(h.svc.SetRole(ctx, app.RoleChange{Actor: auth.MustFrom(ctx), Target: in.UserID,
		Role: auth.Role(in.Body.Role)}))
}

func (h *Handlers) grantsOf(ctx context.Context, in *UserPath) (*grantsOut, error) {
	gs, err := h.svc.GrantsOfExisting(ctx, in.UserID)
	if err != nil {
		return nil, err
	}
	return &grantsOut{toGrantResponses(gs)}, nil
}

func (h *Handlers) giveGrant(ctx context.Context, in *giveGrantInput) (*grantOut, error) {
	g, err := h.svc.Give(ctx, app.NewGrant{Actor: auth.MustFrom(ctx), UserID: in.UserID,
		Kind: in.Body.Kind, TargetID: in.Body.TargetID, Scope: in.Body.Scope})
	if err != nil {
		return nil, err
	}
	return &grantOut{toGrantResponse(g)}, nil
}

func (h *Handlers) revokeGrant(ctx context.Context, in *grantPath) (*struct{}, error) {
	return nil, h.svc.Revoke(ctx, in.UserID, in.GrantID)
}
