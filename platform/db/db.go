// Package db opens the Postgres pool behind gorm and carries a transaction on
// the context, so a service can open one unit of work and every store call,
// event publish and job dispatch inside it joins the same transaction.
package db

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"go.opentelemetry.io/otel/trace"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
	"gorm.io/gorm/logger"

	"github.com/roundsedu/rounds/platform/config"
	"github.com/roundsedu/rounds/platform/telemetry"
)

// DB is the shared database handle.
type DB struct {
	gorm    *gorm.DB
	sql     *sql.DB
	replica *replica // database.read_url; nil without
}

// Open connects with the pool limits from config and checks the connection,
// and the read replica's when database.read_url is set.
func Open(ctx context.Context, cfg config.Database, log *slog.Logger) (*DB, error) {
	g, sqlDB, err := open(ctx, cfg.URL, cfg, log)
	if err != nil {
		return nil, err
	}
	d := &DB{gorm: g, sql: sqlDB}
	if cfg.ReadURL != "" {
		rg, rsql, err := open(ctx, cfg.ReadURL, cfg, log)
		if err != nil {
			sqlDB.Close()
			return nil, fmt.Errorf("db: read replica: %w", err)
		}
		d.replica = openReplica(rg, rsql, cfg.ReadMaxLag, cfg.ReadCheck)
	}
	return d, nil
}

// open is one pool (the primary's or the replica's) behind gorm.
func open(ctx context.Context, url string, cfg config.Database, log *slog.Logger) (*gorm.DB, *sql.DB, error) {
	g, err := gorm.Open(postgres.Open(url), &gorm.Config{
		Logger: quietLogger{Interface: logger.NewSlogLogger(log, logger.Config{
			SlowThreshold:             cfg.SlowQuery,
			LogLevel:                  logger.Warn,
			IgnoreRecordNotFoundError: true,
			ParameterizedQueries:      true, // never log parameter values (tokens, emails)
		}), slow: cfg.SlowQuery},
		TranslateError:         true,
		SkipDefaultTransaction: true,
		DisableAutomaticPing:   true,
		NowFunc:                func() time.Time { return time.Now().UTC() },
	})
	if err != nil {
		return nil, nil, fmt.Errorf("db: open: %w", err)
	}
	if err := g.Use(tracing{}); err != nil {
		return nil, nil, err
	}
	sqlDB, err := g.DB()
	if err != nil {
		return nil, nil, err
	}
	open, idle := PoolSize(cfg)
	sqlDB.SetMaxOpenConns(open)
	sqlDB.SetMaxIdleConns(idle)
	sqlDB.SetConnMaxLifetime(cfg.ConnMaxLifetime)
	pingCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := sqlDB.PingContext(pingCtx); err != nil {
		sqlDB.Close()
		return nil, nil, fmt.Errorf("db: cannot reach %s: %w", redactURL(url), err)
	}
	return g, sqlDB, nil
}

// PoolSize is the pool's ceiling and idle size: the configured ones, or
// when 0, four connections per CPU (at least 8) all kept idle.
func PoolSize(cfg config.Database) (open, idle int) {
	open = cfg.MaxOpenConns
	if open == 0 {
		open = max(8, 4*runtime.GOMAXPROCS(0))
	}
	idle = cfg.MaxIdleConns
	if idle == 0 || idle > open {
		idle = open
	}
	return open, idle
}

// StdPool is the database/sql pool under gorm, for the platform libraries
// that speak database/sql themselves (goose migrations, the Watermill
// subscribers). It ignores any transaction on a context: modules never use
// it; they go through Conn.
func (d *DB) StdPool() *sql.DB { return d.sql }

// Close releases the pools.
func (d *DB) Close() error {
	if d.replica != nil {
		_ = d.replica.sql.Close()
	}
	return d.sql.Close()
}

// Ping reports whether the database answers.
func (d *DB) Ping(ctx context.Context) error { return d.sql.PingContext(ctx) }

type txKey struct{}

// Conn returns the transaction carried by ctx, or the pool when there is none.
func (d *DB) Conn(ctx context.Context) *gorm.DB {
	if tx, ok := ctx.Value(txKey{}).(*gorm.DB); ok {
		return tx
	}
	return d.gorm.WithContext(ctx)
}

// Detached is the pool even when ctx carries a transaction: for the few
// writes that must stand whatever the caller's transaction does (a rate-limit
// hit counts even when the request fails; a job's progress and outcome are
// recorded by the runner, not by the job's own work).
func (d *DB) Detached(ctx context.Context) *gorm.DB { return d.gorm.WithContext(ctx) }

// Lock is the strength of the row lock a read takes to guard a write.
type Lock string

// The row-lock strengths the modules use.
const (
	// NoLock reads without locking.
	NoLock Lock = ""
	// ForUpdate blocks every other lock and write on the rows.
	ForUpdate Lock = clause.LockingStrengthUpdate
	// ForKeyShare only keeps the rows from being deleted or their keys
	// changed: a child write that must not race its parent's removal.
	ForKeyShare Lock = "KEY SHARE"
)

