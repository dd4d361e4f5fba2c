package httpapi

import (
	"context"
	"net/http"
	"reflect"
	"strconv"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/platform/auth"
)

// Encoded is a 200 answer already encoded as JSON, written as its bytes:
// huma neither re-encodes it nor re-validates it (encoding/json compacts
// whatever a MarshalJSON returns). For hot reads that keep their body
// encoded (the quiz detail).
type Encoded struct{ Body func(huma.Context) }

// EncodedJSON answers the concatenation of parts, which must together be
// one JSON document as huma's JSON format writes it (newline-terminated).
func EncodedJSON(parts ...[]byte) *Encoded {
	return &Encoded{Body: func(ctx huma.Context) {
		n := 0
		for _, p := range parts {
			n += len(p)
		}
		ctx.SetHeader("Content-Type", "application/json")
		ctx.SetHeader("Content-Length", strconv.Itoa(n))
		ctx.SetStatus(http.StatusOK)
		w := ctx.BodyWriter()
		for _, p := range parts {
			if _, err := w.Write(p); err != nil {
				return // the client went away
			}
		}
	}}
}

// RegisterEncoded is Register for a handler answering Encoded bytes whose
// shape is T: the document declares T's schema for the 200, exactly as a
// handler answering struct{ Body T } would, so the contract does not change
// when a route moves to serving bytes.
func RegisterEncoded[I, T any](r *Router, level auth.Level, op huma.Operation, handler func(context.Context, *I) (*Encoded, error)) {
	if op.Responses == nil {
		op.Responses = map[string]*huma.Response{}
	}
	answer := JSONResponse[T](r, http.StatusText(http.StatusOK))
	if f, ok := reflect.TypeFor[I]().FieldByName("Conditional"); ok && f.Anonymous && f.Type == reflect.TypeFor[Conditional]() {
		// The input embeds Conditional: the answer carries an ETag, and
		// If-None-Match naming it is answered 304 (Conditional.Validated).
		tag := map[string]*huma.Param{"ETag": {Description: "names this copy for If-None-Match",
			Schema: &huma.Schema{Type: huma.TypeString}}}
		answer.Headers = tag
		op.Responses["304"] = &huma.Response{Description: "the copy If-None-Match names is current; no body",
			Headers: tag}
	}
	op.Responses["200"] = answer
	Register(r, level, op, handler)
}

// JSONResponse declares a JSON answer of shape T, for a status an
// operation answers besides its default (huma documents only that one's
// body).
func JSONResponse[T any](r *Router, description string) *huma.Response {
	schema := r.api.OpenAPI().Components.Schemas.Schema(reflect.TypeFor[T](), true, "")
	return &huma.Response{Description: description, Content: map[string]*huma.MediaType{"application/json": {Schema: schema}}}
}
