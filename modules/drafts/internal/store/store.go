// Package store is the drafts module's persistence: gorm rows for
// documents, their pages and sections, extraction batches and drafts, and
// the queries the services need.
package store

import (
	"github.com/roundsedu/rounds/platform/db"
)

// Store reads and writes the drafts schema.
type Store struct{ db *db.DB }

// New makes the store.
func New(d *db.DB) *Store { return &Store{db: d} }

// StringList is a jsonb array of strings.
type StringList = db.JSONList[string]
