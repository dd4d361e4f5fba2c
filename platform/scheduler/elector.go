package scheduler

import (
	"context"
	"errors"
	"sync"

	"github.com/roundsedu/rounds/platform/db"
)

// ErrNotLeader is the elector's answer on a standby.
var ErrNotLeader = errors.New("scheduler: not the leader")

// leaderLock is the advisory lock key the leader holds.
const leaderLock = 7_470_002

// Elector makes one scheduler the leader by holding a session-level Postgres
// advisory lock on a dedicated connection. The lock goes when the leader
// releases it or its session dies, and the next standby to ask takes it.
type Elector struct {
	db   *db.DB
	key  int64
	mu   sync.Mutex
	lock *db.SessionLock
}

// NewElector makes an elector on the given lock key.
func NewElector(d *db.DB, key int64) *Elector { return &Elector{db: d, key: key} }

// IsLeader returns nil while this process holds the lock, trying to take it
// when it does not.
func (e *Elector) IsLeader(ctx context.Context) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.lock != nil {
		if e.lock.Alive(ctx) {
			return nil
		}
		e.lock.Drop()
		e.lock = nil
	}
	lock, err := e.db.TryAdvisoryLock(ctx, e.key)
	if err != nil {
		return err
	}
	if lock == nil {
		return ErrNotLeader
	}
	e.lock = lock
	return nil
}

// Release gives up leadership.
func (e *Elector) Release(ctx context.Context) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.lock != nil {
		e.lock.Release(ctx)
		e.lock = nil
	}
}
