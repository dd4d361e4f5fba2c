package app

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// spool holds the temporary copies of PDFs (an upload being checked, a
// stored file being read) in a directory of this process's own, under a
// root shared by the processes of one machine. Every path removes its file
// when done; a process that dies cannot, so each start sweeps the
// directories of processes that are gone, and its own (a container
// restarts under the same process id).
type spool struct{ dir string }

// newSpool sweeps root (drafts.spool_dir, else rounds-spool in the temp
// directory) and makes this process's directory in it.
func newSpool(root string) (*spool, int, error) {
	if root == "" {
		root = filepath.Join(os.TempDir(), "rounds-spool")
	}
	if err := os.MkdirAll(root, 0o700); err != nil {
		return nil, 0, fmt.Errorf("drafts: spool directory: %w", err)
	}
	swept := sweepSpool(root, os.Getpid())
	dir := filepath.Join(root, strconv.Itoa(os.Getpid()))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, 0, fmt.Errorf("drafts: spool directory: %w", err)
	}
	return &spool{dir: dir}, swept, nil
}

// sweepSpool removes the directories of root left by processes that no
// longer run, and self's, returning how many files went with them.
func sweepSpool(root string, self int) (files int) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return 0
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || !e.IsDir() || (pid != self && alive(pid)) {
			continue
		}
		dir := filepath.Join(root, e.Name())
		if left, err := os.ReadDir(dir); err == nil {
			files += len(left)
		}
		_ = os.RemoveAll(dir)
	}
	return files
}

// alive reports whether a process with this id runs (signal 0 checks
// without signalling; EPERM means it runs as someone else).
func alive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	err = p.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, syscall.EPERM)
}

// create makes a temporary file; release removes it.
func (s *spool) create(pattern string) (*os.File, error) { return os.CreateTemp(s.dir, pattern) }

func release(f *os.File) {
	f.Close()
	os.Remove(f.Name())
}
