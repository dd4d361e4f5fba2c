// Package surface_test guards the HTTP contract: every method, path,
// parameter, request body field and status of the served OpenAPI document
// is written to surface.txt, and the test fails on any difference, so a
// change to the surface is always a deliberate one
// (`go tool task surface:accept` rewrites the file).
package surface_test

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/roundsedu/rounds/e2e/harness"
)

const snapshot = "surface.txt"

func TestSurface(t *testing.T) {
	var doc openAPI
	if err := json.Unmarshal(servedDocument(t), &doc); err != nil {
		t.Fatal(err)
	}
	got := describe(doc)
	if declared, used := declaredTags(doc), usedTags(doc); !slices.Equal(declared, used) {
		t.Errorf("the document's tag groups %v differ from those its operations use %v", declared, used)
	}

	if !keep(t, snapshot, got, "the HTTP surface changed (- snapshot, + served)") {
		return
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var ops, paths, tags int
	fmt.Sscanf(got, "# %d operations, %d paths, %d tags", &ops, &paths, &tags)
	if line := fmt.Sprintf("**%d operations, %d paths, %d tag groups**", ops, paths, tags); !strings.Contains(string(readme), line) {
		t.Errorf("README.md should say %s", line)
	}
}

// servedDocument is the OpenAPI document an app serves.
func servedDocument(t *testing.T) []byte {
	t.Helper()
	h, err := harness.Start(harness.WithoutSSO())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Stop() })
	res := h.Anon().Get("/api/openapi.json")
	if res.Status != 200 {
		t.Fatalf("GET /api/openapi.json: %d", res.Status)
	}
	return res.Body
}

// keep holds file to got: with ROUNDS_SURFACE_ACCEPT it writes got and
// answers false (nothing more to check); otherwise it fails the test with
// the difference, saying what changed, and answers true.
func keep(t *testing.T, file, got, changed string) bool {
	t.Helper()
	if os.Getenv("ROUNDS_SURFACE_ACCEPT") != "" {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", file)
		return false
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run `go tool task surface:accept` to write it)", err)
	}
	if diff := lineDiff(string(want), got); diff != "" {
		t.Errorf("%s; if that is meant, run `go tool task surface:accept` and commit %s:\n%s", changed, file, diff)
	}
	return true
}

type openAPI struct {
	Tags       []struct{ Name string }         `json:"tags"`
	Paths      map[string]map[string]operation `json:"paths"`
	Components struct {
		Schemas map[string]schema `json:"schemas"`
	} `json:"components"`
}

type operation struct {
	Tags        []string              `json:"tags"`
	Parameters  []parameter           `json:"parameters"`
	RequestBody *requestBody          `json:"requestBody"`
	Responses   map[string]yamlAny    `json:"responses"`
	Security    []map[string][]string `json:"security"`
}

type yamlAny = json.RawMessage

type parameter struct {
	Name     string `json:"name"`
	In       string `json:"in"`
	Required bool   `json:"required"`
	Schema   schema `json:"schema"`
}

type requestBody struct {
	Content map[string]struct {
		Schema schema `json:"schema"`
	} `json:"content"`
}

type schema struct {
	Ref        string            `json:"$ref"`
	Type       any               `json:"type"`
	Properties map[string]schema `json:"properties"`
	Required   []string          `json:"required"`
	Items      *schema           `json:"items"`
}

// describe writes one block per operation, sorted: the summary line with
// the counts first, so the README's figures come from the same place.
func describe(doc openAPI) string {
	var ops []string
	for path, methods := range doc.Paths {
		for method, op := range methods {
			if method == "parameters" {
				continue
			}
			ops = append(ops, describeOp(doc, strings.ToUpper(method), path, op))
		}
	}
	slices.Sort(ops)
	return fmt.Sprintf("# %d operations, %d paths, %d tags\n", len(ops), len(doc.Paths), len(usedTags(doc))) +
		strings.Join(ops, "")
}

// usedTags are the tag groups the operations carry, sorted.
func usedTags(doc openAPI) []string {
	var tags []string
	for _, methods := range doc.Paths {
		for method, op := range methods {
			if method != "parameters" {
				tags = append(tags, op.Tags...)
			}
		}
	}
	slices.Sort(tags)
	return slices.Compact(tags)
}

// declaredTags are the groups the document lists, sorted: an empty group
// would be a promise the surface does not keep.
func declaredTags(doc openAPI) []string {
	tags := make([]string, len(doc.Tags))
	for i, t := range doc.Tags {
		tags[i] = t.Name
	}
	slices.Sort(tags)
	return tags
}

func describeOp(doc openAPI, method, path string, op operation) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s [%s]\n", method, path, strings.Join(op.Tags, ","))
	params := make([]string, 0, len(op.Parameters))
	for _, p := range op.Parameters {
		params = append(params, fmt.Sprintf("  %s %s %s%s\n", p.In, p.Name, typeOf(doc, p.Schema), req(p.Required)))
	}
	slices.Sort(params)
	b.WriteString(strings.Join(params, ""))
	if op.RequestBody != nil {
		for ct, c := range op.RequestBody.Content {
			s := resolve(doc, c.Schema)
			fmt.Fprintf(&b, "  body %s %s\n", ct, typeOf(doc, c.Schema))
			fields := make([]string, 0, len(s.Properties))
			for name, f := range s.Properties {
				fields = append(fields, fmt.Sprintf("    %s %s%s\n", name, typeOf(doc, f), req(slices.Contains(s.Required, name))))
			}
			slices.Sort(fields)
			b.WriteString(strings.Join(fields, ""))
		}
	}
	statuses := make([]string, 0, len(op.Responses))
	for status := range op.Responses {
		statuses = append(statuses, status)
	}
	slices.Sort(statuses)
	fmt.Fprintf(&b, "  -> %s\n", strings.Join(statuses, " "))
	return b.String()
}

func req(required bool) string {
	if required {
		return " required"
	}
	return ""
}

func resolve(doc openAPI, s schema) schema {
	for s.Ref != "" {
		s = doc.Components.Schemas[strings.TrimPrefix(s.Ref, "#/components/schemas/")]
	}
	return s
}

// typeOf names a schema's type: its type list, or the referenced schema's
// name, "array of" its items.
func typeOf(doc openAPI, s schema) string {
	if s.Ref != "" {
		return strings.TrimPrefix(s.Ref, "#/components/schemas/")
	}
	var t string
	switch v := s.Type.(type) {
	case string:
		t = v
	case []any:
		parts := make([]string, len(v))
		for i, p := range v {
			parts[i] = fmt.Sprint(p)
		}
		t = strings.Join(parts, "|")
	default:
		t = "any"
	}
	if s.Items != nil {
		t += " of " + typeOf(doc, *s.Items)
	}
	return t
}

// lineDiff lists the lines only one side has (the surface is sorted, so
// this is the whole change).
func lineDiff(want, got string) string {
	count := func(s string) map[string]int {
		m := map[string]int{}
		for _, l := range strings.Split(s, "\n") {
			m[l]++
		}
		return m
	}
	w, g := count(want), count(got)
	var out []string
	for l, n := range w {
		if g[l] < n {
			out = append(out, "- "+l)
		}
	}
	for l, n := range g {
		if w[l] < n {
			out = append(out, "+ "+l)
		}
	}
	slices.Sort(out)
	return strings.Join(out, "\n")
}
