// Package scripts checks the set-up scripts (scripts/*.sh) by running them
// against throwaway checkouts and APT configurations.
package scripts

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
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

// codename is this machine's Debian release, the suite pg-install.sh looks for.
func codename(t *testing.T) string {
	t.Helper()
	f, err := os.Open("/etc/os-release")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for sc := bufio.NewScanner(f); sc.Scan(); {
		if v, ok := strings.CutPrefix(sc.Text(), "VERSION_CODENAME="); ok {
			return strings.Trim(v, `"`)
		}
	}
	t.Fatal("/etc/os-release has no VERSION_CODENAME")
	return ""
}

// aptConfig writes a throwaway APT configuration whose sources are list (the
// one-line sources.list, none when empty) and parts (sources.list.d) and
// returns the environment that points apt at it.
func aptConfig(t *testing.T, list string, parts map[string]string) []string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "parts"), 0o755); err != nil {
		t.Fatal(err)
	}
	if list != "" {
		if err := os.WriteFile(filepath.Join(dir, "sources.list"), []byte(list), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, body := range parts {
		if err := os.WriteFile(filepath.Join(dir, "parts", name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	conf := fmt.Sprintf("Dir::Etc::sourcelist %q;\nDir::Etc::sourceparts %q;\n",
		filepath.Join(dir, "sources.list"), filepath.Join(dir, "parts"))
	if err := os.WriteFile(filepath.Join(dir, "apt.conf"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	return []string{"APT_CONFIG=" + filepath.Join(dir, "apt.conf")}
}

// TestSourceDerivation: the deb-src entry for pgvector names the mirror the
// machine's own sources use, whichever format they are written in, and
// nothing else.
func TestSourceDerivation(t *testing.T) {
	suite := codename(t)
	cases := []struct {
		name  string
		list  string
		parts map[string]string
		want  string
	}{{
		name: "one-line sources.list",
		list: "# deb http://commented.example/debian " + suite + " main\n" +
			"deb-src http://src-only.example/debian " + suite + " main\n" +
			"deb http://security.example/debian-security " + suite + "-security main\n" +
			"deb http://contrib-only.example/debian " + suite + " contrib\n" +
			"deb [ arch=amd64 signed-by=/usr/share/keyrings/mirror.gpg ] http://mirror.example/debian " + suite + " contrib main # ours\n",
		want: "deb-src [signed-by=/usr/share/keyrings/mirror.gpg] http://mirror.example/debian trixie main",
	}, {
		name: "deb822 .sources",
		parts: map[string]string{"debian.sources": "Types: deb\nURIs: http://disabled.example/debian\nSuites: " + suite + "\nComponents: main\nEnabled: no\n\n" +
			"# the machine's mirror\nTypes: deb deb-src\nURIs: http://mirror.example/debian\n  http://second.example/debian\n" +
			"Suites: " + suite + "-updates\n " + suite + "\nComponents: main contrib\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n"},
		want: "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://mirror.example/debian trixie main",
	}, {
		name: "deb822 with an inline key",
		parts: map[string]string{"debian.sources": "Types: deb\nURIs: http://mirror.example/debian\nSuites: " + suite +
			"\nComponents: main\nSigned-By:\n -----BEGIN PGP PUBLIC KEY BLOCK-----\n .\n mQINBF\n -----END PGP PUBLIC KEY BLOCK-----\n"},
		want: "deb-src http://mirror.example/debian trixie main",
	}, {
		name: "first in APT's reading order across formats",
		list: "deb http://security.example/debian-security " + suite + "-security main\n",
		parts: map[string]string{
			"10-vendor.list":           "deb https://vendor.example/apt cloud-sdk-" + suite + " main\n",
			"20-debian.sources":        "Types: deb\nURIs: http://first.example/debian\nSuites: " + suite + "\nComponents: main\n",
			"30-other.list":            "deb http://second.example/debian " + suite + " main\n",
			"40-ignored.list.disabled": "deb http://disabled.example/debian " + suite + " main\n",
		},
		want: "deb-src http://first.example/debian trixie main",
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := run(t, aptConfig(t, c.list, c.parts), "./pg-install.sh", "--print-source")
			if err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			if out != c.want {
				t.Fatalf("deb-src entry\n got %q\nwant %q", out, c.want)
			}
		})
	}

	t.Run("no Debian source", func(t *testing.T) {
		env := aptConfig(t, "deb https://vendor.example/apt nodistro main\n", nil)
		out, err := run(t, env, "./pg-install.sh", "--print-source")
		if err == nil || !strings.Contains(out, "no enabled 'deb' source for suite "+suite) {
			t.Fatalf("want a failure naming the missing source, got err=%v output %q", err, out)
		}
	})
}

// sourcesDir lists /etc/apt/sources.list.d, which the build must leave as it was.
func sourcesDir(t *testing.T) []string {
	t.Helper()
	m, err := filepath.Glob("/etc/apt/sources.list.d/*")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestBuildCleansUp: a pgvector build that fails (the mirror refuses) or is
// interrupted (the mirror hangs) leaves nothing behind: no temporary
// directory and no APT source.
func TestBuildCleansUp(t *testing.T) {
	if _, err := os.Stat("/usr/lib/postgresql/15/bin/pg_config"); err != nil {
		t.Fatal("PostgreSQL 15 is not installed: run `go tool task db:start` first")
	}
	suite := codename(t)
	before := sourcesDir(t)
	build := func(t *testing.T, mirror string) (*exec.Cmd, string) {
		tmp := t.TempDir()
		cmd := exec.Command("./pg-install.sh")
		cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "PGVECTOR_DESTDIR="+filepath.Join(tmp, "stage"))
		cmd.Env = append(cmd.Env, aptConfig(t, "deb "+mirror+" "+suite+" main\n", nil)...)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		return cmd, tmp
	}
	left := func(t *testing.T, tmp string) {
		t.Helper()
		entries, err := os.ReadDir(tmp)
		if err != nil {
			t.Fatal(err)
		}
		if len(entries) != 0 {
			t.Fatalf("the build left %d entries in TMPDIR, first %s", len(entries), entries[0].Name())
		}
		if after := sourcesDir(t); strings.Join(after, " ") != strings.Join(before, " ") {
			t.Fatalf("/etc/apt/sources.list.d changed: %v -> %v", before, after)
		}
	}

	t.Run("mirror refuses", func(t *testing.T) {
		srv := httptest.NewServer(http.NotFoundHandler())
		defer srv.Close()
		cmd, tmp := build(t, srv.URL+"/debian")
		out, err := cmd.CombinedOutput()
		if err == nil {
			t.Fatalf("the build succeeded without a source package: %s", out)
		}
		left(t, tmp)
	})

	t.Run("interrupted", func(t *testing.T) {
		asked := make(chan struct{}, 1)
		release := make(chan struct{})
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			select {
			case asked <- struct{}{}:
			default:
			}
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}))
		defer srv.Close()
		defer close(release)
		cmd, tmp := build(t, srv.URL+"/debian")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		select {
		case <-asked:
		case <-time.After(time.Minute):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			t.Fatal("apt never asked the mirror")
		}
		// What Ctrl-C or a timeout does: signal the whole process group.
		if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		var exit *exec.ExitError
		if err := cmd.Wait(); !errors.As(err, &exit) {
			t.Fatalf("want the build to stop with an error, got %v", err)
		}
		left(t, tmp)
	})
}

// TestBuildStagesPgvector runs the whole build path against the machine's own
// mirror (even where pgvector is installed) and checks the extension it
// stages and that the work directory is gone.
func TestBuildStagesPgvector(t *testing.T) {
	if _, err := os.Stat("/usr/lib/postgresql/15/bin/pg_config"); err != nil {
		t.Fatal("PostgreSQL 15 is not installed: run `go tool task db:start` first")
	}
	tmp, stage := t.TempDir(), t.TempDir()
	before := sourcesDir(t)
	out, err := run(t, []string{"TMPDIR=" + tmp, "PGVECTOR_DESTDIR=" + stage}, "./pg-install.sh")
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if !strings.Contains(out, "deb-src ") || !strings.Contains(out, " trixie main") {
		t.Fatalf("the build did not name its source: %s", out)
	}
	for _, f := range []string{"usr/share/postgresql/15/extension/vector.control", "usr/lib/postgresql/15/lib/vector.so"} {
		if _, err := os.Stat(filepath.Join(stage, f)); err != nil {
			t.Fatalf("not staged: %v", err)
		}
	}
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		t.Fatalf("the build left %d entries in TMPDIR", len(entries))
	}
	if after := sourcesDir(t); strings.Join(after, " ") != strings.Join(before, " ") {
		t.Fatalf("/etc/apt/sources.list.d changed: %v -> %v", before, after)
	}
}

// TestTaskfileParses: the README's commands go through Task, so a Taskfile
// that does not parse (a bare {{ in a YAML flow sequence, say) fails every one
// of them; catch it with the tests rather than on a newcomer's machine.
func TestTaskfileParses(t *testing.T) {
	// --json, not the listing: Task colours its listing when the environment
	// asks for colour (CI does), and a pattern over escape codes then misses.
	cmd := exec.Command("go", "tool", "task", "--dir", "..", "--list-all", "--json")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("Taskfile.yml does not parse: %v\n%s", err, stderr.String())
	}
	var listing struct {
		Tasks []struct{ Name string } `json:"tasks"`
	}
	if err := json.Unmarshal(out, &listing); err != nil {
		t.Fatalf("task --json: %v\n%s", err, out)
	}
	have := map[string]bool{}
	for _, task := range listing.Tasks {
		have[task.Name] = true
	}
	for _, task := range []string{"up", "test", "bench"} {
		if !have[task] {
			t.Errorf("task %q missing from %s", task, out)
		}
	}
}
