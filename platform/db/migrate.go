package db

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"sort"

	"github.com/pressly/goose/v3"
)

// migrateLock is the advisory lock that serialises concurrent `rounds migrate`
// runs (several replicas starting at once with migrate_on_start).
const migrateLock = 7_470_001

// PlatformSchema migrates before every module: it creates the extensions
// and the tables of events, jobs and settings that modules' migrations use.
const PlatformSchema = "platform"

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

// Migrate applies every folder's migrations (Folders). A module's files
// live in fsys under <module>/, its tables in the Postgres schema of the
// same name, and its applied versions in <module>.goose_db_version, so
// modules migrate independently of each other.
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
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", migrateLock); err != nil {
		return fmt.Errorf("migrate: lock: %w", err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", migrateLock)

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
