package harness

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"sort"

	"gorm.io/gorm"

	"github.com/roundsedu/rounds/migrations"
	"github.com/roundsedu/rounds/platform/config"
	"github.com/roundsedu/rounds/platform/db"
)

// AdminURL is the server the tests create databases on: ROUNDS_TEST_DATABASE_URL,
// else DATABASE_URL, else the project-local cluster of `task db:start` on
// ROUNDS_PG_PORT (the variable that moves that cluster), 54329 by default.
func AdminURL() string {
	for _, k := range []string{"ROUNDS_TEST_DATABASE_URL", "DATABASE_URL"} {
		if v := os.Getenv(k); v != "" {
			return v
		}
	}
	port := os.Getenv("ROUNDS_PG_PORT")
	if port == "" {
		port = "54329"
	}
	return "postgres://rounds@127.0.0.1:" + port + "/postgres?sslmode=disable"
}

// templateLock serialises template builds and clones across test processes.
const templateLock = 7_470_100

// templateName is keyed on the migrations' content (River's included), so
// a changed migration gets a fresh template and suites never see a stale
// schema.
func templateName() (string, error) {
	h := sha256.New()
	for _, fsys := range []fs.FS{db.RiverMigrations(), migrations.FS} {
		var files []string
		err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				files = append(files, p)
			}
			return err
		})
		if err != nil {
			return "", err
		}
		sort.Strings(files)
		for _, f := range files {
			b, _ := fs.ReadFile(fsys, f)
			fmt.Fprintf(h, "%s\x00%s\x00", f, b)
		}
	}
	return "rounds_tpl_" + hex.EncodeToString(h.Sum(nil))[:12], nil
}

// admin opens the server's maintenance database the way the app opens its
// own (platform/db), with a pool of one: CREATE/DROP DATABASE and the
// template lock need no more.
func admin(ctx context.Context) (*db.DB, error) {
	d, err := db.Open(ctx, config.Database{URL: AdminURL(), MaxOpenConns: 1, MaxIdleConns: 1}, slog.New(slog.DiscardHandler))
	if err != nil {
		return nil, fmt.Errorf("harness: cannot reach Postgres at %s (run `go tool task db:start`): %w", AdminURL(), err)
	}
	return d, nil
}

func withDatabase(raw, name string) string {
	u, err := url.Parse(raw)
	if err != nil {
		panic(err)
	}
	u.Path = "/" + name
	return u.String()
}

// CloneDatabase makes a fresh database from the migrated template (building
// the template first if this migration set has none) and returns its URL.
func CloneDatabase(ctx context.Context) (string, error) {
	d, err := admin(ctx)
	if err != nil {
		return "", err
	}
	defer d.Close()
	tpl, err := templateName()
	if err != nil {
		return "", err
	}
	suffix := make([]byte, 5)
	_, _ = rand.Read(suffix)
	name := "rounds_t_" + hex.EncodeToString(suffix)
	// One connection holds the session-level advisory lock for the whole
	// build-or-clone, so the pool of one is pinned to it.
	err = d.Detached(ctx).Connection(func(conn *gorm.DB) error {
		if err := conn.Exec("SELECT pg_advisory_lock(?)", templateLock).Error; err != nil {
			return err
		}
		defer conn.WithContext(context.WithoutCancel(ctx)).Exec("SELECT pg_advisory_unlock(?)", templateLock)
		var exists bool
		if err := conn.Raw("SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = ?)", tpl).Scan(&exists).Error; err != nil {
			return err
		}
		if !exists {
			if err := buildTemplate(ctx, conn, tpl); err != nil {
				return err
			}
		}
		return conn.Exec(fmt.Sprintf("CREATE DATABASE %q TEMPLATE %q", name, tpl)).Error
	})
	if err != nil {
		return "", err
	}
	return withDatabase(AdminURL(), name), nil
}

// buildTemplate migrates a scratch database and renames it into place, so a
// build that dies half-way never leaves a template behind.
func buildTemplate(ctx context.Context, conn *gorm.DB, tpl string) error {
	scratch := tpl + "_build"
	if err := conn.Exec(fmt.Sprintf("DROP DATABASE IF EXISTS %q WITH (FORCE)", scratch)).Error; err != nil {
		return err
	}
	if err := conn.Exec(fmt.Sprintf("CREATE DATABASE %q", scratch)).Error; err != nil {
		return err
	}
	cfg := config.Database{URL: withDatabase(AdminURL(), scratch), MaxOpenConns: 2, MaxIdleConns: 1}
	d, err := db.Open(ctx, cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	err = db.Migrate(ctx, d, migrations.FS, slog.New(slog.DiscardHandler))
	d.Close()
	if err != nil {
		return fmt.Errorf("harness: migrate template: %w", err)
	}
	return conn.Exec(fmt.Sprintf("ALTER DATABASE %q RENAME TO %q", scratch, tpl)).Error
}

// DropDatabase removes a cloned database, closing whatever still uses it.
func DropDatabase(ctx context.Context, dbURL string) error {
	u, err := url.Parse(dbURL)
	if err != nil {
		return err
	}
	d, err := admin(ctx)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Detached(ctx).Exec(fmt.Sprintf("DROP DATABASE IF EXISTS %q WITH (FORCE)", u.Path[1:])).Error
}

// SetConnectable opens or closes a database to new connections and ends the
// existing ones: a real "database down" for the app using it.
func SetConnectable(ctx context.Context, dbURL string, allow bool) error {
	u, err := url.Parse(dbURL)
	if err != nil {
		return err
	}
	name := u.Path[1:]
	d, err := admin(ctx)
	if err != nil {
		return err
	}
	defer d.Close()
	conn := d.Detached(ctx)
	if err := conn.Exec(fmt.Sprintf("ALTER DATABASE %q ALLOW_CONNECTIONS %t", name, allow)).Error; err != nil {
		return err
	}
	if !allow {
		err = conn.Exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ?", name).Error
	}
	return err
}
