package httpapi

import (
	"net/http"

	"github.com/danielgtaylor/huma/v2"
	"github.com/gin-gonic/gin"

	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
)

// AcceptsMediaCookie is the huma.Operation Metadata key that lets an
// operation accept the media cookie when no bearer token is sent:
// Metadata: map[string]any{httpapi.AcceptsMediaCookie: true}.
const AcceptsMediaCookie = "rounds-accepts-media-cookie"

// MediaCookieName is the media cookie of a deployment: the service name
// plus _media (spec: Authentication 6).
func MediaCookieName(serviceName string) string { return serviceName + "_media" }

func acceptsMediaCookie(op huma.Operation) bool {
	v, _ := op.Metadata[AcceptsMediaCookie].(bool)
	return v
}

// mediaCookieValue reads the media cookie from a Cookie header, or "".
func (r *Router) mediaCookieValue(header string) string {
	if r.cookie == "" || r.mediaVerifier == nil || header == "" {
		return ""
	}
	cookies, err := http.ParseCookie(header)
	if err != nil {
		return ""
	}
	for _, c := range cookies {
		if c.Name == r.cookie {
			return c.Value
		}
	}
	return ""
}

// MediaGuard is gin middleware for raw routes outside /api/v1 that native
// image and video tags load (they cannot send a header): the caller is the
// bearer token's when one is sent, else the media cookie's. The level is
// enforced as for operations, failures are the envelope, and the principal
// is on the request context (auth.From). Authorisation per file stays with
// the handler.
func (s *Server) MediaGuard(level auth.Level) gin.HandlerFunc {
	r := s.router
	return func(c *gin.Context) {
		ctx, ae := r.authenticate(c.Request.Context(), c.GetHeader("Authorization"), c.GetHeader("Cookie"), true, level)
		if ae != nil {
			r.abort(c, ae)
			return
		}
		c.Request = c.Request.WithContext(ctx)
		c.Next()
	}
}

func (r *Router) abort(c *gin.Context, ae *apperr.Error) {
	env := fromAppErr(ae)
	if env.status == http.StatusUnauthorized {
		c.Header("WWW-Authenticate", `Bearer realm="api"`)
	}
	writeEnvelope(c.Writer, env)
	c.Abort()
}
