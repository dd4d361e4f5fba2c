package db

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"log/slog"
	"sort"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/riverqueue/river/rivermigrate"
)

// migrateLock is the advisory lock that serialises concurrent `rounds migrate`
// runs (several replicas starting at once with migrate_on_start).
const migrateLock = 7_470_001

// PlatformSchema migrates before every module: it creates the extensions
// and the tables of events, jobs and settings that modules' migrations use.
const PlatformSchema = "platform"

// RiverSchema holds River's tables (the job queue of platform/jobs). River's
// own migrations (rivermigrate) create and upgrade them before the platform
// folder, whose migrations refer to them.
const RiverSchema = "river"

// RiverMigrations are River's own migrations as Migrate applies them (the
// e2e harness keys its template database on them too).
func RiverMigrations() fs.FS {
	return riverdatabasesql.New(nil).GetMigrationFS(riverdriver.MigrationLineMain)
}

// Folders lists the migration folders of fsys in the order they apply:
// platform first, then the modules by name (modules never join or refer
// across schemas, so their relative order does not matter).
func Folders(fsys fs.FS) ([]string, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, err
	}
	out := []string{}
	for _, e := range entries {
		if e.IsDir() && e.Name() != PlatformSchema {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	if _, err := fs.Stat(fsys, PlatformSchema); err == nil {
		out = append([]string{PlatformSchema}, out...)
	}
	return out, nil
}

// Migrate applies River's migrations, then every folder's (Folders). A
// module's files live in fsys under <module>/, its tables in the Postgres
// schema of the same name, and its applied versions in
// <module>.goose_db_version, so modules migrate independently of each other.
func Migrate(ctx context.Context, d *DB, fsys fs.FS, log *slog.Logger) error {
	modules, err := Folders(fsys)
	if err != nil {
		return err
	}
	conn, err := d.sql.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	// goose's session locker polls pg_try_advisory_lock rather than waiting
	// in one blocking pg_advisory_lock: a waiting statement holds a
	// snapshot, and a CREATE INDEX CONCURRENTLY run by the holder (on another
	// connection of the pool, where Postgres sees no deadlock) waits for
	// every older snapshot, so two replicas migrating at once would wait on
	// each other for ever. Once a second for up to an hour: an index build
	// over a large bank takes minutes.
	locker, err := lock.NewPostgresSessionLocker(lock.WithLockID(migrateLock), lock.WithLockTimeout(1, 3600))
	if err != nil {
		return err
	}
	if err := locker.SessionLock(ctx, conn); err != nil {
		return fmt.Errorf("migrate: lock: %w", err)
	}
	defer locker.SessionUnlock(context.WithoutCancel(ctx), conn)

	if err := migrateRiver(ctx, d, conn, log); err != nil {
		return err
	}
	for _, module := range modules {
		sub, err := fs.Sub(fsys, module)
		if err != nil {
			return err
		}
		if _, err := conn.ExecContext(ctx, fmt.Sprintf("CREATE SCHEMA IF NOT EXISTS %q", module)); err != nil {
			return fmt.Errorf("migrate %s: schema: %w", module, err)
		}
		p, err := goose.NewProvider(goose.DialectPostgres, d.sql, sub,
			goose.WithTableName(module+".goose_db_version"),
			goose.WithDisableGlobalRegistry(true),
		)
		if err != nil {
			return fmt.Errorf("migrate %s: %w", module, err)
		}
		results, err := p.Up(ctx)
		if err != nil {
			return fmt.Errorf("migrate %s: %w", module, err)
		}
		for _, r := range results {
			log.Info("migration applied", "module", module, "version", r.Source.Version,
				"file", r.Source.Path, "duration_ms", r.Duration.Milliseconds())
		}
	}
	return nil
}

// migrateRiver applies River's migrations in its schema, each version in a
// transaction of its own as River requires, and records them in River's
// own version table (river.river_migration), where River's tools look.
func migrateRiver(ctx context.Context, d *DB, conn *sql.Conn, log *slog.Logger) error {
	if _, err := conn.ExecContext(ctx, fmt.Sprintf("CREATE SCHEMA IF NOT EXISTS %q", RiverSchema)); err != nil {
		return fmt.Errorf("migrate river: schema: %w", err)
	}
	m, err := rivermigrate.New(riverdatabasesql.New(d.sql),
		&rivermigrate.Config{Schema: RiverSchema, Logger: log.With("module", RiverSchema)})
	if err == nil {
		_, err = m.Migrate(ctx, rivermigrate.DirectionUp, nil)
	}
	if err != nil {
		return fmt.Errorf("migrate river: %w", err)
	}
	return nil
}
