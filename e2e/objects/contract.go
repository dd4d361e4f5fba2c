package objects_test

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/roundsedu/rounds/e2e/harness"
)

// operation is one operation of the served document with the parameters
// that name objects: every path parameter, and query and body fields named
// id, *_id or *_ids (body fields of integer type: a string section_id is a
// key inside an article, not an object's id).
type operation struct {
	method, path string
	ids          []string // "path.attempt_id", "query.quiz_id", "body.question_ids"
	form         bool     // the body is multipart/form-data
}

func (o operation) key() string { return o.method + " " + o.path }

type document struct {
	Paths      map[string]map[string]docOperation `json:"paths"`
	Components struct {
		Schemas map[string]schema `json:"schemas"`
	} `json:"components"`
}

type docOperation struct {
	Parameters []struct {
		Name string `json:"name"`
		In   string `json:"in"`
	} `json:"parameters"`
	RequestBody *struct {
		Content map[string]struct {
			Schema schema `json:"schema"`
		} `json:"content"`
	} `json:"requestBody"`
}

type schema struct {
	Ref        string            `json:"$ref"`
	Type       any               `json:"type"`
	Properties map[string]schema `json:"properties"`
	Items      *schema           `json:"items"`
}

func (d document) resolve(s schema) schema {
	for s.Ref != "" {
		s = d.Components.Schemas[strings.TrimPrefix(s.Ref, "#/components/schemas/")]
	}
	return s
}

// integer reports whether a schema is an integer or a list of integers
// (either maybe null).
func (d document) integer(s schema) bool {
	s = d.resolve(s)
	types := []string{}
	switch t := s.Type.(type) {
	case string:
		types = append(types, t)
	case []any:
		for _, v := range t {
			if str, ok := v.(string); ok {
				types = append(types, str)
			}
		}
	}
	if slices.Contains(types, "array") && s.Items != nil {
		return d.integer(*s.Items)
	}
	return slices.Contains(types, "integer")
}

func namesObject(name string) bool {
	return name == "id" || strings.HasSuffix(name, "_id") || strings.HasSuffix(name, "_ids")
}

// idOperations reads the served document: every operation that takes an
// id, sorted by path and method.
func idOperations(h *harness.Harness) ([]operation, error) {
	res := h.Anon().Get("/api/openapi.json")
	var doc document
	if err := json.Unmarshal(res.Body, &doc); err != nil {
		return nil, err
	}
	var ops []operation
	for path, methods := range doc.Paths {
		for method, o := range methods {
			if method == "parameters" {
				continue
			}
			op := operation{method: strings.ToUpper(method), path: path}
			for _, p := range o.Parameters {
				if p.In == "path" || (p.In == "query" && namesObject(p.Name)) {
					op.ids = append(op.ids, p.In+"."+p.Name)
				}
			}
			if o.RequestBody != nil {
				for ct, c := range o.RequestBody.Content {
					op.form = ct == "multipart/form-data"
					for name, f := range doc.resolve(c.Schema).Properties {
						if namesObject(name) && doc.integer(f) {
							op.ids = append(op.ids, "body."+name)
						}
					}
				}
			}
			if len(op.ids) > 0 {
				slices.Sort(op.ids)
				ops = append(ops, op)
			}
		}
	}
	slices.SortFunc(ops, func(a, b operation) int { return strings.Compare(a.path+" "+a.method, b.path+" "+b.method) })
	return ops, nil
}
