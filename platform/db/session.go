package db

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"

	"github.com/jackc/pgx/v5/stdlib"
)

// What needs one Postgres session for longer than a statement: LISTEN and
// session-level advisory locks. Such a session is never handed back to the
// pool (it would keep listening, or keep the lock alive), so both close it
// for good.

// Listen holds one session LISTENing on channel: it calls listening once
// the session listens (nil: nothing to do), then notify with each
// notification's payload, until ctx ends or the session fails (the caller
// retries; notifications sent while no session listened are lost).
func (d *DB) Listen(ctx context.Context, channel string, listening func(), notify func(payload string)) error {
	conn, err := d.sql.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	var listenErr error
	_ = conn.Raw(func(dc any) error {
		pc := dc.(*stdlib.Conn).Conn()
		if _, listenErr = pc.Exec(ctx, fmt.Sprintf("LISTEN %q", channel)); listenErr != nil {
			return driver.ErrBadConn
		}
		if listening != nil {
			listening()
		}
		for {
			n, err := pc.WaitForNotification(ctx)
			if listenErr = err; err != nil {
				return driver.ErrBadConn
			}
			notify(n.Payload)
		}
	})
	return listenErr
}

// SessionLock is a session-level advisory lock held on a dedicated
// connection: it lasts until Release or until the session dies.
type SessionLock struct {
	conn *sql.Conn
	key  int64
}

// TryAdvisoryLock takes the session-level advisory lock key without waiting;
// it returns nil (and no error) when another session holds it.
func (d *DB) TryAdvisoryLock(ctx context.Context, key int64) (*SessionLock, error) {
	conn, err := d.sql.Conn(ctx)
	if err != nil {
		return nil, err
	}
	var got bool
	if err := conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock($1)", key).Scan(&got); err != nil {
		conn.Close()
		return nil, err
	}
	if !got {
		conn.Close()
		return nil, nil
	}
	return &SessionLock{conn: conn, key: key}, nil
}

// Alive reports whether the session holding the lock still answers.
func (l *SessionLock) Alive(ctx context.Context) bool { return l.conn.PingContext(ctx) == nil }

// Release unlocks and closes the session for good.
func (l *SessionLock) Release(ctx context.Context) {
	_, _ = l.conn.ExecContext(ctx, "SELECT pg_advisory_unlock($1)", l.key)
	l.Drop()
}

// Drop closes the session without unlocking (it is gone or unreachable;
// Postgres frees the lock with the session).
func (l *SessionLock) Drop() {
	_ = l.conn.Raw(func(any) error { return driver.ErrBadConn })
	_ = l.conn.Close()
}
