package app

import (
	"context"
	"fmt"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/ratelimit"
)

// queryVectors bounds what queries cost. Every search that ranks by
// meaning embeds its query, and with a remote model each embedding is a
// paid call on the request path: a bounded LRU keyed by (model, text)
// answers a repeated query (the same search from many learners, a page
// reloaded, the tutor's question stem) without one, and each person's
// misses are counted (Limit): past the allowance their searches rank by
// keywords alone until the window ends, as when the model is down.
type queryVectors struct {
	cache   *lru.Cache[string, []float32]
	limiter *ratelimit.Limiter
	limit   ratelimit.Limit
}

// newQueryVectors keeps up to entries vectors and lets a person ask the
// remote model perMinute times a minute.
func newQueryVectors(entries, perMinute int, limiter *ratelimit.Limiter) *queryVectors {
	cache, err := lru.New[string, []float32](entries)
	if err != nil {
		panic(err) // entries < 1: the config's validation refuses it first
	}
	return &queryVectors{cache: cache, limiter: limiter,
		limit: ratelimit.Limit{Name: "search.query_embeddings", Max: perMinute, Window: time.Minute}}
}

func queryKey(model, text string) string { return model + "\x00" + text }

// allow counts one remote embedding for the caller on ctx: admins,
// unthrottled people and the service's own work (no caller) are not
// counted.
func (qv *queryVectors) allow(ctx context.Context) error {
	p, ok := auth.From(ctx)
	if !ok || p.IsAdmin() || p.Unthrottled {
		return nil
	}
	return qv.limiter.Allow(ctx, qv.limit, fmt.Sprintf("user:%d", p.UserID))
}
