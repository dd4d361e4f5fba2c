package harness

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/roundsedu/rounds/platform/config"
)

// dieEnv makes the test binary a suite that dies before Stop (see TestMain).
const dieEnv = "ROUNDS_HARNESS_TEST_DIE"

func TestMain(m *testing.M) {
	if os.Getenv(dieEnv) != "" {
		h, err := Start()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		fmt.Printf("%s\n%s\n", h.DBURL, h.dataDir)
		// Killed: no deferred function, exit hook or Stop runs.
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
	}
	os.Exit(m.Run())
}

func exists(t *testing.T, path string) bool {
	t.Helper()
	_, err := os.Lstat(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return err == nil
}

func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(es))
	for i, e := range es {
		names[i] = e.Name()
	}
	return names
}

// The sweep removes what dead owners left and what predates owner locks once
// it is a day old; it keeps live owners' directories and anything else.
func TestSweep(t *testing.T) {
	tmp := t.TempDir()
	dead, deadLock, err := claim(tmp)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dead, "upload"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	deadLock.Close() // what the kernel does when the owner dies
	live, liveLock, err := claim(tmp)
	if err != nil {
		t.Fatal(err)
	}
	defer liveLock.Close()
	old := time.Now().Add(-48 * time.Hour)
	mk := func(name string, dir bool, mtime time.Time) string {
		p := filepath.Join(tmp, name)
		if dir {
			err = os.Mkdir(p, 0o700)
		} else {
			err = os.WriteFile(p, nil, 0o600)
		}
		if err == nil {
			err = os.Chtimes(p, mtime, mtime)
		}
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	oldUnowned := mk(scratchPrefix+"1234", true, old)
	freshUnowned := mk(scratchPrefix+"5678", true, time.Now())
	oldFile := mk(scratchPrefix+"file", false, old)
	otherDir := mk("someone-else", true, old)

	sweep(tmp, time.Now())

	for p, want := range map[string]bool{dead: false, oldUnowned: false,
		live: true, freshUnowned: true, oldFile: true, otherDir: true} {
		if got := exists(t, p); got != want {
			t.Errorf("%s: exists = %t after the sweep, want %t", filepath.Base(p), got, want)
		}
	}
}

// A harness's files live in this process's scratch directory, and nothing is
// left in TMPDIR after Stop or after a Start that fails.
func TestStopAndFailedStartLeaveNoFiles(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)

	h, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	if rel, err := filepath.Rel(tmp, h.dataDir); err != nil || !strings.HasPrefix(rel, scratchPrefix) {
		t.Fatalf("harness files at %s, want them under %s/%s*", h.dataDir, tmp, scratchPrefix)
	}
	if !exists(t, filepath.Join(filepath.Dir(h.dataDir), ownerLock)) {
		t.Fatal("the scratch directory has no owner lock")
	}
	// A second harness shares the scratch directory and outlives the first.
	h2, err := Start(WithoutSSO())
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(h2.dataDir) != filepath.Dir(h.dataDir) {
		t.Fatalf("two harnesses of one process use %s and %s", filepath.Dir(h.dataDir), filepath.Dir(h2.dataDir))
	}
	if err := h.Stop(); err != nil {
		t.Fatal(err)
	}
	if exists(t, h.dataDir) || !exists(t, h2.dataDir) {
		t.Fatal("Stop must remove its own files and only those")
	}
	if err := h2.Stop(); err != nil {
		t.Fatal(err)
	}
	if left := entries(t, tmp); len(left) != 0 {
		t.Fatalf("Stop left %v in TMPDIR", left)
	}

	// TEST-NET-1 is not a local address: the listener fails after the
	// database, the files and the app exist.
	_, err = Start(WithConfig(func(c *config.Config) { c.HTTP.Addr = "192.0.2.1:0" }))
	if err == nil {
		t.Fatal("Start listened on an address that is not local")
	}
	if left := entries(t, tmp); len(left) != 0 {
		t.Fatalf("a failed Start left %v in TMPDIR", left)
	}
}

// A suite killed before Stop leaves its files behind; the next harness to
// start (in any process) removes them, and does not touch a live one's.
func TestKilledSuiteFilesGoAtNextStart(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), dieEnv+"=1")
	out, err := cmd.Output()
	if status, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !status.Signaled() {
		t.Fatalf("the suite was meant to be killed, got %v: %s", err, out)
	}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	var dbURL, deadDir string
	if sc.Scan() {
		dbURL = sc.Text()
	}
	if sc.Scan() {
		deadDir = sc.Text()
	}
	t.Cleanup(func() { _ = DropDatabase(context.Background(), dbURL) })
	if deadDir == "" || !exists(t, deadDir) {
		t.Fatalf("the killed suite's files (%q) should still be there", deadDir)
	}

	h, err := Start(WithoutSSO())
	if err != nil {
		t.Fatal(err)
	}
	if exists(t, filepath.Dir(deadDir)) {
		t.Fatalf("the next Start kept the killed suite's %s", filepath.Dir(deadDir))
	}
	if !exists(t, h.dataDir) {
		t.Fatal("the sweep removed the live harness's own files")
	}
	if err := h.Stop(); err != nil {
		t.Fatal(err)
	}
	if left := entries(t, tmp); len(left) != 0 {
		t.Fatalf("left in TMPDIR: %v", left)
	}
}
