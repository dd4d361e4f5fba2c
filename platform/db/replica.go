package db

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"math"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/otel/trace"
	"gorm.io/gorm"

	"github.com/roundsedu/rounds/platform/telemetry"
)

// Reads a replica may answer. With database.read_url set, Replica hands a
// request's listings, search and statistics to a hot standby while three
// things hold: the request only reads (GET, HEAD) and has not written
// itself, the standby has replayed the caller's own last write (the WAL
// position the caller's session carries, see Session), and it lags the
// primary by at most database.read_max_lag. Anything else (a transaction,
// a worker, an event, a write request) reads the primary, as Conn does.
// Each serving process learns where the standby stands by reading both
// WAL positions every database.read_check (WatchReplica); a standby found
// behind counts as lagging since the last check whose position it has
// replayed, so one never seen to catch up answers nothing.

// LSN is a position in Postgres's write-ahead log.
type LSN uint64

// ParseLSN reads Postgres's text form of a position ("16/B374D848").
func ParseLSN(s string) (LSN, error) {
	hi, lo, ok := strings.Cut(s, "/")
	if !ok || len(hi) == 0 || len(lo) == 0 || len(hi) > 8 || len(lo) > 8 {
		return 0, fmt.Errorf("db: %q is not a WAL position", s)
	}
	h, err := strconv.ParseUint(hi, 16, 32)
	if err != nil {
		return 0, fmt.Errorf("db: %q is not a WAL position", s)
	}
	l, err := strconv.ParseUint(lo, 16, 32)
	if err != nil {
		return 0, fmt.Errorf("db: %q is not a WAL position", s)
	}
	return LSN(h<<32 | l), nil
}

// String is Postgres's text form.
func (l LSN) String() string { return fmt.Sprintf("%X/%X", uint64(l)>>32, uint64(l)&0xFFFFFFFF) }

// Session is what the database layer knows of the request a context
// serves (the HTTP edge puts it there, WithSession): whether the request
// only reads, the WAL position of its caller's last write, and whether the
// request has committed a write itself (Tx marks it).
type Session struct {
	reads bool
	seen  LSN
	wrote atomic.Bool
}

type sessionKey struct{}

// WithSession carries a request's session: reads says the request only
// reads; lastWrite is where the primary's WAL stood after the caller's
// last write (0 when the caller has not written lately).
func WithSession(ctx context.Context, reads bool, lastWrite LSN) (context.Context, *Session) {
	s := &Session{reads: reads, seen: lastWrite}
	return context.WithValue(ctx, sessionKey{}, s), s
}

// Wrote reports whether the request committed a transaction.
func (s *Session) Wrote() bool { return s.wrote.Load() }

func sessionOf(ctx context.Context) *Session {
	s, _ := ctx.Value(sessionKey{}).(*Session)
	return s
}

// replica is the standby and what the last check learnt of it.
type replica struct {
	gorm   *gorm.DB
	sql    *sql.DB
	maxLag time.Duration
	check  time.Duration

	replayed atomic.Uint64 // how far it had replayed at the last check
	usable   atomic.Bool   // it answered the last check and lagged at most maxLag
	lagNanos atomic.Int64  // math.MaxInt64: more than every position seen

	mu      sync.Mutex
	samples []sample // the primary's WAL position over the last maxLag

	reads *prometheus.CounterVec
	lag   prometheus.GaugeFunc
}

// sample is where the primary's WAL stood at a time.
type sample struct {
	at  time.Time
	pos LSN
}

// HasReplica reports whether database.read_url is set.
func (d *DB) HasReplica() bool { return d.replica != nil }

// Replica is Conn for a read that a replica may answer: a listing, a
// search, a statistic, read by a request that only reads. It is the
// transaction on ctx when there is one, the replica when it may answer
// this session (see the top of this file), and the primary otherwise.
// Reads that guard a write, and anything a worker reads, stay on Conn.
func (d *DB) Replica(ctx context.Context) *gorm.DB {
	if tx, ok := ctx.Value(txKey{}).(*gorm.DB); ok {
		return tx
	}
	r := d.replica
	if r == nil {
		return d.gorm.WithContext(ctx)
	}
	if s := sessionOf(ctx); s != nil && s.reads && !s.wrote.Load() && r.usable.Load() && s.seen <= LSN(r.replayed.Load()) {
		r.reads.WithLabelValues("replica").Inc()
		return r.gorm.WithContext(ctx)
	}
	r.reads.WithLabelValues("primary").Inc()
	return d.gorm.WithContext(ctx)
}

// WritePosition is where the primary's WAL stands now: every transaction
// committed before the call lies at or before it, so a replica that has
// replayed it shows them.
func (d *DB) WritePosition(ctx context.Context) (LSN, error) {
	var pos string
	if err := d.sql.QueryRowContext(ctx, `SELECT pg_current_wal_insert_lsn()::text`).Scan(&pos); err != nil {
		return 0, err
	}
	return ParseLSN(pos)
}

