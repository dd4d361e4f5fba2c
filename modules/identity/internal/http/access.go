package http

import (
	"context"
	nethttp "net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/modules/identity/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
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

func (h *Handlers) registerAccess(r *httpapi.Router) {
	httpapi.Register(r, auth.Mod, huma.Operation{
		Method: nethttp.MethodPut, Path: "/access/{user_id}/role", Tags: tags("access"),
		Summary: "Make someone a learner or a moderator (409 while provider role mapping is on)",
		Errors:  []int{nethttp.StatusBadRequest, nethttp.StatusNotFound, nethttp.StatusConflict},
	}, func(ctx context.Context, in *accessRoleInput) (*userOutput, error) {
		u, err := h.svc.SetRole(ctx, app.RoleChange{Actor: auth.MustFrom(ctx), Target: in.UserID,
			Role: auth.Role(in.Body.Role)})
		if err != nil {
			return nil, err
		}
		return &userOutput{toUserResponse(u)}, nil
	})

	httpapi.Register(r, auth.Mod, huma.Operation{
		Method: nethttp.MethodGet, Path: "/access/{user_id}/grants", Tags: tags("access"),
		Summary: "Someone's editorial grants",
		Errors:  []int{nethttp.StatusNotFound},
	}, func(ctx context.Context, in *UserPath) (*struct{ Body []GrantResponse }, error) {
		gs, err := h.svc.GrantsOfExisting(ctx, in.UserID)
		if err != nil {
			return nil, err
		}
		return &struct{ Body []GrantResponse }{toGrantResponses(gs)}, nil
	})

	httpapi.Register(r, auth.Mod, huma.Operation{
		Method: nethttp.MethodPost, Path: "/access/{user_id}/grants", Tags: tags("access"),
		Summary: "Give a learner an editorial grant (edit only; never to yourself)",
		Description: "Kinds: category (questions and articles under a category branch), deck (one deck, or a " +
			"category branch of decks), quiz (every question of one quiz), article (one article and its figures).",
		DefaultStatus: nethttp.StatusCreated,
		Errors:        []int{nethttp.StatusBadRequest, nethttp.StatusNotFound, nethttp.StatusConflict},
	}, func(ctx context.Context, in *giveGrantInput) (*struct{ Body GrantResponse }, error) {
		g, err := h.svc.Give(ctx, app.NewGrant{Actor: auth.MustFrom(ctx), UserID: in.UserID,
			Kind: in.Body.Kind, TargetID: in.Body.TargetID, Scope: in.Body.Scope})
		if err != nil {
			return nil, err
		}
		return &struct{ Body GrantResponse }{toGrantResponse(g)}, nil
	})

	httpapi.Register(r, auth.Mod, huma.Operation{
		Method: nethttp.MethodDelete, Path: "/access/{user_id}/grants/{grant_id}", Tags: tags("access"),
		Summary:       "Revoke an editorial grant",
		DefaultStatus: nethttp.StatusNoContent, Errors: []int{nethttp.StatusNotFound},
	}, func(ctx context.Context, in *grantPath) (*struct{}, error) {
		return nil, h.svc.Revoke(ctx, in.UserID, in.GrantID)
	})
}
