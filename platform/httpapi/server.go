// Package httpapi is the HTTP edge: a gin engine with a huma API on it.
// Every operation is declared once at /api/v1 (Register); /api/... is a
// rewrite of the same route; every failure, gin's own 404/405 and panics
// included, is written as the error envelope.
package httpapi

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humagin"
	"github.com/gin-gonic/gin"

	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
	"github.com/roundsedu/rounds/platform/metrics"
	"github.com/roundsedu/rounds/platform/telemetry"
)

// InterfaceVersion is the version of the contract (info.version).
const InterfaceVersion = "3.0.0"

// Tags are the spec's tag groups; every operation carries one, and the
// document lists those that have operations (declareTags).
var Tags = []string{"access", "admin", "ai-mode", "articles", "attempts", "auth", "categories",
	"collections", "contact", "documents", "drafts", "exam results", "exams", "favorites",
	"feedback", "flashcards", "folders", "glossary", "health", "media", "public",
	"question-categories", "questions", "quizzes", "search", "share", "study-plans",
	"study-tools", "tags", "teach", "tts"}

// Options are what the edge needs from the rest of the service.
type Options struct {
	Log      *slog.Logger
	Metrics  *metrics.Registry
	Verifier *auth.Verifier
	// MediaCookie names the cookie (<service name>_media) that routes opting
	// in (MediaGuard, or an operation with Metadata[AcceptsMediaCookie])
	// accept in place of a bearer token; MediaVerifier checks its value.
	// Both empty: no route accepts a cookie.
	MediaCookie   string
	MediaVerifier *auth.Verifier
	// TrustedProxies are the peers (addresses or CIDR ranges) whose
	// X-Forwarded-For is believed (ClientAddress).
	TrustedProxies []string
	// DB, when it has a read replica, learns each request's session
	// (db.Session: whether the replica may answer its reads), carried
	// between requests in the WrittenCookie, which lives a little longer
	// than ReadMaxLag; SecureCookies marks it Secure (an https public URL).
	DB            *db.DB
	WrittenCookie string
	ReadMaxLag    time.Duration
	SecureCookies bool
	// UploadTimeout bounds reading an upload's body (RegisterUpload, and
	// operations taking a RawBody) in place of the server's read timeout;
	// 0 leaves the server's.
	UploadTimeout time.Duration
}

// Server is the public HTTP surface.
type Server struct {
	engine *gin.Engine
	api    huma.API
	router *Router
	spec30 openAPI30
}

func init() { gin.SetMode(gin.ReleaseMode) }

// New builds the engine, the huma API, the docs routes and the middleware.
// A malformed trusted proxy is an error (config validation catches it first).
func New(opts Options) (*Server, error) {
	engine := gin.New()
	engine.HandleMethodNotAllowed = true
	engine.ContextWithFallback = true
	engine.ForwardedByClientIP = true
	engine.RemoteIPHeaders = []string{"X-Forwarded-For"}
	if err := engine.SetTrustedProxies(opts.TrustedProxies); err != nil {
		return nil, fmt.Errorf("http.trusted_proxies: %w", err)
	}
	secrets := &secretPaths{}
	engine.Use(begin(), telemetry.Gin(secrets.redact), accessLog(opts.Log, opts.Metrics, secrets), recoverer(opts.Log),
		readYourWrites(opts.DB, opts.WrittenCookie, opts.ReadMaxLag, opts.SecureCookies))
	engine.NoRoute(notFound)
	engine.NoMethod(methodNotAllowed)

	cfg := huma.DefaultConfig("Rounds API", InterfaceVersion)
	cfg.Info.Description = "Question bank and learning service. Every path is under /api/v1; /api/... is a permanent alias."
	cfg.OpenAPIPath = "/api/openapi"
	cfg.DocsPath = "" // served from the binary (docs.go), not huma's CDN page
	cfg.SchemasPath = "/api/schemas"
	cfg.CreateHooks = nil // no $schema links in response bodies
	cfg.Formats = Formats
	cfg.Components.SecuritySchemes = map[string]*huma.SecurityScheme{
		"bearer": {Type: "http", Scheme: "bearer", BearerFormat: "JWT",
			Description: "Access token from POST /api/v1/auth/sso/exchange."},
	}
	api := humagin.New(engine, cfg)
	api.OpenAPI().OnAddOperation = append(api.OpenAPI().OnAddOperation, itemsRequiredOnAdd)
	docsRoutes(engine)

	return &Server{engine: engine, api: api,
		router: &Router{api: api, verifier: opts.Verifier, log: opts.Log, secrets: secrets, uploadTimeout: opts.UploadTimeout,
			cookie: opts.MediaCookie, mediaVerifier: opts.MediaVerifier}}, nil
}

// Router is where modules register operations.
func (s *Server) Router() *Router { return s.router }

// Engine exposes gin for the routes outside /api (uploads).
func (s *Server) Engine() *gin.Engine { return s.engine }

// OpenAPI is the generated contract.
func (s *Server) OpenAPI() *huma.OpenAPI { return s.api.OpenAPI() }

// Handler is the engine behind the /api alias rewrite.
func (s *Server) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.spec30.serve(s, w, r) {
			return
		}
		if p, ok := rewrite(r.URL.Path); ok {
			r.URL.Path = p
			r.URL.RawPath = ""
		}
		s.engine.ServeHTTP(w, r)
	})
}

// unversioned are the /api/ paths that are not aliases of /api/v1.
var unversioned = map[string]bool{"v1": true, "openapi.json": true, "openapi.yaml": true,
	"openapi-3.0.json": true, "openapi-3.0.yaml": true, "docs": true, "redoc": true, "schemas": true}

// rewrite maps /api/<x> to /api/v1/<x>: the alias is a rewrite of the one
// registered route, never a second registration.
func rewrite(path string) (string, bool) {
	rest, ok := strings.CutPrefix(path, "/api/")
	if !ok {
		return "", false
	}
	first, _, _ := strings.Cut(rest, "/")
	if unversioned[first] {
		return "", false
	}
	return Prefix + "/" + rest, true
}

// HealthBody is the health answer.
type HealthBody struct {
	Status   string `json:"status" example:"ok"`
	Database string `json:"database" example:"ok"`
	Version  string `json:"version"`
}

// RegisterHealth declares GET /api/v1/health (and so /api/health): 200 when
// the database answers, 503 unavailable with Retry-After when it does not.
func RegisterHealth(r *Router, ping func(context.Context) error, version string) {
	Register(r, auth.Public, huma.Operation{
		Method: http.MethodGet, Path: "/health", Tags: []string{"health"},
		Summary: "Service health", Errors: []int{http.StatusServiceUnavailable},
	}, func(ctx context.Context, _ *struct{}) (*struct{ Body HealthBody }, error) {
		pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer cancel()
		if err := ping(pctx); err != nil {
			ae := Unavailable()
			ae.Message = "database: down"
			return nil, ae
		}
		return &struct{ Body HealthBody }{HealthBody{Status: "ok", Database: "ok", Version: version}}, nil
	})
}
