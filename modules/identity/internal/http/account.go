package http

import (
	"context"
	"fmt"
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

type deleteMeInput struct {
	Body struct {
		Confirm string `json:"confirm" maxLength:"100" doc:"the words \"delete my account\""`
	}
}

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

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodGet, Path: "/auth/me/export", Tags: tags("auth"),
		Summary: "Download everything you own (a zip of JSON files)",
		Description: "One folder per module: identity (account and settings, sessions, grants), attempts " +
			"(attempts with their answers as sat, saved progress, reminders, folders, collections, notes), " +
			"bank (favourites, saved tests), flashcards (card states, review log, settings, exam dates), " +
			"plans, feedback, library, share and ai as you have data there. Streamed as it is read; " +
			"5 per hour. An archive cut short has no zip directory.",
		Errors: []int{nethttp.StatusTooManyRequests},
		Responses: map[string]*huma.Response{"200": {Description: "a zip archive",
			Content: map[string]*huma.MediaType{"application/zip": {Schema: &huma.Schema{Type: "string", Format: "binary"}}}}},
	}, func(ctx context.Context, _ *struct{}) (*huma.StreamResponse, error) {
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
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodDelete, Path: "/auth/me", Tags: tags("auth"),
		Summary: "Delete your account and everything you own",
		Description: "Body {\"confirm\": \"delete my account\"} (422 otherwise). Your sessions end at once; " +
			"every module removes what you owned when it hears identity.user_deleted.v1, as for an " +
			"administrator's deletion. The last administrator cannot (409).",
		DefaultStatus: nethttp.StatusNoContent,
		Errors:        []int{nethttp.StatusConflict},
	}, func(ctx context.Context, in *deleteMeInput) (*struct{}, error) {
		return nil, h.svc.DeleteMe(ctx, auth.MustFrom(ctx).UserID, in.Body.Confirm)
	})
}
