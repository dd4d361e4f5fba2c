// Package authz_test is the authorisation matrix: every operation of the
// served OpenAPI document, and the routes served outside it (outside), is
// called as each kind of caller (anonymous, a learner, a learner holding an
// editorial grant, a moderator, an admin) and what the gate answered is
// compared with matrix.txt, one row an operation.
// A new route without a row, a row without a route, or a caller let in or
// kept out where the table says otherwise fails the test; so does any 5xx
// other than 503 (no model configured) for a request a client could send.
// `ROUNDS_AUTHZ_ACCEPT=1 go test ./e2e/authz/` rewrites the table after a
// deliberate change, to be reviewed in the diff.
package authz_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

const table = "matrix.txt"

// callers in the table's column order.
var callers = []string{"anon", "learner", "grant", "mod", "admin"}

type operation struct {
	method, path string
	secured      bool
	jsonBody     bool
}

func TestMatrix(t *testing.T) {
	h, err := harness.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = h.Stop() }()

	mod := h.NewUser(auth.RoleModerator)
	cat := mod.Client(h).Post("/api/v1/question-categories/", map[string]any{"name": "Matrix grants"})
	if cat.Status != http.StatusCreated {
		t.Fatalf("make a category: %d %s", cat.Status, cat.Body)
	}
	holder := h.NewUser(auth.RoleUser)
	give := mod.Client(h).Post(fmt.Sprintf("/api/v1/access/%d/grants", holder.ID),
		map[string]any{"kind": "category", "target_id": cat.Map()["id"]})
	if give.Status != http.StatusCreated {
		t.Fatalf("give the grant: %d %s", give.Status, give.Body)
	}
	clients := map[string]*harness.Client{
		"anon":    h.Anon(),
		"learner": h.NewUser(auth.RoleUser).Client(h),
		"grant":   holder.Client(h),
		"mod":     mod.Client(h),
		"admin":   h.NewUser(auth.RoleAdmin).Client(h),
	}

	ops := operations(t, h)
	rows := make([]string, 0, len(ops))
	for _, op := range ops {
		cells := make([]string, len(callers))
		for i, who := range callers {
			res := clients[who].Do(op.method, op.url(), op.body())
			if res.Status >= 500 && res.Status != http.StatusServiceUnavailable {
				t.Errorf("%s %s as %s: %d\n%s", op.method, op.path, who, res.Status, res.Body)
			}
			cells[i] = who + "=" + gate(res.Status)
		}
		if anonKept := cells[0] == "anon=401"; anonKept != op.secured {
			t.Errorf("%s %s: the document says secured=%v, but anonymous got %s", op.method, op.path, op.secured, cells[0])
		}
		rows = append(rows, fmt.Sprintf("%s %s  %s", op.method, op.path, strings.Join(cells, " ")))
	}
	got := "# caller: 401 kept out (no session), 403 refused (role or grant), ok let through the gate\n" +
		strings.Join(rows, "\n") + "\n"

	if os.Getenv("ROUNDS_AUTHZ_ACCEPT") != "" {
		if err := os.WriteFile(table, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s (%d operations)", table, len(rows))
		return
	}
	want, err := os.ReadFile(table)
	if err != nil {
		t.Fatalf("%v (run ROUNDS_AUTHZ_ACCEPT=1 go test ./e2e/authz/ to write it)", err)
	}
	wantRows := strings.Split(strings.TrimSpace(string(want)), "\n")
	for _, r := range rows {
		if !slices.Contains(wantRows, r) {
			t.Errorf("not in %s as served (a new route needs a row; a changed gate, a reviewed change):\n  %s", table, r)
		}
	}
	for _, r := range wantRows[1:] {
		if !slices.Contains(rows, r) {
			t.Errorf("a row of %s no longer served like this:\n  %s", table, r)
		}
	}
}

// gate is what a status says of the gate: 401 and 403 keep a caller out;
// anything else (the handler's own 2xx, 404, 409, 422...) let them through.
func gate(status int) string {
	if status == http.StatusUnauthorized || status == http.StatusForbidden {
		return strconv.Itoa(status)
	}
	return "ok"
}

// operations reads the served document; signing out goes last so each
// caller's session lasts the whole matrix.
func operations(t *testing.T, h *harness.Harness) []operation {
	res := h.Anon().Get("/api/openapi.json")
	if res.Status != http.StatusOK {
		t.Fatalf("GET /api/openapi.json: %d", res.Status)
	}
	var doc struct {
		Paths map[string]map[string]struct {
			Security    []map[string][]string `json:"security"`
			RequestBody *struct {
				Content map[string]any `json:"content"`
			} `json:"requestBody"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(res.Body, &doc); err != nil {
		t.Fatal(err)
	}
	var ops []operation
	for path, methods := range doc.Paths {
		for method, o := range methods {
			op := operation{method: strings.ToUpper(method), path: path, secured: len(o.Security) > 0}
			if o.RequestBody != nil {
				_, op.jsonBody = o.RequestBody.Content["application/json"]
			}
			ops = append(ops, op)
		}
	}
	ops = append(ops, outside...)
	slices.SortFunc(ops, func(a, b operation) int {
		if a.endsSession() != b.endsSession() {
			if a.endsSession() {
				return 1
			}
			return -1
		}
		return strings.Compare(a.path+" "+a.method, b.path+" "+b.method)
	})
	return ops
}

func (o operation) endsSession() bool { return o.path == "/api/v1/auth/logout" }

// outside are routes served outside the document: River's job UI for
// admins (its page and its API), which browsers open with the media cookie
// and clients with a bearer token. A queue name nothing has keeps the
// pause from pausing anything.
var outside = []operation{
	{method: "GET", path: "/admin/jobs/", secured: true},
	{method: "GET", path: "/admin/jobs/api/jobs", secured: true},
	{method: "GET", path: "/admin/jobs/api/queues", secured: true},
	{method: "POST", path: "/admin/jobs/api/jobs/cancel", secured: true, jsonBody: true},
	{method: "POST", path: "/admin/jobs/api/jobs/retry", secured: true, jsonBody: true},
	{method: "PUT", path: "/admin/jobs/api/queues/{name}/pause", secured: true},
}

var pathParam = regexp.MustCompile(`\{[^}]+\}`)

// url fills every path parameter with an id nothing has, so a write that
// gets past the gate finds nothing to change.
func (o operation) url() string {
	return pathParam.ReplaceAllString(o.path, "987654321")
}

// body is an empty JSON object for a JSON body (the handler's validation
// answers it after the gate), none otherwise.
func (o operation) body() any {
	if o.jsonBody {
		return map[string]any{}
	}
	return nil
}
