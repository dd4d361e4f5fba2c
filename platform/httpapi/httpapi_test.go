package httpapi

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/gin-gonic/gin"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
	"github.com/roundsedu/rounds/platform/metrics"
)

func TestRewrite(t *testing.T) {
	cases := map[string]string{
		"/api/health":            "/api/v1/health",
		"/api/questions/bank":    "/api/v1/questions/bank",
		"/api/quizzes/":          "/api/v1/quizzes/",
		"/api/v1/questions/bank": "",
		"/api/openapi.json":      "",
		"/api/openapi-3.0.json":  "",
		"/api/docs":              "",
		"/api/redoc":             "",
		"/uploads/a.png":         "",
		"/api":                   "",
	}
	for in, want := range cases {
		got, ok := rewrite(in)
		if ok != (want != "") || got != want {
			t.Errorf("rewrite(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

func TestOperationID(t *testing.T) {
	got := operationID(http.MethodGet, "/api/v1/quizzes/{quiz_id}/review")
	if got != "get-quizzes-by-quiz-id-review" {
		t.Errorf("operationID = %q", got)
	}
}

func TestClientAddress(t *testing.T) {
	srv, err := New(Options{Log: slog.New(slog.DiscardHandler), Metrics: metrics.New(),
		TrustedProxies: []string{"127.0.0.0/8", "10.0.0.0/8"}})
	if err != nil {
		t.Fatal(err)
	}
	srv.Engine().GET("/addr", func(c *gin.Context) { c.String(200, ClientAddress(c.Request.Context())) })
	long := strings.Repeat("203.0.113.250, ", 190) // ~2.8 KB
	cases := []struct{ peer, xff, want string }{
		{"127.0.0.1:5000", "", "127.0.0.1"},
		{"127.0.0.1:5000", "203.0.113.7", "203.0.113.7"},
		// A client's own entries sit left of what the trusted hops appended.
		{"127.0.0.1:5000", "6.6.6.6, 203.0.113.7, 10.0.0.5", "203.0.113.7"},
		// An untrusted peer chooses its header: its own address counts.
		{"198.51.100.4:5000", "203.0.113.7", "198.51.100.4"},
		// Garbage in the chain: the peer, never the garbage.
		{"127.0.0.1:5000", "not-an-ip", "127.0.0.1"},
		{"127.0.0.1:5000", long + "x", "127.0.0.1"},
		{"127.0.0.1:5000", long + "203.0.113.9", "203.0.113.9"},
	}
	for _, c := range cases {
		req := httptest.NewRequest(http.MethodGet, "/addr", nil)
		req.RemoteAddr = c.peer
		if c.xff != "" {
			req.Header.Set("X-Forwarded-For", c.xff)
		}
		rec := httptest.NewRecorder()
		srv.Handler().ServeHTTP(rec, req)
		if got := rec.Body.String(); got != c.want {
			t.Errorf("peer %s xff %.40q: got %q, want %q", c.peer, c.xff, got, c.want)
		}
	}
	if _, err := New(Options{Log: slog.New(slog.DiscardHandler), Metrics: metrics.New(),
		TrustedProxies: []string{"10.0.0.0/33"}}); err == nil {
		t.Error("a malformed range was accepted")
	}
}

func TestEnvelopeFromAppErr(t *testing.T) {
	env := fromAppErr(&apperr.Error{Code: apperr.RateLimited, Message: "slow down", RetryAfter: 1500 * time.Millisecond})
	if env.GetStatus() != 429 || env.Err.Code != "rate_limited" || env.Detail != "slow down" {
		t.Errorf("bad envelope %+v", env)
	}
	if env.GetHeaders().Get("Retry-After") != "2" {
		t.Errorf("Retry-After = %q, want rounded up 2", env.GetHeaders().Get("Retry-After"))
	}
	if g := fromAppErr(apperr.Gone("closed")); g.GetStatus() != 410 || g.Err.Code != "not_found" {
		t.Errorf("Gone should answer 410 not_found: %+v", g)
	}
	inv := fromAppErr(apperr.Invalidf("body.email", "not an address"))
	if inv.GetStatus() != 422 || len(inv.Err.Fields) != 1 {
		t.Errorf("invalid: %+v", inv)
	}
	if items, ok := inv.Detail.([]DetailItem); !ok || items[0].Loc[1] != "email" {
		t.Errorf("detail of a validation failure must be the legacy list: %#v", inv.Detail)
	}
}

func TestNewErrorNeverLeaksInternals(t *testing.T) {
	se := newError(500, "unexpected error occurred", errors.New("pq: password authentication failed for user x"))
	env := se.(*Envelope)
	if env.Err.Message != "internal server error" || env.Err.Code != "server_error" {
		t.Errorf("leaked: %+v", env)
	}
}

// Every code is one of the spec's: 405 and 410 carry not_found, huma's
// 400s (a missing or unparseable body) are input failures, 422.
func TestFrameworkStatusesCarrySpecCodes(t *testing.T) {
	for status, code := range map[int]string{404: "not_found", 405: "not_found", 410: "not_found", 413: "too_large",
		415: "bad_request", 408: "bad_request"} {
		if env := newError(status, "x").(*Envelope); env.Err.Code != code || env.GetStatus() != status {
			t.Errorf("status %d: %+v, want code %s", status, env, code)
		}
	}
	if env := newError(400, "request body is required").(*Envelope); env.GetStatus() != 422 || env.Err.Code != "invalid_request" {
		t.Errorf("a missing body: %+v, want 422 invalid_request", env)
	}
}

func TestStoreNotFoundIsA404(t *testing.T) {
	err := fmt.Errorf("load quiz 7: %w", db.ErrNotFound)
	for _, env := range []*Envelope{toEnvelope(context.Background(), slog.New(slog.DiscardHandler), err).(*Envelope),
		newError(500, "unexpected error", err).(*Envelope)} {
		if env.GetStatus() != 404 || env.Err.Code != "not_found" {
			t.Errorf("got %d %+v", env.GetStatus(), env.Err)
		}
	}
}

func TestUnreachableDatabaseIsA503(t *testing.T) {
	for _, err := range []error{
		fmt.Errorf("begin: %w", &pgconn.ConnectError{}),
		&pgconn.PgError{Code: "57P01"},
		&pgconn.PgError{Code: "08006"},
		fmt.Errorf("query: %w", driver.ErrBadConn),
	} {
		env := toEnvelope(context.Background(), slog.New(slog.DiscardHandler), err).(*Envelope)
		if env.GetStatus() != 503 || env.Err.Code != "unavailable" || env.GetHeaders().Get("Retry-After") == "" {
			t.Errorf("%v: got %d %+v %v", err, env.GetStatus(), env.Err, env.GetHeaders())
		}
	}
	// A failing statement is a bug, not an outage.
	env := toEnvelope(context.Background(), slog.New(slog.DiscardHandler), &pgconn.PgError{Code: "42P01"}).(*Envelope)
	if env.GetStatus() != 500 {
		t.Errorf("undefined table: got %d", env.GetStatus())
	}
}

func TestNewErrorValidationFields(t *testing.T) {
	se := newError(422, "validation failed", &huma.ErrorDetail{Location: "query.limit", Message: "expected number <= 200"})
	env := se.(*Envelope)
	if env.Err.Code != "invalid_request" || env.Err.Fields[0].Field != "query.limit" {
		t.Errorf("bad validation envelope %+v", env)
	}
}

func TestMissingPropertyNamesTheProperty(t *testing.T) {
	se := newError(422, "validation failed",
		&huma.ErrorDetail{Location: "body.options[1]", Message: "expected required property text to be present"},
		&huma.ErrorDetail{Location: "body", Message: "expected string"})
	env := se.(*Envelope)
	if env.Err.Fields[0].Field != "body.options[1].text" || env.Err.Fields[1].Field != "body" {
		t.Errorf("fields %+v", env.Err.Fields)
	}
	if items := env.Detail.([]DetailItem); len(items[0].Loc) != 3 || items[0].Loc[2] != "text" {
		t.Errorf("detail %+v", items)
	}
}

func TestParseIDs(t *testing.T) {
	ids, err := ParseIDs("tag_ids", " 3,5,,8 ")
	if err != nil || len(ids) != 3 || ids[2] != 8 {
		t.Fatalf("ParseIDs = %v, %v", ids, err)
	}
	for _, bad := range []string{"1,x", "0", "-4"} {
		if _, err := ParseIDs("tag_ids", bad); !apperr.Is(err, apperr.Invalid) {
			t.Errorf("ParseIDs(%q) accepted", bad)
		}
	}
}

// An array body field that must hold an item refuses null as it refuses
// an empty one, at any depth; one that may be empty still takes null.
func TestNullIsRefusedWhereItemsAreRequired(t *testing.T) {
	srv, err := New(Options{Log: slog.New(slog.DiscardHandler), Metrics: metrics.New()})
	if err != nil {
		t.Fatal(err)
	}
	r := srv.Router()
	type inner struct {
		Tags []string `json:"tags" minItems:"1"`
	}
	reached := 0
	Register(r, auth.Public, huma.Operation{Method: http.MethodPost, Path: "/items", Tags: []string{"health"}},
		func(_ context.Context, in *struct {
			Body struct {
				IDs      []int64  `json:"ids" minItems:"1"`
				Inner    inner    `json:"inner"`
				Optional []string `json:"optional"`
			}
		}) (*struct{}, error) {
			reached++
			return &struct{}{}, nil
		})
	for _, c := range []struct {
		body   string
		status int
		field  string
	}{
		{`{"ids":[1],"inner":{"tags":["a"]},"optional":null}`, http.StatusNoContent, ""},
		{`{"ids":null,"inner":{"tags":["a"]},"optional":[]}`, http.StatusUnprocessableEntity, "body.ids"},
		{`{"ids":[],"inner":{"tags":["a"]},"optional":[]}`, http.StatusUnprocessableEntity, "body.ids"},
		{`{"ids":[1],"inner":{"tags":null},"optional":[]}`, http.StatusUnprocessableEntity, "body.inner.tags"},
	} {
		res := httptest.NewRecorder()
		srv.Handler().ServeHTTP(res, httptest.NewRequest(http.MethodPost, Prefix+"/items", strings.NewReader(c.body)))
		if res.Code != c.status || !strings.Contains(res.Body.String(), c.field) {
			t.Errorf("%s: %d %s, want %d naming %q", c.body, res.Code, res.Body, c.status, c.field)
		}
	}
	if reached != 1 {
		t.Errorf("the handler ran %d times, want once (the valid body only)", reached)
	}
}

// The envelope's code is one of the spec's: the schema lists exactly
// apperr.Codes, and each has its status.
func TestEnvelopeCodesAreTheSpecs(t *testing.T) {
	f, _ := reflect.TypeFor[ErrorObject]().FieldByName("Code")
	names := make([]string, len(apperr.Codes))
	for i, c := range apperr.Codes {
		names[i] = c.String()
		if statusOf[c] == 0 {
			t.Errorf("%s has no status", c)
		}
	}
	spec := "bad_request,unauthenticated,forbidden,not_found,conflict,too_large,invalid_request,rate_limited," +
		"upstream_failed,unavailable,server_error"
	if strings.Join(names, ",") != spec {
		t.Errorf("apperr.Codes = %v, want the spec's %s", names, spec)
	}
	if got := strings.Split(f.Tag.Get("enum"), ","); !slices.Equal(slicesSorted(got), slicesSorted(names)) {
		t.Errorf("the envelope's enum %v is not apperr.Codes %v", got, names)
	}
}

func slicesSorted(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}
