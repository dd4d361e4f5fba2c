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
		verifier := r.verifier
		token := bearer(c.GetHeader("Authorization"))
		if token == "" {
			verifier, token = r.mediaVerifier, r.mediaCookieValue(c.GetHeader("Cookie"))
		}
		if token == "" {
			r.abort(c, apperr.New(apperr.Unauthenticated, "sign in first: missing bearer token or media cookie"))
			return
		}
		p, err := verifier.Verify(c.Request.Context(), token)
		if err != nil {
			ae, ok := apperr.As(err)
			if !ok {
				r.log.ErrorContext(c.Request.Context(), "token verification failed", "error", err)
				ae = apperr.New(apperr.ServerError, "internal server error")
			}
			r.abort(c, ae)
			return
		}
		if !level.Allows(p) {
			r.abort(c, apperr.Forbiddenf("this action needs the %s role", level))
			return
		}
		ctx := auth.WithPrincipal(c.Request.Context(), p)
		if info := requestInfo(ctx); info != nil {
			info.userID = p.UserID
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
