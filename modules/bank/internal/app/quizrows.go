package app

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/roundsedu/rounds/modules/bank/internal/store"
)

// Every quiz read opens with one row: the quiz, its category's name, its
// content version and count, whose saved test it is. Reading it costs more
// than the rest of a cached read, so each process keeps the rows in memory
// and forgets one when the bank's triggers say it changed (channel
// quizRowsChannel, migration bank 00009). While no session listens (at
// start, after a lost connection) nothing is kept: every read goes to the
// database, as before. A write of this process forgets every row once it
// commits, so the writer reads its own write at once; other processes hear
// of it when Postgres delivers the notification, within milliseconds.
// Rows are kept only once the session has heard its own probe, sent from
// another connection: behind a transaction-pooling PgBouncer a LISTEN
// succeeds but hears nothing, and then nothing is kept. A row is kept at
// most quizRowKeptFor even so: a session cut off without a word (a network
// partition) would otherwise hear nothing and say nothing
// (docs/decisions/bank.md, "The quiz row in memory").

const (
	quizRowsChannel = "bank_quiz_rows"
	quizRowsKept    = 4096
	quizRowKeptFor  = 10 * time.Second
	// quizRowsRetry is the wait before listening again after a lost session.
	quizRowsRetry = time.Second
	// quizRowsProbe starts the payload of a probe (never a quiz id);
	// quizRowsProbeWait is how long a probe may take before it is said
	// that none arrives.
	quizRowsProbe     = "probe "
	quizRowsProbeWait = 5 * time.Second
)

type quizRows struct {
	cache *lru.Cache[int64, keptQuizRow]
	live  atomic.Bool // a session listens: what is kept is forgotten when it changes
	// mu orders keeping a row against forgetting: a row read before a
	// forget (gen moved on) may be stale and is not kept.
	mu  sync.Mutex
	gen uint64
}

type keptQuizRow struct {
	row  store.QuizVersioned
	read time.Time
}

func newQuizRows() *quizRows {
	c, err := lru.New[int64, keptQuizRow](quizRowsKept)
	if err != nil {
		panic(err) // only for a size below one
	}
	return &quizRows{cache: c}
}

// get returns quiz id's row, from memory when kept, else from load (kept
// when nothing changed meanwhile). The row is shared: callers must not
// write through its pointers.
func (r *quizRows) get(id int64, load func() (*store.QuizVersioned, error)) (*store.QuizVersioned, error) {
	if !r.live.Load() {
		return load()
	}
	if k, ok := r.cache.Get(id); ok && time.Since(k.read) < quizRowKeptFor {
		return &k.row, nil
	}
	r.mu.Lock()
	gen := r.gen
	r.mu.Unlock()
	read := time.Now()
	z, err := load()
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	if gen == r.gen && r.live.Load() {
		r.cache.Add(id, keptQuizRow{row: *z, read: read})
	}
	r.mu.Unlock()
	return z, nil
}

// heard takes a notification: probe (this session's own) starts keeping
// rows, another process's probe means nothing, anything else is a change.
func (r *quizRows) heard(probe string) func(payload string) {
	return func(payload string) {
		switch {
		case payload == probe:
			r.setLive(true)
		case !strings.HasPrefix(payload, quizRowsProbe):
			r.forget(payload)
		}
	}
}

// forget drops one quiz's row, or every row for "*" (or a payload that
// names no quiz).
func (r *quizRows) forget(payload string) {
	id, err := strconv.ParseInt(payload, 10, 64)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.gen++
	if err != nil {
		r.cache.Purge()
		return
	}
	r.cache.Remove(id)
}

// forgetAll drops every row (a write of this process committed).
func (r *quizRows) forgetAll() { r.forget("*") }

// setLive starts keeping rows (a session listens, so nothing kept can miss
// a change) or stops and forgets them (none listens).
func (r *quizRows) setLive(live bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.gen++
	r.cache.Purge()
	r.live.Store(live)
}

// FollowQuizRows listens for changed quiz rows until ctx ends, listening
// again after a lost session; rows are kept only while a session listens
// and has heard its probe.
func (s *Service) FollowQuizRows(ctx context.Context) error {
	for ctx.Err() == nil {
		probe := quizRowsProbe + strconv.FormatInt(rand.Int64(), 36)
		sent := func() {
			if err := s.db.Conn(ctx).Exec(`SELECT pg_notify(?, ?)`, quizRowsChannel, probe).Error; err != nil {
				s.log.WarnContext(ctx, "bank: quiz rows probe not sent", "err", err)
			}
			time.AfterFunc(quizRowsProbeWait, func() {
				if !s.quizRows.live.Load() && ctx.Err() == nil {
					s.log.WarnContext(ctx, "bank: quiz rows are read from the database: the listening session did not hear its probe (a transaction-pooling PgBouncer?)")
				}
			})
		}
		err := s.db.Listen(ctx, quizRowsChannel, sent, s.quizRows.heard(probe))
		lost := s.quizRows.live.Load()
		s.quizRows.setLive(false)
		if ctx.Err() == nil {
			level := slog.LevelDebug // still down: said once when it was lost
			if lost {
				level = slog.LevelWarn
			}
			s.log.Log(ctx, level, "bank: quiz rows are read from the database until listening again", "err", err)
			select {
			case <-ctx.Done():
			case <-time.After(quizRowsRetry):
			}
		}
	}
	return nil
}
