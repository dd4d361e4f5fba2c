package httpapi

import (
	"encoding/json"
	"net/http"
	"sync"

	"go.yaml.in/yaml/v3"
)

// openAPI30 serves the 3.0.3 rendering. huma's Downgrade keeps the 3.1-only
// keyword contentMediaType that it writes beside every binary string (file
// uploads), which 3.0 tooling rejects; this rendering drops it. Built once,
// on first request, after every module has registered.
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
