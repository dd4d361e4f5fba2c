package settings

import (
	"context"
	"net/http"

	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

type handlers struct {
	reg *Registry
}

// Routes declares GET and PUT /admin/settings (admin only).
func (r *Registry) Routes(router *httpapi.Router) {
	h := &handlers{reg: r}
	const tag = "admin"
	httpapi.Register(router, auth.Admin, httpapi.Op(http.MethodGet, "/admin/settings", tag,
		"Site settings: embedding model (read-only), rerank model, and every key a module declares", 0), h.all)
	httpapi.Register(router, auth.Admin, httpapi.Op(http.MethodGet, "/admin/settings/schema", tag,
		"Every setting as a form shows it: its label, what its values do (what 0 or blank means), how to edit it, its bounds, and why it is locked if it is",
		0), h.schema)
	httpapi.Register(router, auth.Admin, httpapi.Op(http.MethodPut, "/admin/settings", tag,
		"Write some settings (keys left out keep their values); changing embedding_model is refused", 0,
		http.StatusBadRequest), h.put)
}

// valuesOut is every key's value in force, by key.
type valuesOut struct{ Body map[string]any }

func (h *handlers) all(ctx context.Context, _ *struct{}) (*valuesOut, error) {
	all, err := h.reg.All(ctx)
	if err != nil {
		return nil, err
	}
	return &valuesOut{all}, nil
}

type schemaOut struct{ Body []SettingDescription }

func (h *handlers) schema(ctx context.Context, _ *struct{}) (*schemaOut, error) {
	d, err := h.reg.Describe(ctx)
	if err != nil {
		return nil, err
	}
	return &schemaOut{d}, nil
}

// putIn is the keys to write and their new values.
type putIn struct{ Body map[string]any }

func (h *handlers) put(ctx context.Context, in *putIn) (*valuesOut, error) {
	all, err := h.reg.Put(ctx, auth.MustFrom(ctx).UserID, in.Body)
	if err != nil {
		return nil, err
	}
	return &valuesOut{all}, nil
}
