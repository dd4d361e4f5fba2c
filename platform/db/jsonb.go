package db

import (
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// JSONList is a slice kept in a jsonb column; nil is stored as [] so the
// column never holds null.
type JSONList[T any] []T

// Value encodes the list.
func (l JSONList[T]) Value() (driver.Value, error) {
	if l == nil {
		return "[]", nil
	}
	b, err := json.Marshal([]T(l))
	return string(b), err
}

// Scan decodes the list.
func (l *JSONList[T]) Scan(src any) error { return ScanJSON(src, (*[]T)(l)) }

// JSONMap is a string-keyed map kept in a jsonb column; nil is stored as {}.
type JSONMap[V any] map[string]V

// Value encodes the map.
func (m JSONMap[V]) Value() (driver.Value, error) {
	if m == nil {
		return "{}", nil
	}
	b, err := json.Marshal(map[string]V(m))
	return string(b), err
}

// Scan decodes the map.
func (m *JSONMap[V]) Scan(src any) error { return ScanJSON(src, (*map[string]V)(m)) }

// ScanJSON decodes a json/jsonb column value into dst (null leaves dst alone).
func ScanJSON(src, dst any) error {
	switch v := src.(type) {
	case nil:
		return nil
	case []byte:
		return json.Unmarshal(v, dst)
	case string:
		return json.Unmarshal([]byte(v), dst)
	}
	return fmt.Errorf("db: cannot scan %T as JSON", src)
}

// IDArray renders ids as a Postgres array literal bound as one parameter
// (`= ANY(?::bigint[])`, `unnest(?::bigint[])`): gorm would expand a Go
// slice into a list, and a literal keeps any length to one placeholder.
func IDArray(ids []int64) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, id := range ids {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatInt(id, 10))
	}
	b.WriteByte('}')
	return b.String()
}
