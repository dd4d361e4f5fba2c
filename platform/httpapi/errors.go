package httpapi

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/validation"

	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/db"
)

// statusOf is the one table from error code to HTTP status.
var statusOf = map[apperr.Code]int{
	apperr.BadRequest:      http.StatusBadRequest,
	apperr.Unauthenticated: http.StatusUnauthorized,
	apperr.Forbidden:       http.StatusForbidden,
	apperr.NotFound:        http.StatusNotFound,
	apperr.Conflict:        http.StatusConflict,
	apperr.TooLarge:        http.StatusRequestEntityTooLarge,
	apperr.Invalid:         http.StatusUnprocessableEntity,
	apperr.RateLimited:     http.StatusTooManyRequests,
	apperr.ServerError:     http.StatusInternalServerError,
	apperr.UpstreamFailed:  http.StatusBadGateway,
	apperr.Unavailable:     http.StatusServiceUnavailable,
}

// codeOf maps statuses raised by the framework itself (huma's own 4xx,
// gin's 404/405) back to a code.
func codeOf(status int) apperr.Code {
	switch {
	case status == http.StatusUnprocessableEntity:
		return apperr.Invalid
	case status == http.StatusNotFound || status == http.StatusMethodNotAllowed || status == http.StatusGone:
		return apperr.NotFound
	case status == http.StatusRequestEntityTooLarge:
		return apperr.TooLarge
	case status == http.StatusUnauthorized:
		return apperr.Unauthenticated
	case status == http.StatusForbidden:
		return apperr.Forbidden
	case status == http.StatusConflict:
		return apperr.Conflict
	case status == http.StatusTooManyRequests:
		return apperr.RateLimited
	case status == http.StatusBadGateway:
		return apperr.UpstreamFailed
	case status == http.StatusServiceUnavailable:
		return apperr.Unavailable
	case status >= 500:
		return apperr.ServerError
	default:
		return apperr.BadRequest
	}
}

// Envelope is every failure body: the legacy detail beside the error object.
type Envelope struct {
	status  int
	headers http.Header

	// Detail is the message, or for validation failures a list of {loc, msg, type}.
	Detail any         `json:"detail"`
	Err    ErrorObject `json:"error"`
}

// ErrorObject is what clients switch on.
type ErrorObject struct {
	Code    string       `json:"code" enum:"bad_request,unauthenticated,forbidden,not_found,conflict,too_large,invalid_request,rate_limited,upstream_failed,unavailable,server_error" doc:"one of the spec's codes; 405 and 410 carry not_found"`
	Message string       `json:"message"`
	Fields  []FieldError `json:"fields,omitempty"`
}

// FieldError is one invalid input.
type FieldError struct {
	Field   string `json:"field"`
	Message string `json:"message"`
	Type    string `json:"type"`
}

// DetailItem is the legacy shape of one validation failure.
type DetailItem struct {
	Loc  []string `json:"loc"`
	Msg  string   `json:"msg"`
	Type string   `json:"type"`
}

func (e *Envelope) Error() string           { return e.Err.Code + ": " + e.Err.Message }
func (e *Envelope) GetStatus() int          { return e.status }
func (e *Envelope) GetHeaders() http.Header { return e.headers }

// fromAppErr builds the envelope for a service error.
func fromAppErr(ae *apperr.Error) *Envelope {
	status := ae.Status
	if status == 0 {
		status = statusOf[ae.Code]
	}
	if status == 0 {
		status = http.StatusInternalServerError
	}
	env := &Envelope{status: status, Detail: ae.Message,
		Err: ErrorObject{Code: ae.Code.String(), Message: ae.Message}}
	if len(ae.Fields) > 0 {
		items := make([]DetailItem, 0, len(ae.Fields))
		for _, f := range ae.Fields {
			env.Err.Fields = append(env.Err.Fields, FieldError(f))
			items = append(items, DetailItem{Loc: strings.Split(f.Field, "."), Msg: f.Message, Type: f.Type})
		}
		env.Detail = items
	}
	if ae.RetryAfter > 0 {
		// Round up: a client retrying at the advertised second must get through.
		secs := int((ae.RetryAfter + time.Second - 1) / time.Second)
		env.headers = http.Header{"Retry-After": []string{strconv.Itoa(secs)}}
	}
	return env
}

