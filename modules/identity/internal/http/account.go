package http

import (
	"context"
	nethttp "net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
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

func (h *Handlers) registerAccount(r *httpapi.Router) {
	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodGet, Path: "/auth/me", Tags: tags("auth"), Summary: "Your account",
	}, func(ctx context.Context, _ *struct{}) (*userOutput, error) {
		u, err := h.svc.Me(ctx, auth.MustFrom(ctx).UserID)
		if err != nil {
			return nil, err
		}
		return &userOutput{toUserResponse(u)}, nil
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodPut, Path: "/auth/me", Tags: tags("auth"),
		Summary: "Change your name (the only field you can change)",
	}, func(ctx context.Context, in *meRenameInput) (*userOutput, error) {
		u, err := h.svc.Rename(ctx, auth.MustFrom(ctx).UserID, in.Body.Name)
		if err != nil {
			return nil, err
		}
		return &userOutput{toUserResponse(u)}, nil
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodGet, Path: "/auth/me/settings", Tags: tags("auth"),
		Summary: "Your settings; reminders_disabled comes from durable storage and wins",
	}, func(ctx context.Context, _ *struct{}) (*struct{ Body map[string]any }, error) {
		s, err := h.svc.Settings(ctx, auth.MustFrom(ctx).UserID)
		if err != nil {
			return nil, err
		}
		return &struct{ Body map[string]any }{s}, nil
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodPut, Path: "/auth/me/settings", Tags: tags("auth"),
		Summary: "Replace your settings (any JSON object, up to 64 KiB)",
		Description: "reminders_disabled (boolean) is stored durably and left unchanged when absent; " +
			"every other key replaces the stored object.",
		MaxBodyBytes: settingsMaxBytes,
	}, func(ctx context.Context, in *meSettingsInput) (*settingsSavedOutput, error) {
		if err := h.svc.SaveSettings(ctx, auth.MustFrom(ctx).UserID, in.Body); err != nil {
			return nil, err
		}
		out := &settingsSavedOutput{}
		out.Body.Saved = true
		return out, nil
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodGet, Path: "/auth/me/grants", Tags: tags("auth"),
		Summary: "The editorial grants you hold",
	}, func(ctx context.Context, _ *struct{}) (*struct{ Body []GrantResponse }, error) {
		gs, err := h.svc.Grants(ctx, auth.MustFrom(ctx).UserID)
		if err != nil {
			return nil, err
		}
		return &struct{ Body []GrantResponse }{toGrantResponses(gs)}, nil
	})
}
