// Package store is the attempts module's persistence: gorm rows for
// attempts, the questions as sat, answers, saved progress, the reminder
// schedule and the learner's folders, collections and notes, with the
// queries the services need. Every query is scoped to its owner where the
// row has one.
package store

import (
	"database/sql/driver"
	"errors"

	"gorm.io/gorm"

	"github.com/roundsedu/rounds/platform/db"
)

// Store reads and writes the attempts schema.
type Store struct{ db *db.DB }

// New makes the store.
func New(d *db.DB) *Store { return &Store{db: d} }

// ErrNotFound is returned for a missing row (or one owned by someone else).
var ErrNotFound = errors.New("store: not found")

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

// scanOne reads the single row q finds into a new T (ErrNotFound when it
// finds none).
func scanOne[T any](q *gorm.DB) (*T, error) {
	var row T
	res := q.Scan(&row)
	if res.Error != nil {
		return nil, res.Error
	}
	if res.RowsAffected == 0 {
		return nil, ErrNotFound
	}
	return &row, nil
}

func notFound(err error) error {
	if db.IsNotFound(err) {
		return ErrNotFound
	}
	return err
}

// Lock strengths for reads that guard a write.
const (
	NoLock      = ""
	ForUpdate   = "FOR UPDATE"
	ForKeyShare = "FOR KEY SHARE"
)

// StringList is a jsonb array of strings.
type StringList = db.JSONList[string]

// AnswerMap is a jsonb object of question id (as text) to answer.
type AnswerMap map[string]string

// Value stores the map as a JSON object (never null). Autosave writes it
// on every save, so it is encoded by hand: keys in any order (jsonb keeps
// its own), strings escaped as encoding/json would, without its reflection
// and key sorting.
func (m AnswerMap) Value() (driver.Value, error) {
	b := make([]byte, 0, 16*len(m)+2)
	b = append(b, '{')
	first := true
	for k, v := range m {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = appendJSONString(b, k)
		b = append(b, ':')
		b = appendJSONString(b, v)
	}
	return string(append(b, '}')), nil
}

// appendJSONString appends s as a JSON string. s is valid UTF-8 (it came
// from a decoded JSON body); only quotes, backslashes and control characters
// need escaping.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// Scan reads the JSON object back.
func (m *AnswerMap) Scan(src any) error { return db.ScanJSON(src, (*map[string]string)(m)) }
