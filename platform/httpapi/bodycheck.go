package httpapi

import (
	"reflect"

	"github.com/danielgtaylor/huma/v2"
)

// BodyCheck validates a JSON body already decoded into generic values
// (any) against T's schema, exactly as huma validates a request body before
// decoding it a second time into the struct. An operation that sets
// SkipValidateBody decodes once: its body type's UnmarshalJSON decodes into
// any, runs Check, and fills itself from the checked values; its Resolve
// answers Check's errors, which huma reports as it reports its own
// validation (422, the same envelope). The schema comes from a registry
// configured as the API's (huma's defaults), so it is the document's.
type BodyCheck struct {
	registry huma.Registry
	schema   *huma.Schema
}

// NewBodyCheck builds the check for body type T.
func NewBodyCheck[T any]() *BodyCheck {
	reg := huma.NewMapRegistry("#/components/schemas/", huma.DefaultSchemaNamer)
	s := reg.Schema(reflect.TypeFor[T](), true, "")
	s.PrecomputeMessages()
	return &BodyCheck{registry: reg, schema: s}
}

// Check validates v (the body decoded into any) and returns huma's
// validation errors, located under "body" as huma locates them; none when
// it is valid.
func (c *BodyCheck) Check(v any) []error {
	pb := huma.NewPathBuffer(make([]byte, 0, 64), 0)
	pb.Push("body")
	var res huma.ValidateResult
	huma.Validate(c.registry, c.schema, pb, huma.ModeWriteToServer, v, &res)
	return res.Errors
}

// BodyDecoder is a body type that reads its JSON bytes itself: the API's
// JSON format hands them over without encoding/json's validity scan and
// decode around it (json.Unmarshaler still gets both). It must refuse
// malformed JSON as encoding/json does (the hot autosave body reads the
// usual case in one pass and leaves the rest to encoding/json).
type BodyDecoder interface {
	DecodeBody(data []byte) error
}

// jsonFormat is huma's JSON format with BodyDecoder honoured.
var jsonFormat = huma.Format{
	Marshal: huma.DefaultJSONFormat.Marshal,
	Unmarshal: func(data []byte, v any) error {
		if d, ok := v.(BodyDecoder); ok {
			return d.DecodeBody(data)
		}
		return huma.DefaultJSONFormat.Unmarshal(data, v)
	},
}

// Formats are the API's formats (as huma's defaults, JSON only).
var Formats = map[string]huma.Format{"application/json": jsonFormat, "json": jsonFormat}
