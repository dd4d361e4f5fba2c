// Package ratelimit counts requests per (limit name, key) in Postgres, so
// every replica shares the same counters. Windows are fixed: the first hit
// opens a window of the limit's length and the count resets when it ends.
// Callers decide exemptions (admins, unthrottled users) before asking.
package ratelimit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/db"
)

// Limit is a named allowance.
type Limit struct {
	Name   string
	Max    int
	Window time.Duration
}

// SharedKey is the bucket for an empty key (a caller with no address).
const SharedKey = "shared"

// MaxKey bounds a key as stored: a longer one (whatever a caller chose) is
// replaced by its hash, so it still counts on its own and never overflows
// the index.
const MaxKey = 128

// MaxWindow is the longest window a limit may have: Prune deletes counters
// whose window opened longer ago than this.
const MaxWindow = 24 * time.Hour

// Limiter checks limits.
type Limiter struct{ db *db.DB }

// New makes a limiter.
func New(d *db.DB) *Limiter { return &Limiter{db: d} }

// Allow counts one hit against (l.Name, key). Over the limit it returns a
// rate_limited error carrying Retry-After; the hit is still counted, so a
// client hammering the route does not shorten its wait.
func (r *Limiter) Allow(ctx context.Context, l Limit, key string) error {
	if l.Window > MaxWindow {
		return fmt.Errorf("ratelimit: %s: window %s is longer than %s", l.Name, l.Window, MaxWindow)
	}
	key = storedKey(key)
	var hit struct {
		Count       int
		WindowStart time.Time
	}
	// One statement: insert, or bump the count, or open a new window when the
	// old one ended. The row lock makes concurrent hits count exactly. It runs
	// outside any caller transaction: a rolled-back request still counts.
	err := r.db.Detached(ctx).Raw(`
		INSERT INTO platform.rate_counters AS c (name, key, window_start, count)
		VALUES (@name, @key, now(), 1)
		ON CONFLICT (name, key) DO UPDATE SET
			count = CASE WHEN c.window_start + @ms * interval '1 millisecond' <= now() THEN 1 ELSE c.count + 1 END,
			window_start = CASE WHEN c.window_start + @ms * interval '1 millisecond' <= now() THEN now() ELSE c.window_start END
		RETURNING count, window_start`,
		map[string]any{"name": l.Name, "key": key, "ms": l.Window.Milliseconds()}).Scan(&hit).Error
	if err != nil {
		return err
	}
	if hit.Count <= l.Max {
		return nil
	}
	wait := time.Until(hit.WindowStart.Add(l.Window))
	if wait < time.Second {
		wait = time.Second
	}
	return &apperr.Error{Code: apperr.RateLimited, RetryAfter: wait,
		Message: "too many requests: try again in " + wait.Round(time.Second).String()}
}

func storedKey(key string) string {
	switch {
	case key == "":
		return SharedKey
	case len(key) > MaxKey:
		sum := sha256.Sum256([]byte(key))
		return "sha256:" + hex.EncodeToString(sum[:])
	}
	return key
}

// Prune deletes counters whose window has certainly ended (opened more than
// MaxWindow ago), in short batches; a caller that comes back starts a new
// window anyway.
func (r *Limiter) Prune(ctx context.Context) (int64, error) {
	return r.db.DeleteInBatches(ctx, "platform.rate_counters",
		"window_start < now() - ? * interval '1 millisecond'", MaxWindow.Milliseconds())
}
