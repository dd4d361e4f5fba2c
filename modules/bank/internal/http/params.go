// Package http holds the bank's thin huma handlers: decode (huma validates),
// call the service, map the result to the wire shapes of the spec.
package http

import (
	"github.com/roundsedu/rounds/modules/bank/internal/app"
	"github.com/roundsedu/rounds/platform/httpapi"
)

// patchOpt turns a PATCH body field into the service's "leave, clear or set".
func patchOpt[T any](n httpapi.Nullable[T]) app.Opt[T] {
	if !n.Sent {
		return app.Opt[T]{}
	}
	if n.Null {
		return app.Opt[T]{Set: true}
	}
	v := n.Value
	return app.Opt[T]{Set: true, Value: &v}
}
