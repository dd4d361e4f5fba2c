package httpapi

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// openAPI30 serves the 3.0.3 rendering. huma's Downgrade keeps two things
// 3.0 does not have: the keyword contentMediaType that it writes beside
// every binary string (file uploads), dropped here, and keywords beside a
// schema $ref (the description of a field of a struct type), which 3.0
// readers ignore and validators refuse; those are kept by wrapping the
// reference in allOf. Built once, on first request, after every module has
// registered.
type openAPI30 struct {
	once       sync.Once
	json, yaml []byte
	err        error
}

func (o *openAPI30) build(s *Server) {
	o.once.Do(func() {
		raw, err := s.api.OpenAPI().Downgrade()
		if err != nil {
			o.err = err
			return
		}
		var doc any
		if o.err = json.Unmarshal(raw, &doc); o.err != nil {
			return
		}
		dropKey(doc, "contentMediaType")
		wrapRefSiblings(doc)
		if o.json, o.err = json.Marshal(doc); o.err != nil {
			return
		}
		o.yaml, o.err = yaml.Marshal(doc)
	})
}

// serve answers the two 3.0 paths; false for any other request.
func (o *openAPI30) serve(s *Server, w http.ResponseWriter, r *http.Request) bool {
	if r.Method != http.MethodGet || (r.URL.Path != "/api/openapi-3.0.json" && r.URL.Path != "/api/openapi-3.0.yaml") {
		return false
	}
	o.build(s)
	if o.err != nil {
		WriteError(w, o.err)
		return true
	}
	if r.URL.Path == "/api/openapi-3.0.yaml" {
		w.Header().Set("Content-Type", "application/openapi+yaml")
		_, _ = w.Write(o.yaml)
		return true
	}
	w.Header().Set("Content-Type", "application/openapi+json")
	_, _ = w.Write(o.json)
	return true
}

func dropKey(v any, key string) {
	switch t := v.(type) {
	case map[string]any:
		delete(t, key)
		for _, c := range t {
			dropKey(c, key)
		}
	case []any:
		for _, c := range t {
			dropKey(c, key)
		}
	}
}

// wrapRefSiblings rewrites {"$ref": schema, "description": ...} as
// {"allOf": [{"$ref": schema}], "description": ...}, the 3.0 way to say
// something about a referenced schema.
func wrapRefSiblings(v any) {
	switch t := v.(type) {
	case map[string]any:
		if ref, ok := t["$ref"].(string); ok && len(t) > 1 && strings.HasPrefix(ref, "#/components/schemas/") {
			delete(t, "$ref")
			t["allOf"] = []any{map[string]any{"$ref": ref}}
		}
		for _, c := range t {
			wrapRefSiblings(c)
		}
	case []any:
		for _, c := range t {
			wrapRefSiblings(c)
		}
	}
}
