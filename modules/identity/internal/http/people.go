package http

import (
	"context"

	"github.com/roundsedu/rounds/modules/identity/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
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

func (h *Handlers) users(ctx context.Context, in *usersInput) (*usersOutput, error) {
	users, n, err := h.svc.ListUsers(ctx, in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	return &usersOutput{Total: total(n), Body: toUserResponses(users)}, nil
}

func (h *Handlers) createUser(ctx context.Context, in *adminCreateUserInput) (*userOutput, error) {
	return userOf(h.svc.CreateUser(ctx, in.Body.Email, in.Body.Name))
}

func (h *Handlers) adminSetRole(ctx context.Context, in *adminRoleInput) (*userOutput, error) {
	return userOf(h.svc.SetRole(ctx, app.RoleChange{Actor: auth.MustFrom(ctx), Target: in.UserID,
		Role: auth.Role(in.Body.Role), AdminRoute: true}))
}

func (h *Handlers) unthrottle(ctx context.Context, in *adminUnthrottleInput) (*userOutput, error) {
	return userOf(h.svc.SetUnthrottled(ctx, in.UserID, in.Body.Unthrottled))
}

func (h *Handlers) deleteUser(ctx context.Context, in *UserPath) (*struct{}, error) {
	return nil, h.svc.DeleteUser(ctx, auth.MustFrom(ctx), in.UserID)
}
