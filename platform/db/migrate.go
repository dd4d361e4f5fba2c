package db

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"

	"github.com/pressly/goose/v3"
)

// migrateLock is the advisory lock that serialises concurrent `rounds migrate`
// runs (several replicas starting at once with migrate_on_start).
const migrateLock = 7_470_001

// Migrate applies each module's migrations in the given order. A module's
// files live in fsys under <module>/, its tables in the Postgres schema of the
// same name, and its applied versions in <module>.goose_db_version, so modules
// migrate independently of each other. Modules without a folder are skipped.
func Migrate(ctx context.Context, d *DB, fsys fs.FS, modules []string, log *slog.Logger) error {
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
		if _, err := fs.Stat(sub, "."); err != nil {
			continue
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
