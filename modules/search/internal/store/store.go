// Package store holds the search index rows (search.documents), the site
// settings and the module's small state, and every query on them. It speaks
// database/sql (through the transaction on the context when there is one)
// because the index queries pass arrays and vectors gorm would rewrite.
package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/roundsedu/rounds/platform/db"
)

// Store is the module's data access.
type Store struct{ db *db.DB }

// New makes the store.
func New(d *db.DB) *Store { return &Store{db: d} }

// DB is the handle the store was built on (services open transactions on it).
func (s *Store) DB() *db.DB { return s.db }

type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// q is the transaction on ctx, or the pool.
func (s *Store) q(ctx context.Context) querier {
	if db.InTx(ctx) {
		if tx, err := db.SQLTx(ctx); err == nil {
			return tx
		}
	}
	return s.db.StdPool()
}

// kinds maps each kind to its SQL literal. Index queries name the kind as a
// literal, not a parameter, so the planner can match the per-kind partial
// indexes whatever plan it caches.
var kinds = map[string]string{"question": "'question'", "article": "'article'", "deck": "'deck'", "media": "'media'"}

func kindSQL(kind string) string {
	lit, ok := kinds[kind]
	if !ok {
		panic(fmt.Sprintf("search/store: unknown kind %q", kind))
	}
	return lit
}

// Key names one index row.
type Key struct {
	Kind string
	ID   int64
}
