package store_test

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/config"
	"github.com/roundsedu/rounds/platform/db"
)

// freshDatabase clones a migrated database for the test (dropped after
// it) and opens it; exec runs a statement on it or fails the test.
func freshDatabase(t *testing.T) (d *db.DB, url string, exec func(q string, args ...any)) {
	t.Helper()
	ctx := context.Background()
	url, err := harness.CloneDatabase(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = harness.DropDatabase(context.WithoutCancel(ctx), url) })
	d, err = db.Open(ctx, config.Database{URL: url}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	return d, url, func(q string, args ...any) {
		t.Helper()
		if err := d.Conn(ctx).Exec(q, args...).Error; err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}
