// Package objects_test is the object matrix, beside the role matrix of
// e2e/authz: every operation of the served OpenAPI document that takes an
// id (a path parameter, or a query or body field named id, *_id or *_ids)
// is called as a learner with each id in turn set to (a) another
// learner's object, (b) an object the learner may not reach (unpublished,
// ungranted, binned) and (c) an id nothing has, the operation's other ids
// filled with the learner's own or reachable objects. matrix.txt names,
// one row an operation, the kind of object each id is tried with and the
// answer: (a), (b) and (c) answer alike (the same status and, apart from
// the id itself, the same body), 404 unless the row names the status the
// spec gives that route; no body shows another learner's text, hidden
// content or any answer-side field. A new id-taking route without a row,
// a new id without a binding, or a row without its route fails the test.
// The objects each kind is tried with are built once, through the API,
// by the roles that make them (world.go).
package objects_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/roundsedu/rounds/e2e/fixtures"
	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/standin"
	"github.com/roundsedu/rounds/platform/config"
)

const table = "matrix.txt"

func TestObjects(t *testing.T) {
	proxy := standin.Start()
	defer proxy.Close()
	idp, err := harness.StartIdP()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = idp.Stop() }()
	h, err := harness.Start(harness.WithSSO(idp), harness.WithConfig(func(c *config.Config) {
		c.Set("ai.base_url", proxy.URL())
		c.Set("ai.key_encryption_key", "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=")
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = h.Stop() }()

	ops, err := idOperations(h)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := readMatrix(table)
	if err != nil {
		t.Fatal(err)
	}
	if !covered(t, ops, rows) {
		return
	}
	w := build(h, idp)
	// Reads go first and removals last, so a hole in a write cannot change
	// what a later row tries.
	slices.SortStableFunc(rows, func(a, b row) int { return stage(a.method) - stage(b.method) })
	absents := make([]map[string]tried, len(rows))
	tries := 0
	for i, r := range rows {
		absents[i] = try(t, h, w, r)
		for _, k := range r.ids {
			kd, _ := w.kind(k)
			if kd != nil {
				tries += len(kd.variants)
			}
		}
	}
	controls(t, h, w, rows, absents)
	t.Logf("%d operations in %d rows, %d tries and a control each", len(ops), len(rows), tries)
}

// controls calls each row once with nothing tried, every id the learner's
// own or reachable: unless the gate keeps the learner out, that call must
// not answer like an id nothing has, or the row's tries prove nothing (a
// filler the route does not find, a body it refuses). Longer paths go
// first, so a removal does not take what a narrower one still needs.
func controls(t *testing.T, h *harness.Harness, w *world, rows []row, absents []map[string]tried) {
	order := make([]int, len(rows))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if d := stage(rows[a].method) - stage(rows[b].method); d != 0 {
			return d
		}
		return len(rows[b].path) - len(rows[a].path)
	})
	for _, i := range order {
		r := rows[i]
		if (r.answer.status == http.StatusForbidden && len(r.answer.exceptions) == 0) || r.answer.status == http.StatusNoContent {
			continue // the gate refuses all alike; an idempotent removal says nothing either way
		}
		res, call := send(h, w, r, "", nil)
		// The learner's own view may hold answers they earned, never
		// another's text or anything hidden.
		if bytes.Contains(res.Body, []byte(hiddenMark)) {
			t.Errorf("%s:%d: %s with the learner's own objects shows %q\n  %s", table, r.line, call, hiddenMark, res.Body)
		}
		for param, a := range absents[i] {
			k, filler := w.kind(r.ids[param])
			if _, whole := r.answer.exceptions[param[strings.IndexByte(param, '.')+1:]]; whole || k.unowned {
				continue // the row says every try of it is refused alike, or the learner has none of their own
			}
			if res.Status == a.status && bytes.Equal(swap(a.body, a.value, filler), res.Body) {
				t.Errorf("%s:%d: %s with the learner's own objects answers %d like %s = absent: its tries prove nothing\n  %s",
					table, r.line, call, res.Status, param, res.Body)
			}
		}
	}
}

// stage orders methods: reads, then writes, then removals.
func stage(method string) int {
	switch method {
	case http.MethodGet:
		return 0
	case http.MethodDelete:
		return 2
	}
	return 1
}

// covered checks every id-taking operation has a row binding each of its
// ids, and every row names a served operation and only its ids.
func covered(t *testing.T, ops []operation, rows []row) bool {
	byOp := map[string][]row{}
	for _, r := range rows {
		byOp[r.key()] = append(byOp[r.key()], r)
	}
	ok := true
	served := map[string]bool{}
	for _, op := range ops {
		served[op.key()] = true
		rs := byOp[op.key()]
		if len(rs) == 0 {
			t.Errorf("no row in %s for %s (it takes %s): add one naming the kind each id is tried with and the answer",
				table, op.key(), strings.Join(op.ids, ", "))
			ok = false
		}
		for _, r := range rs {
			named := slices.Concat(slices.Collect(maps.Keys(r.ids)), slices.Collect(maps.Keys(r.literal)))
			for _, id := range op.ids {
				if !slices.Contains(named, id) {
					t.Errorf("%s:%d: %s takes %s, which the row does not bind", table, r.line, op.key(), id)
					ok = false
				}
			}
			for id := range r.ids {
				if !slices.Contains(op.ids, id) {
					t.Errorf("%s:%d: %s takes no id %s", table, r.line, op.key(), id)
					ok = false
				}
			}
			if r.form != op.form {
				t.Errorf("%s:%d: %s: the row's body is form=%v, the operation's form=%v", table, r.line, op.key(), r.form, op.form)
				ok = false
			}
		}
	}
	for _, r := range rows {
		if !served[r.key()] {
			t.Errorf("%s:%d: %s is not served (or takes no id): remove the row", table, r.line, r.key())
			ok = false
		}
	}
	return ok
}

