package http

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/platform/apperr"
)

// parseIDs reads a comma-separated list of positive ids (empty: none).
func parseIDs(field, s string) ([]int64, error) {
	var out []int64
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		id, err := strconv.ParseInt(part, 10, 64)
		if err != nil || id <= 0 {
			return nil, apperr.Invalidf(field, "%q is not an id", part)
		}
		out = append(out, id)
	}
	return out, nil
}

// Nullable is a body field that may be left out, sent as null, or set:
// PATCH needs all three ("leave it", "clear it", "set it").
type Nullable[T any] struct {
	Sent  bool
	Null  bool
	Value T
}

// UnmarshalJSON records presence and nullness.
func (n *Nullable[T]) UnmarshalJSON(b []byte) error {
	n.Sent = true
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		n.Null = true
		return nil
	}
	return json.Unmarshal(b, &n.Value)
}

// Schema is the contained type's, nullable.
func (n Nullable[T]) Schema(r huma.Registry) *huma.Schema {
	s := r.Schema(reflect.TypeOf(n.Value), true, "")
	cp := *s
	cp.Nullable = true
	return &cp
}
