package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/roundsedu/rounds/e2e/harness"
)

// run executes the CLI with args against the database at dbURL.
func run(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	cmd := rootCmd()
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(context.Background())
	return out.String(), err
}

func TestUsersPromote(t *testing.T) {
	ctx := context.Background()
	dbURL, err := harness.CloneDatabase(ctx)
	if err != nil {
		t.Fatalf("no test Postgres (go tool task db:start): %v", err)
	}
	t.Cleanup(func() { _ = harness.DropDatabase(ctx, dbURL) })
	t.Setenv("DATABASE_URL", dbURL)
	t.Setenv("ROUNDS_AUTH_TOKEN_SECRET", strings.Repeat("k", 40))
	t.Setenv("ROUNDS_LOG_LEVEL", "error")

	out, err := run(t, "users", "admins")
	if err != nil || !strings.Contains(out, "no administrators yet") {
		t.Fatalf("admins on an empty database: %v %q", err, out)
	}
	out, err = run(t, "users", "promote", "First.Admin@example.test")
	if err != nil || !strings.Contains(out, "created administrator First.Admin@example.test") {
		t.Fatalf("promote a new address: %v %q", err, out)
	}
	out, err = run(t, "users", "promote", "first.admin@EXAMPLE.test")
	if err != nil || !strings.Contains(out, "promoted administrator First.Admin@example.test") {
		t.Fatalf("promote the same address again: %v %q", err, out)
	}
	out, err = run(t, "users", "admins")
	if err != nil || strings.Count(out, "@example.test") != 1 {
		t.Fatalf("admins: %v %q", err, out)
	}
	if _, err := run(t, "users", "promote", "not-an-address"); err == nil {
		t.Fatal("a non-address must be refused")
	}
	if _, err := run(t, "users", "promote"); err == nil {
		t.Fatal("promote needs an address")
	}
}