// tried is one try's answer.
type tried struct {
	variant string
	value   any
	status  int
	body    []byte
}

// try calls the row's operation once for every variant of every id it
// takes and checks the answers; it gives each id's absent try.
func try(t *testing.T, h *harness.Harness, w *world, r row) map[string]tried {
	absents := map[string]tried{}
	for _, param := range r.params() {
		k, _ := w.kind(r.ids[param])
		if k == nil {
			t.Errorf("%s:%d: no fixture kind %q", table, r.line, r.ids[param])
			continue
		}
		name := param[strings.IndexByte(param, '.')+1:]
		byStatus := map[int][]tried{}
		for _, variant := range slices.Sorted(maps.Keys(k.variants)) {
			value := k.variants[variant]
			res, call := send(h, w, r, param, value)
			want := r.answer.want(name, variant)
			where := fmt.Sprintf("%s:%d: %s with %s = %s (%v)", table, r.line, call, name, variant, value)
			if res.Status != want {
				t.Errorf("%s: want %d, got %d\n  %s", where, want, res.Status, res.Body)
				continue
			}
			for _, leak := range w.leaks(res.Body) {
				t.Errorf("%s: the body shows %s\n  %s", where, leak, res.Body)
			}
			byStatus[want] = append(byStatus[want], tried{variant, value, res.Status, res.Body})
			if variant == "absent" {
				absents[param] = tried{variant, value, res.Status, res.Body}
			}
		}
		// Tries answering the same status say the same thing: the absent
		// id's answer (the first otherwise), its id swapped for theirs,
		// is their answer.
		for _, ts := range byStatus {
			ref := ts[0]
			for _, tr := range ts {
				if tr.variant == "absent" {
					ref = tr
				}
			}
			for _, tr := range ts {
				if !bytes.Equal(swap(ref.body, ref.value, tr.value), tr.body) {
					t.Errorf("%s:%d: %s %s: %s answers unlike %s apart from the id:\n  %s: %s\n  %s: %s", table, r.line,
						r.method, r.path, tr.variant, ref.variant, ref.variant, ref.body, tr.variant, tr.body)
				}
			}
		}
	}
	return absents
}

// send makes the call with param set to value and every other id filled
// with its kind's filler (every id, for param ""); it returns the response
// and the call as text.
func send(h *harness.Harness, w *world, r row, param string, value any) (*harness.Response, string) {
	val := func(p string) any {
		if p == param {
			return value
		}
		if lit, ok := r.literal[p]; ok {
			if lit == "" {
				return nil // name: leaves it out
			}
			return lit
		}
		_, filler := w.kind(r.ids[p])
		return filler
	}
	path := r.path
	query := url.Values{}
	for _, p := range slices.Concat(slices.Collect(maps.Keys(r.ids)), slices.Collect(maps.Keys(r.literal))) {
		in, name, _ := strings.Cut(p, ".")
		switch in {
		case "path":
			path = strings.ReplaceAll(path, "{"+name+"}", url.PathEscape(fmt.Sprint(val(p))))
		case "query":
			if v := val(p); v != nil { // a nil filler leaves a filter out
				query.Set(name, fmt.Sprint(v))
			}
		}
	}
	if len(query) > 0 {
		path += "?" + query.Encode()
	}
	c := w.me.Client(h)
	if r.body == nil {
		return c.Do(r.method, path, nil), r.method + " " + path
	}
	body := map[string]any{}
	for k, v := range r.body {
		if _, bound := r.ids["body."+k]; bound {
			v = val("body." + k)
			if _, list := r.body[k].([]any); list && v != nil {
				v = []any{v}
			}
		}
		body[k] = v
	}
	if !r.form {
		data, _ := json.Marshal(body)
		return c.Do(r.method, path, data), fmt.Sprintf("%s %s %s", r.method, path, data)
	}
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, k := range slices.Sorted(maps.Keys(body)) {
		if body[k] != nil {
			_ = mw.WriteField(k, fmt.Sprint(body[k]))
		}
	}
	fw, _ := mw.CreateFormFile("file", "figure.png")
	_, _ = fw.Write(fixtures.PNG(1))
	_ = mw.Close()
	return c.With("Content-Type", mw.FormDataContentType()).Do(r.method, path, buf.Bytes()),
		fmt.Sprintf("%s %s (form %v)", r.method, path, body)
}

// swap writes id b wherever body says id a, so answers about different
// ids compare equal when they say the same thing.
func swap(body []byte, a, b any) []byte {
	re := regexp.MustCompile(`\b` + regexp.QuoteMeta(fmt.Sprint(a)) + `\b`)
	return re.ReplaceAllLiteral(body, []byte(fmt.Sprint(b)))
}
