package httpapi

import (
	"context"
	"log/slog"
	"net/http"
	"reflect"
	"strconv"

	"github.com/danielgtaylor/huma/v2"
)

// Every status an operation can answer is declared in the document (issue
// 33): clients generate their handling from it, and the contract tests
// (e2e/fuzz, and the harness's check of every answer the suites see) fail
// on any status an operation did not declare. An operation declares the
// codes its own rules return (op.Errors); the edge adds what it answers
// for every operation of a kind, so no module has to remember those:
//
//   - 401 and 403 by access level (Register);
//   - 503 for every operation: the database may be unreachable;
//   - 404 for an operation with a path parameter: a caller may always name
//     something that does not exist, or that they may not reach, which
//     answers alike (the house rule);
//   - for a request body: 408 (not sent in time), 413 (over the size
//     limit), and for a JSON body 415 (not JSON); huma adds 422 for any
//     input and 500, and so never falls back to an undocumented "default".
//
// At run time an error answer outside the declared set is logged as an
// error naming the operation (checkDeclared), so drift shows in production
// logs as well as in the tests.
func edgeStatuses[I any]() []int {
	out := []int{http.StatusServiceUnavailable}
	t := reflect.TypeFor[I]()
	if t.Kind() != reflect.Struct {
		return out
	}
	if hasPathParam(t) {
		out = append(out, http.StatusNotFound)
	}
	_, body := t.FieldByName("Body")
	_, raw := t.FieldByName("RawBody")
	if body || raw {
		out = append(out, http.StatusRequestTimeout, http.StatusRequestEntityTooLarge)
	}
	if body {
		out = append(out, http.StatusUnsupportedMediaType)
	}
	return out
}

// documented is the statuses the document declares for one operation.
func documented(doc *huma.OpenAPI, method, path string) map[int]bool {
	out := map[int]bool{}
	item := doc.Paths[path]
	if item == nil {
		return out
	}
	var op *huma.Operation
	switch method {
	case http.MethodGet:
		op = item.Get
	case http.MethodPost:
		op = item.Post
	case http.MethodPut:
		op = item.Put
	case http.MethodPatch:
		op = item.Patch
	case http.MethodDelete:
		op = item.Delete
	}
	if op == nil {
		return out
	}
	for code := range op.Responses {
		if n, err := strconv.Atoi(code); err == nil {
			out[n] = true
		}
	}
	return out
}

// checkDeclared logs an error answer whose status the operation does not
// declare (a client that went away, 499, reads nothing and is not one).
func checkDeclared(ctx context.Context, log *slog.Logger, operation string, declared map[int]bool, err error) {
	se, ok := err.(huma.StatusError)
	if !ok || declared[se.GetStatus()] || se.GetStatus() == 499 {
		return
	}
	log.ErrorContext(ctx, "an operation answered a status its contract does not declare",
		"operation", operation, "status", se.GetStatus(), "error", se.Error(), "request_id", RequestID(ctx))
}

// hasPathParam reports an input struct with a path parameter, embedded
// structs included (huma reads those too).
func hasPathParam(t reflect.Type) bool {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Tag.Get("path") != "" {
			return true
		}
		if f.Anonymous {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct && hasPathParam(ft) {
				return true
			}
		}
	}
	return false
}