// known is the code an error carries: its own (*apperr.Error), or the one
// a platform error means wherever it comes from (the store's not-found
// sentinel). ok is false for anything else: a bug, answered 500.
func known(err error) (*apperr.Error, bool) {
	if ae, ok := apperr.As(err); ok {
		return ae, true
	}
	if db.IsNotFound(err) {
		return apperr.NotFoundf("not found"), true
	}
	if db.IsUnreachable(err) {
		return Unavailable(), true
	}
	return nil, false
}

// outageRetry is the Retry-After of a 503 for an unreachable database: long
// enough not to hammer a recovering server, short enough for a restart.
const outageRetry = 5 * time.Second

// Unavailable is the answer while the database cannot be reached.
func Unavailable() *apperr.Error {
	return &apperr.Error{Code: apperr.Unavailable, RetryAfter: outageRetry,
		Message: "the database is unreachable: try again shortly"}
}

// newError replaces huma.NewError so that every error huma writes (its own
// validation failures, and whatever a handler returns) takes our envelope.
// A handler's *apperr.Error arrives here wrapped in huma's 500 "unexpected
// error"; its own code and message win. Anything else that reaches a 500 is
// reported as a bare server error: internals never leak into a body.
func newError(status int, msg string, errs ...error) huma.StatusError {
	for _, err := range errs {
		if ae, ok := known(err); ok {
			return fromAppErr(ae)
		}
	}
	if status >= 500 {
		return fromAppErr(&apperr.Error{Code: apperr.ServerError, Message: "internal server error", Status: status})
	}
	if status == http.StatusBadRequest {
		// huma answers an unparseable or missing body with 400; every input
		// failure is a 422 here.
		status = http.StatusUnprocessableEntity
	}
	code := codeOf(status)
	env := &Envelope{status: status, Detail: msg, Err: ErrorObject{Code: code.String(), Message: msg}}
	var items []DetailItem
	for _, err := range errs {
		if err == nil {
			continue
		}
		var d *huma.ErrorDetail
		if errors.As(err, &d) {
			field := fieldOf(d)
			env.Err.Fields = append(env.Err.Fields, FieldError{Field: field, Message: d.Message, Type: "value_error"})
			items = append(items, DetailItem{Loc: strings.Split(field, "."), Msg: d.Message, Type: "value_error"})
			continue
		}
		env.Err.Fields = append(env.Err.Fields, FieldError{Field: "", Message: err.Error(), Type: "value_error"})
		items = append(items, DetailItem{Loc: []string{}, Msg: err.Error(), Type: "value_error"})
	}
	if status == http.StatusUnprocessableEntity {
		if len(items) > 0 {
			env.Detail = items
			if len(items) == 1 {
				env.Err.Message = msg + ": " + items[0].Msg
			}
		}
	}
	return env
}

func init() {
	huma.NewError = newError
}

// requiredPrefix and requiredSuffix frame huma's message for a missing
// required property, which it reports at the parent object's location.
var requiredPrefix, requiredSuffix, _ = strings.Cut(validation.MsgExpectedRequiredProperty, "%s")

// fieldOf is where the client must look: for a missing property that is the
// property itself (body.name), not the object holding it (body).
func fieldOf(d *huma.ErrorDetail) string {
	name, ok := strings.CutPrefix(d.Message, requiredPrefix)
	if name, ok2 := strings.CutSuffix(name, requiredSuffix); ok && ok2 && name != "" {
		return d.Location + "." + name
	}
	return d.Location
}

// writeEnvelope writes an envelope outside huma (gin's 404/405, panics,
// guards that run before the operation).
func writeEnvelope(w http.ResponseWriter, env *Envelope) {
	for k, vs := range env.headers {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(env.status)
	_ = json.NewEncoder(w).Encode(env)
}

// WriteError writes err as the envelope, for the few handlers that own the
// response writer (file streaming).
func WriteError(w http.ResponseWriter, err error) {
	writeEnvelope(w, newError(http.StatusInternalServerError, "internal server error", err).(*Envelope))
}
