// Package fuzz_test is the contract fuzz: requests generated from the served
// OpenAPI document over every write operation, with random and boundary
// values (NUL bytes, over-long strings, wrong types, absurd numbers), sent
// as each role through the harness. No answer may be a 5xx, every 4xx
// must be the error envelope with one of the spec's codes, and every
// status must be one the operation that answered declares in the document.
//
// The normal run is bounded (-n, default 3000); a long run:
// go tool task fuzz -- -n 200000 (or ROUNDS_FUZZ_N). -seed replays a run.
package fuzz_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/onsi/gomega"

	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

var (
	count = flag.Int("n", 3000, "requests to send (ROUNDS_FUZZ_N overrides)")
	seed  = flag.Uint64("seed", 0, "random seed (0: from the clock)")
)

// schema is the part of a JSON schema the generator reads.
type schema struct {
	Ref                  string             `json:"$ref"`
	Type                 any                `json:"type"` // "string" or ["string","null"]
	Format               string             `json:"format"`
	Enum                 []any              `json:"enum"`
	Properties           map[string]*schema `json:"properties"`
	Required             []string           `json:"required"`
	Items                *schema            `json:"items"`
	AdditionalProperties any                `json:"additionalProperties"`
	MaxLength            *int               `json:"maxLength"`
	Minimum              *float64           `json:"minimum"`
	Maximum              *float64           `json:"maximum"`
	OneOf                []*schema          `json:"oneOf"`
	AnyOf                []*schema          `json:"anyOf"`
}

type param struct {
	Name   string  `json:"name"`
	In     string  `json:"in"`
	Schema *schema `json:"schema"`
}

type operation struct {
	method, path string
	Parameters   []param `json:"parameters"`
	RequestBody  *struct {
		Content map[string]struct {
			Schema *schema `json:"schema"`
		} `json:"content"`
	} `json:"requestBody"`
}

type document struct {
	Paths      map[string]map[string]json.RawMessage `json:"paths"`
	Components struct {
		Schemas map[string]*schema `json:"schemas"`
	} `json:"components"`
}

func requests() int {
	if v, err := strconv.Atoi(os.Getenv("ROUNDS_FUZZ_N")); err == nil && v > 0 {
		return v
	}
	return *count
}

func TestContractFuzz(t *testing.T) {
	gomega.RegisterTestingT(t)
	h, err := harness.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := h.Stop(); err != nil {
			t.Error(err)
		}
	}()
	res := h.Anon().Get("/api/openapi.json")
	if res.Status != 200 {
		t.Fatalf("openapi: %d", res.Status)
	}
	var doc document
	res.JSON(&doc)
	ops := writeOperations(t, &doc)
	if len(ops) == 0 {
		t.Fatal("no write operations in the document")
	}
	contract, err := harness.LoadContract(h.HTTP, h.BaseURL)
	if err != nil {
		t.Fatal(err)
	}

	s := *seed
	if s == 0 {
		s = uint64(time.Now().UnixNano())
	}
	t.Logf("seed %d, %d write operations, %d requests", s, len(ops), requests())
	g := &gen{rng: rand.New(rand.NewPCG(s, 1)), schemas: doc.Components.Schemas}

	roles := []auth.Role{auth.RoleUser, auth.RoleModerator, auth.RoleAdmin}
	var clients []*harness.Client
	signIn := func() (ok bool) {
		// The fuzz may delete or demote the account the harness promotes
		// people with; then the callers signed in so far carry on.
		defer func() {
			if recover() != nil {
				ok = false
			}
		}()
		fresh := []*harness.Client{h.Anon()}
		for _, r := range roles {
			fresh = append(fresh, h.NewUser(r).Client(h))
		}
		clients = fresh
		return true
	}
	if !signIn() {
		t.Fatal("cannot sign the callers in")
	}

	statuses := map[int]int{}
	var failures []string
	undeclared := map[string]bool{}
	n := requests()
	for i := range n {
		if i > 0 && i%500 == 0 {
			signIn() // some operations sign their caller out or delete them
		}
		op := ops[g.rng.IntN(len(ops))]
		path, body := g.request(op)
		res := clients[g.rng.IntN(len(clients))].Do(op.method, path, body)
		statuses[res.Status]++
		if msg := contract.Undeclared(op.method, path, res.Status); msg != "" && !undeclared[msg] {
			undeclared[msg] = true
			t.Errorf("%s\n  sent %s %s, answer: %.300s", msg, op.method, path, res.Body)
		}
		if msg := check(res); msg != "" && len(failures) < 50 {
			b, _ := json.Marshal(body)
			failures = append(failures, fmt.Sprintf("%s %s\n  body: %.300s\n  answer %d: %.300s\n  %s",
				op.method, path, b, res.Status, res.Body, msg))
		}
	}
	t.Logf("statuses: %v", summary(statuses))
	for _, f := range failures {
		t.Error(f)
	}
}

