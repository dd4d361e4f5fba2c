// Package apperr is the one error type services return to the HTTP layer.
// A service says what went wrong (a Code and a one-line Message); the HTTP
// layer alone decides the status and writes the envelope.
package apperr

import (
	"errors"
	"fmt"
	"net/http"
	"time"
)

// Code is what clients switch on: one of the spec's codes, the variables
// below and nothing else. Its field is unexported so that no module can
// make a code of its own (a refusal's detail goes in Message).
type Code struct{ name string }

// String is the code as the envelope writes it.
func (c Code) String() string { return c.name }

// The codes of the spec.
var (
	BadRequest      = Code{"bad_request"}
	Unauthenticated = Code{"unauthenticated"}
	Forbidden       = Code{"forbidden"}
	// NotFound is also the code of 405 (no such operation: the path has not
	// this method) and 410 (gone for good: a closed route, a revoked link):
	// the spec's list has no other code for them (Gone, MethodNotAllowed).
	NotFound       = Code{"not_found"}
	Conflict       = Code{"conflict"}
	TooLarge       = Code{"too_large"}
	Invalid        = Code{"invalid_request"}
	RateLimited    = Code{"rate_limited"}
	ServerError    = Code{"server_error"}
	UpstreamFailed = Code{"upstream_failed"}
	Unavailable    = Code{"unavailable"}
)

// Codes are the spec's codes, in its order.
var Codes = []Code{BadRequest, Unauthenticated, Forbidden, NotFound, Conflict, TooLarge, Invalid, RateLimited,
	UpstreamFailed, Unavailable, ServerError}

// Field is one invalid input.
type Field struct {
	Field   string
	Message string
	Type    string
}

// Error is a failure the caller can act on.
type Error struct {
	Code    Code
	Message string
	Fields  []Field
	// RetryAfter is sent as the Retry-After header when set.
	RetryAfter time.Duration
	// Status overrides the code's usual HTTP status. Zero means the usual one.
	Status int
}

func (e *Error) Error() string { return e.Code.String() + ": " + e.Message }

// New makes an error with a formatted message.
func New(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Shorthands for the common cases.
func BadRequestf(format string, args ...any) *Error { return New(BadRequest, format, args...) }
func NotFoundf(format string, args ...any) *Error   { return New(NotFound, format, args...) }
func Forbiddenf(format string, args ...any) *Error  { return New(Forbidden, format, args...) }
func Conflictf(format string, args ...any) *Error   { return New(Conflict, format, args...) }

// Invalidf is a validation failure on one field (422 with fields).
func Invalidf(field, format string, args ...any) *Error {
	msg := fmt.Sprintf(format, args...)
	return &Error{Code: Invalid, Message: msg, Fields: []Field{{Field: field, Message: msg, Type: "value_error"}}}
}

// Gone answers what is gone for good (410, code not_found): a closed
// route, a revoked or expired link.
func Gone(msg string) *Error { return &Error{Code: NotFound, Message: msg, Status: http.StatusGone} }

// MethodNotAllowed answers a method a path does not have (405, code
// not_found: no such operation).
func MethodNotAllowed(msg string) *Error {
	return &Error{Code: NotFound, Message: msg, Status: http.StatusMethodNotAllowed}
}

// As finds an *Error in err's chain.
func As(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// Is reports whether err carries the given code.
func Is(err error, code Code) bool {
	e, ok := As(err)
	return ok && e.Code == code
}