// Locked is Conn with SELECT ... FOR UPDATE for builder queries (First,
// Take, Find): the one way to take row locks where two requests race; raw
// SQL that needs a lock says FOR UPDATE itself.
func (d *DB) Locked(ctx context.Context) *gorm.DB { return d.Locking(ctx, ForUpdate) }

// Locking is Conn with the given row lock for builder queries (NoLock is
// Conn itself). Outside a transaction a row lock would be released at once,
// so a locking query fails with ErrNoTx instead.
func (d *DB) Locking(ctx context.Context, l Lock) *gorm.DB {
	tx := d.Conn(ctx)
	if l == NoLock {
		return tx
	}
	if !InTx(ctx) {
		_ = tx.AddError(ErrNoTx)
	}
	return tx.Clauses(clause.Locking{Strength: string(l)})
}

// InTx reports whether ctx carries a transaction.
func InTx(ctx context.Context) bool {
	_, ok := ctx.Value(txKey{}).(*gorm.DB)
	return ok
}

// Tx runs fn in one transaction carried on the context. When ctx already
// carries one, fn joins it: the outermost caller owns commit and rollback.
func (d *DB) Tx(ctx context.Context, fn func(ctx context.Context) error) error {
	if InTx(ctx) {
		return fn(ctx)
	}
	ctx, span := telemetry.Start(ctx, "db.transaction", trace.SpanKindClient)
	err := d.gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		return fn(context.WithValue(ctx, txKey{}, tx))
	})
	telemetry.End(span, err)
	if s := sessionOf(ctx); s != nil && err == nil {
		s.wrote.Store(true) // the rest of the request reads what it wrote: the primary
	}
	return err
}

// SQLTx exposes the database/sql transaction behind ctx's gorm transaction,
// for libraries that speak database/sql (the event outbox).
func SQLTx(ctx context.Context) (*sql.Tx, error) {
	tx, ok := ctx.Value(txKey{}).(*gorm.DB)
	if !ok {
		return nil, ErrNoTx
	}
	sqlTx, ok := tx.Statement.ConnPool.(*sql.Tx)
	if !ok {
		return nil, fmt.Errorf("db: transaction is a %T, not *sql.Tx", tx.Statement.ConnPool)
	}
	return sqlTx, nil
}

// ErrNoTx is returned where a transaction is required and ctx has none.
var ErrNoTx = errors.New("db: no transaction on the context")

// ErrNotFound is the one not-found sentinel: gorm's own (First, Take) and
// what stores and facades return for a row the caller cannot have. The
// HTTP edge maps it to 404 not_found when nothing more specific was said.
var ErrNotFound = gorm.ErrRecordNotFound

// IsNotFound reports ErrNotFound anywhere in err's chain.
func IsNotFound(err error) bool { return errors.Is(err, ErrNotFound) }

// IsUniqueViolation reports a unique-constraint conflict, whether gorm
// translated it or it came from raw SQL (database/sql, Raw().Scan).
func IsUniqueViolation(err error) bool {
	var pg *pgconn.PgError
	return errors.Is(err, gorm.ErrDuplicatedKey) || (errors.As(err, &pg) && pg.Code == "23505")
}

// IsUnreachable reports a failure to reach Postgres, as opposed to a failing
// statement: no connection could be made, or the server ended or refused
// the session (SQLSTATE class 08, and 57P01-57P03: shut down, crashed,
// starting). Client input never causes these, so they are 503, not 500.
func IsUnreachable(err error) bool {
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) || errors.Is(err, driver.ErrBadConn) || errors.Is(err, sql.ErrConnDone) {
		return true
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return strings.HasPrefix(pe.Code, "08") || pe.Code == "57P01" || pe.Code == "57P02" || pe.Code == "57P03"
	}
	return false
}

// quietLogger renders a statement only when it will be logged (it failed or
// was slow): gorm's logger renders every statement with its parameters
// before deciding, a measurable share of CPU on hot paths.
type quietLogger struct {
	logger.Interface
	slow time.Duration
}

func (q quietLogger) LogMode(level logger.LogLevel) logger.Interface {
	return quietLogger{Interface: q.Interface.LogMode(level), slow: q.slow}
}

func (q quietLogger) Trace(ctx context.Context, begin time.Time, fc func() (string, int64), err error) {
	failed := err != nil && !errors.Is(err, gorm.ErrRecordNotFound)
	if failed || (q.slow > 0 && time.Since(begin) > q.slow) {
		q.Interface.Trace(ctx, begin, fc, err)
	}
}

func init() {
	// Raw(...).Scan renders every statement with its parameters into a
	// recorder before the real logger decides whether to log it: rendering
	// an autosave's answers that way cost as much as encoding them. The
	// recorder keeps the statement without parameters, as quietLogger logs.
	logger.RecorderParamsFilter = func(_ context.Context, sql string, _ ...any) (string, []any) { return sql, nil }
}

// ParamsFilter keeps parameter values out of logged statements.
func (q quietLogger) ParamsFilter(_ context.Context, sql string, _ ...any) (string, []any) {
	return sql, nil
}

// LikeEscape escapes LIKE's wildcards (%, _) and its escape character in s,
// so a learner's search text matches literally inside a pattern.
func LikeEscape(s string) string {
	return likeEscaper.Replace(s)
}

var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