// check returns what is wrong with an answer, or "".
// A 503 unavailable is the service saying a feature is not configured here
// (no model proxy, no tutor model), which the spec prescribes; any other 5xx
// is a fault.
func check(res *harness.Response) string {
	if res.Status < 400 {
		return ""
	}
	var env struct {
		Detail any `json:"detail"`
		Error  *struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	inEnvelope := json.Unmarshal(res.Body, &env) == nil && env.Error != nil && env.Error.Code != "" &&
		env.Error.Message != "" && env.Detail != nil
	switch {
	case res.Status == 503 && inEnvelope && env.Error.Code == "unavailable":
		return ""
	case res.Status >= 500:
		return "a 5xx for client input"
	case !inEnvelope:
		return "a 4xx outside the envelope"
	}
	return harness.ForeignCode(res)
}

func summary(m map[int]int) string {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%d×%d", k, m[k]))
	}
	return strings.Join(parts, " ")
}

func writeOperations(t *testing.T, doc *document) []*operation {
	var ops []*operation
	for path, methods := range doc.Paths {
		for method, raw := range methods {
			m := strings.ToUpper(method)
			if m != http.MethodPost && m != http.MethodPut && m != http.MethodPatch && m != http.MethodDelete {
				continue
			}
			op := &operation{method: m, path: path}
			if err := json.Unmarshal(raw, op); err != nil {
				t.Fatalf("%s %s: %v", m, path, err)
			}
			ops = append(ops, op)
		}
	}
	sort.Slice(ops, func(i, j int) bool { return ops[i].path+ops[i].method < ops[j].path+ops[j].method })
	return ops
}

type gen struct {
	rng     *rand.Rand
	schemas map[string]*schema
}

func (g *gen) chance(p float64) bool { return g.rng.Float64() < p }

func (g *gen) request(op *operation) (string, any) {
	path := op.path
	q := url.Values{}
	for _, p := range op.Parameters {
		switch p.In {
		case "path":
			path = strings.Replace(path, "{"+p.Name+"}", url.PathEscape(g.scalarText(p.Schema)), 1)
		case "query":
			if g.chance(0.6) {
				q.Set(p.Name, g.scalarText(p.Schema))
			}
		}
	}
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	if op.RequestBody == nil {
		return path, nil
	}
	if c, ok := op.RequestBody.Content["application/json"]; ok && c.Schema != nil {
		return path, g.value(c.Schema, 0)
	}
	return path, g.value(&schema{Type: "object"}, 0)
}

// scalarText is a parameter value: mostly plausible, often hostile.
func (g *gen) scalarText(s *schema) string {
	switch v := g.value(s, 3).(type) {
	case string:
		return v
	case nil:
		return ""
	default:
		b, _ := json.Marshal(v)
		return strings.Trim(string(b), `"`)
	}
}