// WatchReplica reads both WAL positions every database.read_check until
// ctx ends, deciding whether the replica may answer and how far it has
// replayed. Until its first check, and while the replica does not answer,
// every read goes to the primary. Without a replica it returns at once.
func (d *DB) WatchReplica(ctx context.Context, log *slog.Logger) error {
	r := d.replica
	if r == nil {
		return nil
	}
	t := time.NewTicker(r.check)
	defer t.Stop()
	down, behind, started := false, false, time.Now()
	for {
		err := r.observe(ctx, d.sql)
		if err != nil && !down && ctx.Err() == nil {
			log.Warn("db: the read replica cannot be checked; reads go to the primary", "error", err)
		}
		if err == nil && down {
			log.Info("db: the read replica answers again")
		}
		down = err != nil
		// Not yet seen to catch up is only worth a warning once it lasts.
		known := r.lagNanos.Load() != math.MaxInt64 || time.Since(started) > r.maxLag
		if far := err == nil && !r.usable.Load() && known; far != behind {
			behind = far
			if far {
				log.Warn("db: the read replica lags more than database.read_max_lag; reads go to the primary")
			} else {
				log.Info("db: the read replica keeps up again")
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// observe is one check: the primary's position first, then the replica's.
// The primary's is its flushed WAL, what a standby can have been sent.
func (r *replica) observe(ctx context.Context, primary *sql.DB) error {
	ctx, cancel := context.WithTimeout(ctx, max(r.check, time.Second))
	defer cancel()
	now := time.Now()
	var p, q sql.NullString
	if err := primary.QueryRowContext(ctx, `SELECT pg_current_wal_flush_lsn()::text`).Scan(&p); err != nil {
		r.usable.Store(false)
		return fmt.Errorf("primary: %w", err)
	}
	// A standby reports what it replayed; read_url naming a primary (one
	// server for both) reports its own position, so it always keeps up.
	err := r.sql.QueryRowContext(ctx, `SELECT CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn()
		ELSE pg_current_wal_insert_lsn() END::text`).Scan(&q)
	if err != nil || !q.Valid {
		r.usable.Store(false)
		if err == nil {
			err = fmt.Errorf("it has replayed nothing yet")
		}
		return fmt.Errorf("replica: %w", err)
	}
	primaryPos, err := ParseLSN(p.String)
	if err != nil {
		return err
	}
	replayed, err := ParseLSN(q.String)
	if err != nil {
		return err
	}
	lag, known := r.record(now, primaryPos, replayed)
	r.replayed.Store(uint64(replayed))
	if known {
		r.lagNanos.Store(int64(lag))
	} else {
		r.lagNanos.Store(math.MaxInt64)
	}
	r.usable.Store(known && lag <= r.maxLag)
	return nil
}

// record keeps the primary's position at now and returns how stale the
// replica may be at most: the time since the newest check whose primary
// position it has replayed, as it shows every write committed before
// that check. known is false when it has replayed none of the positions
// kept (those of the last maxLag and the newest before): a replica found
// behind at start-up, or stalled for longer than maxLag.
func (r *replica) record(now time.Time, primary, replayed LSN) (lag time.Duration, known bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.samples = append(r.samples, sample{at: now, pos: primary})
	cut := 0
	for cut+1 < len(r.samples) && now.Sub(r.samples[cut+1].at) > r.maxLag {
		cut++
	}
	r.samples = r.samples[cut:]
	for i := len(r.samples) - 1; i >= 0; i-- {
		if r.samples[i].pos <= replayed {
			return now.Sub(r.samples[i].at), true
		}
	}
	return 0, false
}

// ReplicaMetrics are the replica's gauges and counters for /metrics (nil
// without a replica).
func (d *DB) ReplicaMetrics() []prometheus.Collector {
	if d.replica == nil {
		return nil
	}
	return []prometheus.Collector{d.replica.reads, d.replica.lag}
}

func openReplica(g *gorm.DB, sqlDB *sql.DB, maxLag, check time.Duration) *replica {
	r := &replica{gorm: g, sql: sqlDB, maxLag: maxLag, check: check,
		reads: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "rounds_db_replica_reads_total",
			Help: "Reads that a replica may answer, by where they went (replica, primary)."}, []string{"target"}),
	}
	r.lag = prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "rounds_db_replica_lag_seconds",
		Help: "How stale the read replica may be at most, at the last check (+Inf: behind every primary position seen)."},
		func() float64 {
			if n := r.lagNanos.Load(); n != math.MaxInt64 {
				return time.Duration(n).Seconds()
			}
			return math.Inf(1) // behind every position seen
		})
	return r
}

// ReplicaTx is Tx for reads a replica may answer: a read-only transaction
// carried on ctx, on the replica when Replica would go there, else on the
// primary, for a read of several statements that must agree or that sets
// a planner option (SET LOCAL). Inside a transaction fn joins it.
func (d *DB) ReplicaTx(ctx context.Context, fn func(ctx context.Context) error) error {
	if InTx(ctx) {
		return fn(ctx)
	}
	ctx, span := telemetry.Start(ctx, "db.transaction", trace.SpanKindClient)
	err := d.Replica(ctx).Transaction(func(tx *gorm.DB) error {
		return fn(context.WithValue(ctx, txKey{}, tx))
	}, &sql.TxOptions{ReadOnly: true})
	telemetry.End(span, err)
	return err
}
