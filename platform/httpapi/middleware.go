package httpapi

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/metrics"
	"github.com/roundsedu/rounds/platform/telemetry"
)

// RequestIDHeader carries the request id in and out.
const RequestIDHeader = "X-Request-ID"

type infoKey struct{}

// reqInfo is per-request state the access log reads after the handler.
type reqInfo struct {
	requestID string
	client    string
	userID    int64
}

func requestInfo(ctx context.Context) *reqInfo {
	info, _ := ctx.Value(infoKey{}).(*reqInfo)
	return info
}

// RequestID returns the id of the request on ctx, or "".
func RequestID(ctx context.Context) string {
	if info := requestInfo(ctx); info != nil {
		return info.requestID
	}
	return ""
}

// ClientAddress is the caller's address: the right-most X-Forwarded-For hop
// not added by a trusted proxy, or the peer's own address when the peer is
// not trusted (it could write any header) or sent none. Rate limits key on
// it. Always a parsed IP, so bounded in length.
func ClientAddress(ctx context.Context) string {
	if info := requestInfo(ctx); info != nil {
		return info.client
	}
	return ""
}

// begin assigns the request id and client address.
func begin() gin.HandlerFunc {
	return func(c *gin.Context) {
		id := c.GetHeader(RequestIDHeader)
		if id == "" || len(id) > 128 {
			b := make([]byte, 8)
			_, _ = rand.Read(b)
			id = hex.EncodeToString(b)
		}
		c.Header(RequestIDHeader, id)
		info := &reqInfo{requestID: id, client: c.ClientIP()}
		c.Request = c.Request.WithContext(context.WithValue(c.Request.Context(), infoKey{}, info))
		c.Next()
	}
}

// accessLog writes one JSON line per request and feeds the request metrics.
// The path is logged with its secrets redacted (a share link's token).
func accessLog(log *slog.Logger, m *metrics.Registry, secrets *secretPaths) gin.HandlerFunc {
	return func(c *gin.Context) {
		start := time.Now()
		c.Next()
		elapsed := time.Since(start)
		route := c.FullPath()
		if route == "" {
			route = "unmatched"
		}
		status := c.Writer.Status()
		m.ObserveRequest(c.Request.Method, route, status, elapsed)
		info := requestInfo(c.Request.Context())
		attrs := []slog.Attr{
			slog.String("method", c.Request.Method),
			slog.String("path", secrets.redact(c.Request.URL.Path)),
			slog.String("route", route),
			slog.Int("status", status),
			slog.Float64("duration_ms", float64(elapsed.Microseconds())/1000),
			slog.Int("bytes", c.Writer.Size()),
			slog.String("request_id", info.requestID),
		}
		if info.client != "" {
			attrs = append(attrs, slog.String("client", info.client))
		}
		if info.userID != 0 {
			attrs = append(attrs, slog.Int64("user_id", info.userID))
		}
		if id := telemetry.TraceID(c.Request.Context()); id != "" {
			attrs = append(attrs, slog.String("trace_id", id))
		}
		level := slog.LevelInfo
		if status >= 500 {
			level = slog.LevelError
		}
		log.LogAttrs(c.Request.Context(), level, "request", attrs...)
	}
}

// recoverer turns a panic into a 500 envelope that leaks nothing; the stack
// goes to the log only.
func recoverer(log *slog.Logger) gin.HandlerFunc {
	return func(c *gin.Context) {
		defer func() {
			rec := recover()
			if rec == nil {
				return
			}
			if rec == http.ErrAbortHandler {
				panic(rec)
			}
			log.ErrorContext(c.Request.Context(), "panic", "panic", rec,
				"request_id", RequestID(c.Request.Context()), "stack", string(debug.Stack()))
			if !c.Writer.Written() {
				writeEnvelope(c.Writer, fromAppErr(&apperr.Error{Code: apperr.ServerError, Message: "internal server error"}))
			}
			c.Abort()
		}()
		c.Next()
	}
}

// notFound and methodNotAllowed give gin's own failures the envelope.
func notFound(c *gin.Context) {
	writeEnvelope(c.Writer, fromAppErr(apperr.NotFoundf("no such route: %s %s", c.Request.Method, c.Request.URL.Path)))
}

func methodNotAllowed(c *gin.Context) {
	env := fromAppErr(apperr.MethodNotAllowed(fmt.Sprintf("method %s is not allowed on %s", c.Request.Method, c.Request.URL.Path)))
	writeEnvelope(c.Writer, env)
}
