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

// JobsUIPath is where River's job UI is served to admins (MountPage).
const JobsUIPath = "/admin/jobs"

// MediaCookiePaths are the raw routes a browser opens without a header, so
// the media cookie is set for each: /uploads (native image and video tags)
// and River's job UI.
var MediaCookiePaths = []string{"/uploads", JobsUIPath}

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

// MountPage serves h at path and below it (an application of its own, such
// as River's job UI) to callers at level, who sign in as for /uploads: the
// bearer token when sent, else the media cookie the browser was given at
// sign-in (MediaCookiePaths must list path). Unsafe methods must come from
// the page itself: a cross-origin request (Sec-Fetch-Site, Origin) is
// refused, so another site cannot make a signed-in admin's browser act
// (the cookie being SameSite=Lax already keeps it off cross-site POSTs).
// The page may not be framed.
func (s *Server) MountPage(path string, level auth.Level, h http.Handler) {
	cross := http.NewCrossOriginProtection()
	cross.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		WriteError(w, apperr.Forbiddenf("a cross-origin request cannot change anything here"))
	}))
	guarded := cross.Handler(h)
	serve := func(c *gin.Context) {
		c.Header("X-Frame-Options", "DENY")
		c.Header("Content-Security-Policy", "frame-ancestors 'none'")
		guarded.ServeHTTP(c.Writer, c.Request)
	}
	guard := s.MediaGuard(level)
	s.engine.Any(path, guard, serve)
	s.engine.Any(path+"/*rest", guard, serve)
}
