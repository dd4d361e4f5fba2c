// Package scripts checks the set-up scripts (scripts/*.sh) by running them
// against throwaway checkouts and APT configurations.
package scripts

import (
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// checkout copies the named scripts into a fresh directory laid out like a
// clone (<dir>/<name>/scripts/...) and returns the clone's root.
func checkout(t *testing.T, dir, name string, scripts ...string) string {
	t.Helper()
	root := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Join(root, "scripts"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, s := range scripts {
		b, err := os.ReadFile(s)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "scripts", s), b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func run(t *testing.T, env []string, name string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

// TestClusterPlacement: a checkout the postgres user cannot enter (a clone
// under /root, here a 0700 temp dir) gets its cluster under ~postgres, one per
// checkout; a reachable checkout keeps it in .data.
func TestClusterPlacement(t *testing.T) {
	dir := t.TempDir() // 0700: nobody but us can enter it
	a := checkout(t, dir, "rounds", "pg-local.sh")
	b := checkout(t, filepath.Join(dir, "other"), "rounds", "pg-local.sh")
	where := func(root string) string {
		t.Helper()
		out, err := run(t, nil, filepath.Join(root, "scripts", "pg-local.sh"), "where")
		if err != nil {
			t.Fatalf("where: %v: %s", err, out)
		}
		return out
	}

	pg, err := user.Lookup("postgres")
	if os.Geteuid() != 0 || err != nil {
		// Postgres runs as the invoking user, who can always enter the checkout.
		if got := where(a); got != filepath.Join(a, ".data") {
			t.Fatalf("where = %q, want the checkout's .data", got)
		}
		return
	}
	outside := regexp.MustCompile("^" + regexp.QuoteMeta(pg.HomeDir) + `/rounds-dev/rounds-[0-9a-f]{10}$`)
	wa, wb := where(a), where(b)
	if !outside.MatchString(wa) || !outside.MatchString(wb) {
		t.Fatalf("unreachable checkouts placed at %q and %q, want under %s/rounds-dev", wa, wb, pg.HomeDir)
	}
	if wa == wb {
		t.Fatalf("two checkouts share the cluster directory %s", wa)
	}
	if again := where(a); again != wa {
		t.Fatalf("placement is not stable: %q then %q", wa, again)
	}

	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if got := where(a); got != filepath.Join(a, ".data") {
		t.Fatalf("reachable checkout placed at %q, want its .data", got)
	}
}
