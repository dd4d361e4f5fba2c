// Package store is the drafts module's persistence: gorm rows for
// documents, their pages and sections, extraction batches and drafts, and
// the queries the services need.
package store

import (
	"errors"

	"gorm.io/gorm/clause"

	"github.com/roundsedu/rounds/platform/db"
)

// Store reads and writes the drafts schema.
type Store struct{ db *db.DB }

// New makes the store.
func New(d *db.DB) *Store { return &Store{db: d} }

// forUpdate locks the rows a query reads until the transaction ends.
var forUpdate = clause.Locking{Strength: "UPDATE"}

// StringList is a jsonb array of strings.
type StringList = db.JSONList[string]

// ErrNotFound is returned for a missing row.
var ErrNotFound = errors.New("store: not found")

func notFound(err error) error {
	if db.IsNotFound(err) {
		return ErrNotFound
	}
	return err
}
