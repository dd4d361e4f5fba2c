// Package store is the attempts module's persistence: gorm rows for
// attempts, the questions as sat, answers, saved progress, the reminder
// schedule and the learner's folders, collections and notes, with the
// queries the services need. Every query is scoped to its owner where the
// row has one.
package store

import (
	"context"
	"errors"

	"github.com/roundsedu/rounds/platform/db"
)

// Store reads and writes the attempts schema.
type Store struct{ db *db.DB }

// New makes the store.
func New(d *db.DB) *Store { return &Store{db: d} }

// ErrDuplicate is returned when a write would break a unique rule (a
// learner's folder names).
var ErrDuplicate = errors.New("store: duplicate")

// duplicate maps a unique violation to ErrDuplicate.
func duplicate(err error) error {
	if db.IsUniqueViolation(err) {
		return ErrDuplicate
	}
	return err
}

// ownedRow loads the row of T whose key column is id and which belongs to
// userID, under lock; db.ErrNotFound when it is missing or someone else's
// (the two look the same to the caller).
func ownedRow[T any](ctx context.Context, s *Store, key string, id, userID int64, lock db.Lock) (*T, error) {
	var row T
	if err := s.db.Locking(ctx, lock).Where(key+" = ? AND user_id = ?", id, userID).Take(&row).Error; err != nil {
		return nil, err
	}
	return &row, nil
}

// StringList is a jsonb array of strings.
type StringList = db.JSONList[string]

// AnswerMap is a jsonb object of question id (as text) to answer.
type AnswerMap = db.JSONMap[string]
