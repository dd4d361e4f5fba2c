package scheduler

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"sync"
)

// ErrNotLeader is the elector's answer on a standby.
var ErrNotLeader = errors.New("scheduler: not the leader")

// leaderLock is the advisory lock key the leader holds.
const leaderLock = 7_470_002

// Elector makes one scheduler the leader by holding a session-level Postgres
// advisory lock on a dedicated connection. The lock goes when the leader
// releases it or its session dies, and the next standby to ask takes it.
type Elector struct {
	db   *sql.DB
	key  int64
	mu   sync.Mutex
	conn *sql.Conn
}

// NewElector makes an elector on the given lock key.
func NewElector(db *sql.DB, key int64) *Elector { return &Elector{db: db, key: key} }

// IsLeader returns nil while this process holds the lock, trying to take it
// when it does not.
func (e *Elector) IsLeader(ctx context.Context) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.conn != nil {
		if e.conn.PingContext(ctx) == nil {
			return nil
		}
		e.dropLocked()
	}
	conn, err := e.db.Conn(ctx)
	if err != nil {
		return err
	}
	var got bool
	if err := conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock($1)", e.key).Scan(&got); err != nil {
		conn.Close()
		return err
	}
	if !got {
		conn.Close()
		return ErrNotLeader
	}
	e.conn = conn
	return nil
}

// Release gives up leadership.
func (e *Elector) Release(ctx context.Context) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.conn != nil {
		_, _ = e.conn.ExecContext(ctx, "SELECT pg_advisory_unlock($1)", e.key)
		e.dropLocked()
	}
}

// dropLocked closes the session for good: a connection that held the lock
// must never go back to the pool, where it would keep the lock alive.
func (e *Elector) dropLocked() {
	_ = e.conn.Raw(func(any) error { return driver.ErrBadConn })
	_ = e.conn.Close()
	e.conn = nil
}
