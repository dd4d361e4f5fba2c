// Package http holds the bank's thin huma handlers: decode (huma validates),
// call the service, map the result to the wire shapes of the spec.
package http

import (
	"bytes"
	"encoding/json"
	"reflect"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/modules/bank/internal/app"
)

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
func opt[T any](n Nullable[T]) app.Opt[T] {
	if !n.Sent {
		return app.Opt[T]{}
	}
	if n.Null {
		return app.Opt[T]{Set: true}
	}
	v := n.Value
	return app.Opt[T]{Set: true, Value: &v}
}
