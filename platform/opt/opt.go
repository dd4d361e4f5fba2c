// Package opt converts between absent and zero values at the edges where
// the two must differ: JSON's [] against null, and "unset" columns.
package opt

// NonNil returns s, or an empty slice when s is nil (JSON [] instead of null).
func NonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// NilIfZero points at v, or is nil when v is its type's zero value (an
// empty string shown as null).
func NilIfZero[T comparable](v T) *T {
	var zero T
	if v == zero {
		return nil
	}
	return &v
}

// Deref is what p points at, or the zero value when p is nil.
func Deref[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}
