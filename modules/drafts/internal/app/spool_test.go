package app

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

func TestSweepSpoolRemovesWhatStoppedProcessesLeft(t *testing.T) {
	root := t.TempDir()
	leave := func(dir string) {
		if err := os.MkdirAll(filepath.Join(root, dir), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, dir, "upload-1.pdf"), []byte("%PDF-"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	self, running := os.Getpid(), os.Getppid()
	gone := "999999999" // above any pid_max
	for _, d := range []string{gone, strconv.Itoa(self), strconv.Itoa(running), "not-a-pid"} {
		leave(d)
	}
	if n := sweepSpool(root, self); n != 2 {
		t.Fatalf("swept %d files, want 2 (the stopped process's and this one's from before its restart)", n)
	}
	for dir, want := range map[string]bool{gone: false, strconv.Itoa(self): false, strconv.Itoa(running): true, "not-a-pid": true} {
		if _, err := os.Stat(filepath.Join(root, dir)); (err == nil) != want {
			t.Errorf("%s: exists = %v, want %v", dir, err == nil, want)
		}
	}
}

func TestNewSpoolSweepsAndMakesThisProcesssDirectory(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "999999999"), 0o700); err != nil {
		t.Fatal(err)
	}
	sp, _, err := newSpool(root)
	if err != nil {
		t.Fatal(err)
	}
	f, err := sp.create("upload-*.pdf")
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(f.Name()) != filepath.Join(root, strconv.Itoa(os.Getpid())) {
		t.Fatalf("spooled to %s", f.Name())
	}
	release(f)
	left, _ := os.ReadDir(sp.dir)
	if _, err := os.Stat(filepath.Join(root, "999999999")); len(left) != 0 || err == nil {
		t.Fatalf("left %v; stale directory still there: %v", left, err == nil)
	}
}
