package http

import (
	"context"
	nethttp "net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/modules/identity/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

type usersInput struct {
	Page
}

type usersOutput struct {
	Total string `header:"X-Total-Count"`
	Body  []UserResponse
}

type adminCreateUserInput struct {
	Body struct {
		Email    string `json:"email" format:"email" maxLength:"320"`
		Name     string `json:"name" minLength:"1" maxLength:"200"`
		Password string `json:"password,omitempty" maxLength:"1024" doc:"accepted for older clients and ignored: sign-in is only through SSO"`
	}
}

type adminRoleInput struct {
	UserPath
	Body struct {
		Role string `json:"role" enum:"admin,moderator,user"`
	}
}

type adminUnthrottleInput struct {
	UserPath
	Body struct {
		Unthrottled bool `json:"unthrottled"`
	}
}

func (h *Handlers) registerPeople(r *httpapi.Router) {
	httpapi.Register(r, auth.Admin, huma.Operation{
		Method: nethttp.MethodGet, Path: "/admin/users", Tags: tags("admin"),
		Summary: "Every account, in id order (X-Total-Count carries the total)",
	}, func(ctx context.Context, in *usersInput) (*usersOutput, error) {
		users, n, err := h.svc.ListUsers(ctx, in.Limit, in.Offset)
		if err != nil {
			return nil, err
		}
		out := &usersOutput{Total: total(n), Body: make([]UserResponse, len(users))}
		for i, u := range users {
			out.Body[i] = toUserResponse(u)
		}
		return out, nil
	})

	httpapi.Register(r, auth.Admin, huma.Operation{
		Method: nethttp.MethodPost, Path: "/admin/users", Tags: tags("admin"),
		Summary:       "Create an account ahead of its first sign-in (email taken as verified)",
		DefaultStatus: nethttp.StatusCreated, Errors: []int{nethttp.StatusConflict},
	}, func(ctx context.Context, in *adminCreateUserInput) (*userOutput, error) {
		u, err := h.svc.CreateUser(ctx, in.Body.Email, in.Body.Name)
		if err != nil {
			return nil, err
		}
		return &userOutput{toUserResponse(u)}, nil
	})

	httpapi.Register(r, auth.Admin, huma.Operation{
		Method: nethttp.MethodPut, Path: "/admin/users/{user_id}/role", Tags: tags("admin"),
		Summary: "Set someone's role (400 for your own; 409 while provider role mapping is on)",
		Errors:  []int{nethttp.StatusBadRequest, nethttp.StatusNotFound, nethttp.StatusConflict},
	}, func(ctx context.Context, in *adminRoleInput) (*userOutput, error) {
		u, err := h.svc.SetRole(ctx, app.RoleChange{Actor: auth.MustFrom(ctx), Target: in.UserID,
			Role: auth.Role(in.Body.Role), AdminRoute: true})
		if err != nil {
			return nil, err
		}
		return &userOutput{toUserResponse(u)}, nil
	})

	httpapi.Register(r, auth.Admin, huma.Operation{
		Method: nethttp.MethodPut, Path: "/admin/users/{user_id}/unthrottle", Tags: tags("admin"),
		Summary: "Exempt someone from the AI and speech rate limits, or not",
		Errors:  []int{nethttp.StatusNotFound},
	}, func(ctx context.Context, in *adminUnthrottleInput) (*userOutput, error) {
		u, err := h.svc.SetUnthrottled(ctx, in.UserID, in.Body.Unthrottled)
		if err != nil {
			return nil, err
		}
		return &userOutput{toUserResponse(u)}, nil
	})

	httpapi.Register(r, auth.Admin, huma.Operation{
		Method: nethttp.MethodDelete, Path: "/admin/users/{user_id}", Tags: tags("admin"),
		Summary: "Delete someone's account (400 for your own)",
		Description: "Sessions and grants go with it; other modules remove the person's own data " +
			"(attempts, favourites, notes, collections) when they hear identity.user_deleted.v1.",
		DefaultStatus: nethttp.StatusNoContent,
		Errors:        []int{nethttp.StatusBadRequest, nethttp.StatusNotFound, nethttp.StatusConflict},
	}, func(ctx context.Context, in *UserPath) (*struct{}, error) {
		return nil, h.svc.DeleteUser(ctx, auth.MustFrom(ctx), in.UserID)
	})
}
