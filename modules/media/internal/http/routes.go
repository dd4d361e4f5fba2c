package http

import (
	"context"
	"log/slog"
	nethttp "net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/roundsedu/rounds/modules/media/internal/app"
	"github.com/roundsedu/rounds/modules/media/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
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

func mediaRoutes(r *httpapi.Router, svc *app.Service) {
	const tag = "media"
	httpapi.Register(r, auth.Mod, httpapi.Op(nethttp.MethodGet, "/media/", tag,
		"List and search media assets, newest first (not reranked)", 0),
		func(ctx context.Context, in *struct {
			httpapi.Page
			Q          string             `query:"q" maxLength:"200" doc:"matches title, caption and credit"`
			Kind       string             `query:"kind" enum:"image,video,"`
			Modality   string             `query:"modality" maxLength:"40"`
			LibraryID  httpapi.OptionalID `query:"library_id"`
			CategoryID httpapi.OptionalID `query:"category_id"`
			Binned     bool               `query:"binned" doc:"list the bin instead"`
		}) (*listOut, error) {
			as, total, err := svc.List(ctx, store.Filter{Q: in.Q, Kind: in.Kind, Modality: in.Modality,
				LibraryID: in.LibraryID.Ptr(), CategoryID: in.CategoryID.Ptr(), Binned: in.Binned}, in.Limit, in.Offset)
			if err != nil {
				return nil, err
			}
			out := &listOut{Total: strconv.FormatInt(total, 10), Body: make([]AssetResponse, len(as))}
			for i := range as {
				out.Body[i] = toResponse(&as[i])
			}
			return out, nil
		})

	type libraryBody struct {
		ID        int64     `json:"id"`
		Name      string    `json:"name"`
		CreatedAt time.Time `json:"created_at"`
	}
	httpapi.Register(r, auth.Mod, httpapi.Op(nethttp.MethodGet, "/media/libraries", tag, "The image libraries, by name", 0),
		func(ctx context.Context, _ *struct{}) (*struct{ Body []libraryBody }, error) {
			ls, err := svc.Libraries(ctx)
			if err != nil {
				return nil, err
			}
			out := make([]libraryBody, len(ls))
			for i, l := range ls {
				out[i] = libraryBody{ID: l.ID, Name: l.Name, CreatedAt: l.CreatedAt}
			}
			return &struct{ Body []libraryBody }{out}, nil
		})
	httpapi.Register(r, auth.Mod, httpapi.Op(nethttp.MethodPost, "/media/libraries", tag, "Make an image library",
		nethttp.StatusCreated, 409, 422),
		func(ctx context.Context, in *struct {
			Body struct {
				Name string `json:"name" maxLength:"200"`
			}
		}) (*struct{ Body libraryBody }, error) {
			l, err := svc.CreateLibrary(ctx, in.Body.Name)
			if err != nil {
				return nil, err
			}
			return &struct{ Body libraryBody }{libraryBody{ID: l.ID, Name: l.Name, CreatedAt: l.CreatedAt}}, nil
		})

	type idIn struct {
		ID int64 `path:"asset_id"`
	}
	httpapi.Register(r, auth.Mod, httpapi.Op(nethttp.MethodGet, "/media/{asset_id}", tag, "One asset", 0, 404),
		func(ctx context.Context, in *idIn) (*assetOut, error) {
			a, err := svc.Lookup(ctx, in.ID, true)
			if err != nil {
				return nil, err
			}
			return &assetOut{toResponse(a)}, nil
		})

	httpapi.Register(r, auth.Mod, httpapi.Op(nethttp.MethodPatch, "/media/{asset_id}", tag,
		"Replace an asset's metadata (the figure rules apply)", 0, 404, 409, 422),
		func(ctx context.Context, in *struct {
			ID   int64 `path:"asset_id"`
			Body MetaBody
		}) (*assetOut, error) {
			a, err := svc.Update(ctx, in.ID, in.Body.meta())
			if err != nil {
				return nil, err
			}
			return &assetOut{toResponse(a)}, nil
		})

	httpapi.Register(r, auth.Mod, httpapi.Op(nethttp.MethodPut, "/media/{asset_id}/overlay", tag,
		"Replace an image's overlay shapes (refused when the licence forbids derivatives)", 0, 403, 404, 422),
		func(ctx context.Context, in *struct {
			ID   int64 `path:"asset_id"`
			Body struct {
				Shapes []app.Shape `json:"shapes" maxItems:"200"`
			}
		}) (*assetOut, error) {
			a, err := svc.SetOverlay(ctx, in.ID, in.Body.Shapes)
			if err != nil {
				return nil, err
			}
			return &assetOut{toResponse(a)}, nil
		})

	httpapi.Register(r, auth.Mod, httpapi.Op(nethttp.MethodDelete, "/media/{asset_id}", tag,
		"Bin an asset: its figures leave every article; restorable for 30 days", 0, 404, 409),
		func(ctx context.Context, in *idIn) (*assetOut, error) {
			a, err := svc.Bin(ctx, auth.MustFrom(ctx), in.ID)
			if err != nil {
				return nil, err
			}
			return &assetOut{toResponse(a)}, nil
		})

	httpapi.Register(r, auth.Mod, httpapi.Op(nethttp.MethodPost, "/media/{asset_id}/restore", tag,
		"Restore a binned asset: its figure line returns at the end of every section it was in", 0, 400, 404),
		func(ctx context.Context, in *idIn) (*assetOut, error) {
			a, err := svc.Restore(ctx, auth.MustFrom(ctx), in.ID)
			if err != nil {
				return nil, err
			}
			return &assetOut{toResponse(a)}, nil
		})

	httpapi.Register(r, auth.User, httpapi.Op(nethttp.MethodPost, "/media/{asset_id}/unlink", tag,
		"Take an asset off an article you may edit (the asset stays)", nethttp.StatusNoContent, 403, 404),
		func(ctx context.Context, in *struct {
			ID   int64 `path:"asset_id"`
			Body struct {
				ArticleID int64 `json:"article_id" minimum:"1"`
			}
		}) (*struct{}, error) {
			return nil, svc.Unlink(ctx, auth.MustFrom(ctx), in.ID, in.Body.ArticleID)
		})
}

// Uploads serves GET /uploads/{path} outside /api: the guard signs the
// caller in (bearer or the media cookie), the service authorises the file.
func Uploads(engine *gin.Engine, guard gin.HandlerFunc, svc *app.Service, log *slog.Logger) {
	engine.GET("/uploads/*path", guard, func(c *gin.Context) {
		req := app.Request{RawKey: c.Request.URL.EscapedPath()[len("/uploads/"):]}
		var err error
		if v := c.Query("attempt_id"); v != "" {
			if req.AttemptID, err = strconv.ParseInt(v, 10, 64); err != nil || req.AttemptID < 1 {
				httpapi.WriteError(c.Writer, invalid("attempt_id", "attempt_id is a positive integer"))
				return
			}
		}
		if v, ok := c.GetQuery("w"); ok {
			if req.Width, err = strconv.Atoi(v); err != nil || req.Width == 0 {
				httpapi.WriteError(c.Writer, invalid("w", "w must be 256 or 640"))
				return
			}
		}
		f, err := svc.Open(c.Request.Context(), auth.MustFrom(c.Request.Context()), req)
		if err != nil {
			if _, ok := apperr.As(err); !ok {
				log.Error("uploads: serving failed", "path", req.RawKey, "error", err)
			}
			httpapi.WriteError(c.Writer, err)
			return
		}
		defer f.Body.Close()
		hd := c.Writer.Header()
		hd.Set("Content-Type", f.ContentType)
		hd.Set("ETag", f.ETag)
		hd.Set("X-Content-Type-Options", "nosniff")
		if f.ContentType == "image/svg+xml" {
			hd.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox")
		}
		if f.Derivative {
			hd.Set("Cache-Control", "private, max-age=604800, immutable")
		} else {
			hd.Set("Cache-Control", "private, no-store")
		}
		// No modification time: ETag alone answers conditional and range
		// requests (If-None-Match, If-Range).
		nethttp.ServeContent(c.Writer, c.Request, "", time.Time{}, f.Body)
	})
}

func invalid(field, msg string) error { return apperr.Invalidf(field, "%s", msg) }
