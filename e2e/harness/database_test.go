package harness

import "testing"

// The harness finds the local cluster wherever ROUNDS_PG_PORT moved it.
func TestAdminURLFollowsLocalClusterPort(t *testing.T) {
	t.Setenv("ROUNDS_TEST_DATABASE_URL", "")
	t.Setenv("DATABASE_URL", "")
	t.Setenv("ROUNDS_PG_PORT", "54339")
	if got, want := AdminURL(), "postgres://rounds@127.0.0.1:54339/postgres?sslmode=disable"; got != want {
		t.Fatalf("AdminURL() = %q, want %q", got, want)
	}
	t.Setenv("ROUNDS_PG_PORT", "")
	if got, want := AdminURL(), "postgres://rounds@127.0.0.1:54329/postgres?sslmode=disable"; got != want {
		t.Fatalf("AdminURL() = %q, want %q", got, want)
	}
	t.Setenv("ROUNDS_TEST_DATABASE_URL", "postgres://x@db.example:5432/postgres")
	if got := AdminURL(); got != "postgres://x@db.example:5432/postgres" {
		t.Fatalf("AdminURL() = %q, want ROUNDS_TEST_DATABASE_URL", got)
	}
}
