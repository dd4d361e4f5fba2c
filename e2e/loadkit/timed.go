package loadkit

import (
	"context"
	"slices"
	"time"
)

// Timed runs op n times back to back, one client, and gives each run's
// time sorted (for Percentile); the first error stops it. It is the
// scale benchmarks' measured loop (the statistics, charts and flashcards
// reads).
func Timed(n int, op func(i int) error) ([]time.Duration, error) {
	out := make([]time.Duration, 0, n)
	for i := range n {
		t0 := time.Now()
		if err := op(i); err != nil {
			return nil, err
		}
		out = append(out, time.Since(t0))
	}
	slices.Sort(out)
	return out, nil
}

// Get is a GET of path with the bearer token whose answer must be 2xx,
// its body read and dropped: the op a benchmark times.
func (a *API) Get(tok, path string) error { return a.Call(tok, "GET", path, nil, nil, nil) }

// Execer runs one SQL statement (a benchmark's database, *gorm.DB's Exec
// wrapped to give its error).
type Execer func(ctx context.Context, sql string, args ...any) error

// Statement is one step of a benchmark's seeding.
type Statement struct {
	SQL  string
	Args []any
}

// Seed runs a benchmark's seeding statements in order (generate_series
// inserts, then ANALYZE), stopping at the first error.
func Seed(ctx context.Context, exec Execer, stmts ...Statement) error {
	for _, s := range stmts {
		if err := exec(ctx, s.SQL, s.Args...); err != nil {
			return err
		}
	}
	return nil
}
