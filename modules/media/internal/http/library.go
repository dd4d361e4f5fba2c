package http

import (
	"context"
	"strconv"
	"time"

	"github.com/roundsedu/rounds/modules/media/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

type listOut struct {
	Total string `header:"X-Total-Count"`
	Body  []AssetResponse
}

// MetaBody is an asset's editable metadata (PATCH sends it whole).
type MetaBody struct {
	Title      string  `json:"title,omitempty" maxLength:"2000"`
	Caption    string  `json:"caption" maxLength:"2000"`
	Credit     string  `json:"credit,omitempty" maxLength:"2000"`
	SourceURL  string  `json:"source_url,omitempty" maxLength:"2000"`
	License    string  `json:"license,omitempty" maxLength:"2000"`
	Modality   *string `json:"modality,omitempty"`
	LibraryID  *int64  `json:"library_id,omitempty"`
	CategoryID *int64  `json:"category_id,omitempty"`
}

func (b MetaBody) meta() app.Meta {
	return app.Meta{Title: b.Title, Caption: b.Caption, Source: b.Credit, SourceURL: b.SourceURL, License: b.License,
		Modality: b.Modality, LibraryID: b.LibraryID, CategoryID: b.CategoryID}
}

// ListInput filters the media library.
type ListInput struct {
	httpapi.Page
	Q          string             `query:"q" maxLength:"200" doc:"matches title, caption and credit"`
	Kind       string             `query:"kind" enum:"image,video,"`
	Modality   string             `query:"modality" maxLength:"40"`
	LibraryID  httpapi.OptionalID `query:"library_id"`
	CategoryID httpapi.OptionalID `query:"category_id"`
	Binned     bool               `query:"binned" doc:"list the bin instead"`
}

// AssetPath names one asset.
type AssetPath struct {
	ID int64 `path:"asset_id"`
}

// PatchMetaInput replaces an asset's metadata.
type PatchMetaInput struct {
	ID   int64 `path:"asset_id"`
	Body MetaBody
}

// OverlayInput replaces an image's overlay shapes.
type OverlayInput struct {
	ID   int64 `path:"asset_id"`
	Body struct {
		Shapes []app.Shape `json:"shapes" maxItems:"200"`
	} `nameHint:"Put-media-by-asset-id-overlayRequest"`
}

// UnlinkInput takes an asset off an article.
type UnlinkInput struct {
	ID   int64 `path:"asset_id"`
	Body struct {
		ArticleID int64 `json:"article_id" minimum:"1"`
	} `nameHint:"Post-media-by-asset-id-unlinkRequest"`
}

type libraryBody struct {
	ID        int64     `json:"id"`
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"created_at"`
}

// CreateLibraryInput names a new image library.
type CreateLibraryInput struct {
	Body struct {
		Name string `json:"name" maxLength:"200"`
	} `nameHint:"Post-media-librariesRequest"`
}

type librariesOut struct{ Body []libraryBody }

type libraryOut struct{ Body libraryBody }

func toLibrary(l *app.Library) libraryBody {
	return libraryBody{ID: l.ID, Name: l.Name, CreatedAt: l.CreatedAt}
}

func toLibraries(ls []app.Library) []libraryBody {
	out := make([]libraryBody, len(ls))
	for i := range ls {
		out[i] = toLibrary(&ls[i])
	}
	return out
}

func toResponses(as []app.Asset) []AssetResponse {
	out := make([]AssetResponse, len(as))
	for i := range as {
		out[i] = toResponse(&as[i])
	}
	return out
}

func (h *handlers) list(ctx context.Context, in *ListInput) (*listOut, error) {
	as, total, err := h.svc.List(ctx, app.Filter{Q: in.Q, Kind: in.Kind, Modality: in.Modality,
		LibraryID: in.LibraryID.Ptr(), CategoryID: in.CategoryID.Ptr(), Binned: in.Binned}, in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	return &listOut{Total: strconv.FormatInt(total, 10), Body: toResponses(as)}, nil
}

func (h *handlers) libraries(ctx context.Context, _ *struct{}) (*librariesOut, error) {
	ls, err := h.svc.Libraries(ctx)
	if err != nil {
		return nil, err
	}
	return &librariesOut{toLibraries(ls)}, nil
}

func (h *handlers) createLibrary(ctx context.Context, in *CreateLibraryInput) (*libraryOut, error) {
	l, err := h.svc.CreateLibrary(ctx, in.Body.Name)
	if err != nil {
		return nil, err
	}
	return &libraryOut{toLibrary(l)}, nil
}

func (h *handlers) asset(ctx context.Context, in *AssetPath) (*assetOut, error) {
	return assetOf(h.svc.Lookup(ctx, in.ID, true))
}

func (h *handlers) patchMeta(ctx context.Context, in *PatchMetaInput) (*assetOut, error) {
	return assetOf(h.svc.Update(ctx, in.ID, in.Body.meta()))
}

func (h *handlers) setOverlay(ctx context.Context, in *OverlayInput) (*assetOut, error) {
	return assetOf(h.svc.SetOverlay(ctx, in.ID, in.Body.Shapes))
}

func (h *handlers) bin(ctx context.Context, in *AssetPath) (*assetOut, error) {
	return assetOf(h.svc.Bin(ctx, auth.MustFrom(ctx), in.ID))
}

func (h *handlers) restore(ctx context.Context, in *AssetPath) (*assetOut, error) {
	return assetOf(h.svc.Restore(ctx, auth.MustFrom(ctx), in.ID))
}

func (h *handlers) unlink(ctx context.Context, in *UnlinkInput) (*struct{}, error) {
	return nil, h.svc.Unlink(ctx, auth.MustFrom(ctx), in.ID, in.Body.ArticleID)
}

// assetOf answers a service call that returns the asset it changed.
func assetOf(a *app.Asset, err error) (*assetOut, error) {
	if err != nil {
		return nil, err
	}
	return &assetOut{toResponse(a)}, nil
}
