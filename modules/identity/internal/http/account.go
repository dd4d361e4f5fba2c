package http

import (
	"context"
	"fmt"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/modules/identity/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
)

type userOutput struct {
	Body UserResponse
}

type meRenameInput struct {
	Body struct {
		Name string `json:"name" minLength:"1" maxLength:"200"`
	}
}

type meSettingsInput struct {
	Body map[string]any
}

type settingsSavedOutput struct {
	Body struct {
		Saved bool `json:"saved"`
	}
}

// settingsMaxBytes bounds a settings object.
const settingsMaxBytes = 64 << 10

type deleteMeInput struct {
	Body struct {
		Confirm string `json:"confirm" maxLength:"100" doc:"the words \"delete my account\""`
	}
}

type settingsOut struct{ Body map[string]any }

type grantsOut struct{ Body []GrantResponse }

func (h *Handlers) me(ctx context.Context, _ *struct{}) (*userOutput, error) {
	return userOf(h.svc.Me(ctx, auth.MustFrom(ctx).UserID))
}

func (h *Handlers) rename(ctx context.Context, in *meRenameInput) (*userOutput, error) {
	return userOf(h.svc.Rename(ctx, auth.MustFrom(ctx).UserID, in.Body.Name))
}

func (h *Handlers) settings(ctx context.Context, _ *struct{}) (*settingsOut, error) {
	s, err := h.svc.Settings(ctx, auth.MustFrom(ctx).UserID)
	if err != nil {
		return nil, err
	}
	return &settingsOut{s}, nil
}

func (h *Handlers) saveSettings(ctx context.Context, in *meSettingsInput) (*settingsSavedOutput, error) {
	if err := h.svc.SaveSettings(ctx, auth.MustFrom(ctx).UserID, in.Body); err != nil {
		return nil, err
	}
	out := &settingsSavedOutput{}
	out.Body.Saved = true
	return out, nil
}

func (h *Handlers) myGrants(ctx context.Context, _ *struct{}) (*grantsOut, error) {
	gs, err := h.svc.Grants(ctx, auth.MustFrom(ctx).UserID)
	if err != nil {
		return nil, err
	}
	return &grantsOut{toGrantResponses(gs)}, nil
}

func (h *Handlers) export(ctx context.Context, _ *struct{}) (*huma.StreamResponse, error) {
	userID := auth.MustFrom(ctx).UserID
	if err := h.svc.StartExport(ctx, userID); err != nil {
		return nil, err
	}
	return &huma.StreamResponse{Body: func(hc huma.Context) {
		hc.SetHeader("Content-Type", "application/zip")
		hc.SetHeader("Content-Disposition", fmt.Sprintf(`attachment; filename="rounds-export-%d.zip"`, userID))
		hc.SetHeader("Cache-Control", "private, no-store")
		h.svc.WriteExport(hc.Context(), userID, hc.BodyWriter())
	}}, nil
}

func (h *Handlers) deleteMe(ctx context.Context, in *deleteMeInput) (*struct{}, error) {
	return nil, h.svc.DeleteMe(ctx, auth.MustFrom(ctx).UserID, in.Body.Confirm)
}

// userOf answers a service call that returns the account it read or changed.
func userOf(u app.User, err error) (*userOutput, error) {
	if err != nil {
		return nil, err
	}
	return &userOutput{toUserResponse(u)}, nil
}
