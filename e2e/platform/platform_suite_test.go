// Package platform_test proves the service shell every module plugs into:
// health, the /api alias, the error envelope, OpenAPI, the event outbox, the
// job runner, scheduler leadership and rate limits, on a real Postgres.
package platform_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/app"
	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
	"github.com/roundsedu/rounds/platform/ratelimit"
)

func TestPlatform(t *testing.T) { harness.RunSuite(t, "Platform") }

var h *harness.Harness

// probe is the test-only state the routes, subscribers and jobs below share.
var probe = newProbe()

type echoInput struct {
	Body struct {
		Name  string `json:"name" minLength:"2" maxLength:"10"`
		Count int    `json:"count" minimum:"1"`
	}
}

type lookupInput struct {
	Key string `path:"key"`
	Q   string `query:"q"`
}

type jobOutput struct {
	Body struct {
		ID string `json:"id"`
	}
}

type echoOutput struct {
	Body struct {
		Name string `json:"name"`
	}
}

// registerTestRoutes adds routes that exercise the edge: validation, panics,
// plain errors, guards and a rate limit.
func registerTestRoutes(a *app.App) {
	r := a.HTTP.Router()
	httpapi.Register(r, auth.Public, huma.Operation{Method: http.MethodPost, Path: "/test/echo", Tags: []string{"public"}},
		func(_ context.Context, in *echoInput) (*echoOutput, error) {
			out := &echoOutput{}
			out.Body.Name = in.Body.Name
			return out, nil
		})
	httpapi.Register(r, auth.Public, huma.Operation{Method: http.MethodGet, Path: "/test/lookup/{key}", Tags: []string{"public"}},
		func(_ context.Context, in *lookupInput) (*echoOutput, error) {
			out := &echoOutput{}
			out.Body.Name = in.Key + in.Q
			return out, nil
		})
	httpapi.Register(r, auth.Public, huma.Operation{Method: http.MethodGet, Path: "/test/panic", Tags: []string{"public"}},
		func(context.Context, *struct{}) (*struct{}, error) { panic("secret internals: db password hunter2") })
	httpapi.Register(r, auth.Public, huma.Operation{Method: http.MethodGet, Path: "/test/fail", Tags: []string{"public"}},
		func(context.Context, *struct{}) (*struct{}, error) {
			return nil, errors.New("pq: relation users does not exist at 10.0.0.3")
		})
	httpapi.Register(r, auth.Public, huma.Operation{Method: http.MethodGet, Path: "/test/missing", Tags: []string{"public"},
		Errors: []int{http.StatusNotFound}},
		func(ctx context.Context, _ *struct{}) (*struct{}, error) {
			var key string
			err := a.DB.Conn(ctx).Table("platform.settings").Where("key = ?", "no-such-key").Select("key").Take(&key).Error
			return nil, fmt.Errorf("load setting: %w", err)
		})
	httpapi.Register(r, auth.Public, huma.Operation{Method: http.MethodGet, Path: "/test/conflict", Tags: []string{"public"},
		Errors: []int{http.StatusConflict}},
		func(context.Context, *struct{}) (*struct{}, error) { return nil, apperr.Conflictf("already there") })
	httpapi.Register(r, auth.Mod, huma.Operation{Method: http.MethodGet, Path: "/test/mod-only", Tags: []string{"public"}},
		func(ctx context.Context, _ *struct{}) (*echoOutput, error) {
			out := &echoOutput{}
			out.Body.Name = string(auth.MustFrom(ctx).Role)
			return out, nil
		})
	httpapi.Register(r, auth.Public, huma.Operation{Method: http.MethodPost, Path: "/test/enqueue", Tags: []string{"public"}},
		func(ctx context.Context, _ *struct{}) (*jobOutput, error) {
			id, err := a.Queue.Enqueue(ctx, nil, stepsPayload{Steps: 1})
			out := &jobOutput{}
			out.Body.ID = id.String()
			return out, err
		})
	limit := ratelimit.Limit{Name: "test.limited", Max: 3, Window: time.Minute}
	httpapi.Register(r, auth.Public, huma.Operation{Method: http.MethodGet, Path: "/test/limited", Tags: []string{"public"},
		Errors: []int{http.StatusTooManyRequests}},
		func(ctx context.Context, _ *struct{}) (*struct{}, error) {
			return nil, a.Limiter.Allow(ctx, limit, httpapi.ClientAddress(ctx))
		})
}

var _ = harness.Suite(&h, nil, harness.BeforeStart(func(a *app.App) {
	registerTestRoutes(a)
	registerTestSubscribers(a)
	registerTestJobs(a)
	registerScheduledTask(a)
}))
