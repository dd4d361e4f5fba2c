// Package store holds the search index rows (search.documents) and the
// module's small state, and every query on them. It goes through gorm on
// the transaction the context carries (platform/db), with raw SQL where the
// index queries need it (full text, vectors, batch updates); vectors are
// pgvector-go values.
package store

import (
	"context"
	"fmt"

	"gorm.io/gorm"

	"github.com/roundsedu/rounds/platform/db"
)

// Store is the module's data access.
type Store struct{ db *db.DB }

// New makes the store.
func New(d *db.DB) *Store { return &Store{db: d} }

// DB is the handle the store was built on (services open transactions on it).
func (s *Store) DB() *db.DB { return s.db }

// conn is the transaction on ctx, or the pool.
func (s *Store) conn(ctx context.Context) *gorm.DB { return s.db.Conn(ctx) }

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
