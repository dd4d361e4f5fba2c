package httpapi

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/platform/apperr"
)

// ParseIDs reads a comma-separated list of positive ids (empty: none).
func ParseIDs(field, s string) ([]int64, error) {
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

// OptionalID is an integer query parameter that may be left out ("int or
// null" in the spec: absent means null).
type OptionalID struct {
	Value int64
	IsSet bool
}

// Receiver lets huma parse into the value.
func (o *OptionalID) Receiver() reflect.Value { return reflect.ValueOf(o).Elem().Field(0) }

// OnParamSet records whether the parameter was sent.
func (o *OptionalID) OnParamSet(isSet bool, _ any) { o.IsSet = isSet }

// Schema documents and validates the parameter as an integer.
func (OptionalID) Schema(huma.Registry) *huma.Schema {
	return &huma.Schema{Type: huma.TypeInteger, Format: "int64"}
}

// Ptr is the value, nil when absent.
func (o OptionalID) Ptr() *int64 {
	if !o.IsSet {
		return nil
	}
	v := o.Value
	return &v
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

// opt turns a body field into the service's optional value.
