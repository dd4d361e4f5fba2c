package harness

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// A test process keeps its harnesses' files (uploads) in one scratch
// directory, <TMPDIR>/rounds-e2e-<random>, holding an owner.lock that the
// process keeps flocked while it has harnesses. The kernel drops the lock
// however the process ends, so the first harness of a later run can tell a
// dead process's leftovers (removed) from a live one's (kept), with no
// clock and no pid to trust.
const (
	scratchPrefix = "rounds-e2e-"
	ownerLock     = "owner.lock"
	// unownedAge is when a rounds-e2e-* directory with no owner.lock goes:
	// older harnesses made such directories (possibly still in use by a
	// process running old code), and a new one has no lock for the instant
	// between mkdir and lock.
	unownedAge = 24 * time.Hour
)

var scratch struct {
	sync.Mutex
	dir   string
	lock  *os.File
	users map[string]bool // the harness directories in dir
}

// newDataDir makes one harness's directory in this process's scratch
// directory, sweeping abandoned ones and claiming a scratch directory first
// when the process has none.
func newDataDir() (string, error) {
	scratch.Lock()
	defer scratch.Unlock()
	if len(scratch.users) == 0 {
		tmp := os.TempDir()
		sweep(tmp, time.Now())
		dir, lock, err := claim(tmp)
		if err != nil {
			return "", err
		}
		scratch.dir, scratch.lock, scratch.users = dir, lock, map[string]bool{}
	}
	d, err := os.MkdirTemp(scratch.dir, "h-")
	if err != nil {
		if len(scratch.users) == 0 {
			err = errors.Join(err, dropScratch())
		}
		return "", err
	}
	scratch.users[d] = true
	return d, nil
}

// releaseDataDir removes a harness's directory, and the scratch directory
// with it when no other harness of this process remains. Releasing twice is
// harmless.
func releaseDataDir(d string) error {
	scratch.Lock()
	defer scratch.Unlock()
	if !scratch.users[d] {
		return nil
	}
	delete(scratch.users, d)
	err := os.RemoveAll(d)
	if len(scratch.users) == 0 {
		err = errors.Join(err, dropScratch())
	}
	return err
}

func dropScratch() error {
	// Removed while still locked, so no sweeper races the removal.
	err := errors.Join(os.RemoveAll(scratch.dir), scratch.lock.Close())
	scratch.dir, scratch.lock, scratch.users = "", nil, nil
	return err
}

// claim makes a scratch directory owned by this process.
func claim(tmp string) (string, *os.File, error) {
	dir, err := os.MkdirTemp(tmp, scratchPrefix)
	if err != nil {
		return "", nil, err
	}
	f, err := os.CreateTemp(dir, ".claiming-")
	if err == nil {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		// Named owner.lock only once locked: a sweeper never finds it free
		// while this process lives.
		if err == nil {
			err = os.Rename(f.Name(), filepath.Join(dir, ownerLock))
		}
		if err != nil {
			f.Close()
		}
	}
	if err != nil {
		os.RemoveAll(dir)
		return "", nil, err
	}
	return dir, f, nil
}

// sweep removes the rounds-e2e-* directories in tmp whose owner is gone.
func sweep(tmp string, now time.Time) {
	dirs, _ := filepath.Glob(filepath.Join(tmp, scratchPrefix+"*"))
	for _, d := range dirs {
		removeIfAbandoned(d, now)
	}
}

func removeIfAbandoned(dir string, now time.Time) {
	info, err := os.Lstat(dir)
	if err != nil || !info.IsDir() {
		return
	}
	f, err := os.Open(filepath.Join(dir, ownerLock))
	if errors.Is(err, fs.ErrNotExist) {
		if now.Sub(info.ModTime()) > unownedAge {
			os.RemoveAll(dir)
		}
		return
	}
	if err != nil {
		return // not ours to judge (another user's, say)
	}
	defer f.Close()
	// Held while removing, so a concurrent sweeper leaves it alone.
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
		os.RemoveAll(dir)
	}
}
