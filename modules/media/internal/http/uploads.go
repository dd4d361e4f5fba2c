package http

import (
	"log/slog"
	nethttp "net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/roundsedu/rounds/modules/media/internal/app"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

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