func (g *gen) resolve(s *schema) *schema {
	for s != nil && s.Ref != "" {
		s = g.schemas[strings.TrimPrefix(s.Ref, "#/components/schemas/")]
	}
	if s == nil {
		return &schema{}
	}
	if len(s.OneOf) > 0 {
		return g.resolve(s.OneOf[g.rng.IntN(len(s.OneOf))])
	}
	if len(s.AnyOf) > 0 {
		return g.resolve(s.AnyOf[g.rng.IntN(len(s.AnyOf))])
	}
	return s
}

func typeOf(s *schema) string {
	switch t := s.Type.(type) {
	case string:
		return t
	case []any:
		for _, x := range t {
			if x != "null" {
				return fmt.Sprint(x)
			}
		}
	}
	if s.Properties != nil {
		return "object"
	}
	return ""
}

var hostileStrings = []string{"", " ", "a\x00b", "\x00", strings.Repeat("x", 5000), strings.Repeat("é", 3000),
	"'; DROP TABLE x; --", "<script>alert(1)</script>", "../../etc/passwd", "\u202e\ufeff", "%00", "null",
	"-1", "0", "9223372036854775808", "1e309", "NaN", "2026-13-45T99:99:99Z", "\xff\xfe"}

var hostileNumbers = []any{0, 1, -1, 2, math.MaxInt64, math.MinInt64, 1e300, -1e300, 0.5, 2147483648}

// value generates a value for s: 70% well-typed (boundaries included),
// the rest wrong types and hostile strings.
func (g *gen) value(s *schema, depth int) any {
	s = g.resolve(s)
	if g.chance(0.08) {
		return g.wrong()
	}
	if len(s.Enum) > 0 && g.chance(0.6) {
		return s.Enum[g.rng.IntN(len(s.Enum))]
	}
	switch typeOf(s) {
	case "string":
		if g.chance(0.3) {
			return hostileStrings[g.rng.IntN(len(hostileStrings))]
		}
		switch s.Format {
		case "date-time":
			return time.Now().Add(time.Duration(g.rng.IntN(1000)-500) * time.Hour).Format(time.RFC3339)
		case "date":
			return time.Now().Format(time.DateOnly)
		case "email":
			return fmt.Sprintf("fuzz%d@example.test", g.rng.IntN(1000))
		}
		n := 1 + g.rng.IntN(20)
		if s.MaxLength != nil && g.chance(0.3) {
			n = *s.MaxLength + g.rng.IntN(2)
		}
		return strings.Repeat(string(rune('a'+g.rng.IntN(26))), n)
	case "integer", "number":
		if g.chance(0.4) {
			return hostileNumbers[g.rng.IntN(len(hostileNumbers))]
		}
		if s.Minimum != nil && g.chance(0.2) {
			return *s.Minimum - float64(g.rng.IntN(2))
		}
		if s.Maximum != nil && g.chance(0.2) {
			return *s.Maximum + float64(g.rng.IntN(2))
		}
		return 1 + g.rng.IntN(5)
	case "boolean":
		return g.chance(0.5)
	case "array":
		if depth > 4 {
			return []any{}
		}
		n := g.rng.IntN(4)
		if g.chance(0.03) {
			n = 300
		}
		out := make([]any, n)
		for i := range out {
			out[i] = g.value(s.Items, depth+1)
		}
		return out
	case "object":
		if depth > 4 {
			return map[string]any{}
		}
		out := map[string]any{}
		for name, p := range s.Properties {
			if g.chance(0.85) {
				out[name] = g.value(p, depth+1)
			}
		}
		if g.chance(0.1) {
			out["unexpected\x00key"] = "x"
		}
		return out
	}
	return g.wrong()
}

func (g *gen) wrong() any {
	options := []any{nil, "x\x00", 12, -7, true, []any{1, "a"}, map[string]any{"k": "\x00"}, 1e308, ""}
	return options[g.rng.IntN(len(options))]
}
