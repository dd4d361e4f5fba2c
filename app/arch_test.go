package app_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// module is the import path every rule below is written relative to.
const module = "github.com/roundsedu/rounds/"

// sqlAllowed names the packages besides platform/db that may import
// database/sql or pgx, each with its reason.
var sqlAllowed = map[string]string{
	// River's drivers are typed on them: riverdatabasesql inserts jobs in the
	// caller's *sql.Tx on the gorm pool, riverpgxv5 runs workers on a pgxpool.
	"platform/jobs": "River's drivers are typed on *sql.Tx and *pgxpool.Pool",
}

// inModules is the test support that stays inside its module, because it
// is built on that module's internal packages, which Go's internal rule
// keeps from e2e/support. Everything else lives in e2e/support.
var inModules = map[string]string{
	"modules/search/standin":           "answers with search's own embedder (internal/embed)",
	"modules/interchange/ankifixtures": "writes packages with the exporter's own writer (internal/anki)",
}

var (
	moduleRoot = regexp.MustCompile(`^modules/([^/]+)`)
	moduleHTTP = regexp.MustCompile(`^modules/([^/]+)/internal/http(/|$)`)
)

// rule is one architectural constraint: broken reports whether the package
// from (relative to the module) may not import imp (relative when it is
// ours, as Go spells it otherwise).
type rule struct {
	name   string
	broken func(from, imp string) bool
}

var rules = []rule{
	{"platform imports no module and never app", func(from, imp string) bool {
		return under(from, "platform") && (under(imp, "modules") || under(imp, "app"))
	}},
	{"a module never imports app (app wires the modules)", func(from, imp string) bool {
		return under(from, "modules") && under(imp, "app")
	}},
	{"database/sql and pgx only in platform/db", func(from, imp string) bool {
		if imp != "database/sql" && !strings.HasPrefix(imp, "github.com/jackc/pgx") {
			return false
		}
		_, allowed := sqlAllowed[from]
		return from != "platform/db" && !allowed
	}},
	{"a module's internal/http never imports its own internal/store", func(from, imp string) bool {
		m := moduleHTTP.FindStringSubmatch(from)
		return m != nil && under(imp, "modules/"+m[1]+"/internal/store")
	}},
	{"modules meet only at another module's public packages, never its internal/", func(from, imp string) bool {
		a, b := moduleRoot.FindStringSubmatch(from), moduleRoot.FindStringSubmatch(imp)
		return a != nil && b != nil && a[1] != b[1] && strings.Contains(imp+"/", "/internal/")
	}},
	{"production code never imports test support", func(from, imp string) bool {
		return production(from) && testSupport(imp)
	}},
}

// under reports whether p is dir or inside it.
func under(p, dir string) bool { return p == dir || strings.HasPrefix(p, dir+"/") }

// production is the code that ships in the binary: app, platform and the
// modules, but not the test support kept among them.
func production(p string) bool {
	return (under(p, "app") || under(p, "platform") || under(p, "modules")) && !testSupport(p)
}

// testSupport is what only tests may import: the e2e tree (harness,
// fixtures, e2e/support), the test stand-ins, Go's testing packages and
// the Ginkgo/Gomega runners.
func testSupport(p string) bool {
	_, kept := inModules[p]
	return under(p, "e2e") || kept ||
		under(p, "testing") || p == "net/http/httptest" ||
		under(p, "github.com/onsi/ginkgo/v2") || under(p, "github.com/onsi/gomega")
}

// listed is the part of `go list -json` the rules read.
type listed struct {
	ImportPath string
	Imports    []string
}

// packages lists every package of the module with its non-test imports,
// paths relative to the module.
func packages(t *testing.T) map[string][]string {
	t.Helper()
	gomod, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	cmd := exec.Command("go", "list", "-e", "-json=ImportPath,Imports", "./...")
	cmd.Dir = filepath.Dir(strings.TrimSpace(string(gomod)))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	pkgs := map[string][]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listed
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		var imps []string
		for _, imp := range p.Imports {
			imps = append(imps, strings.TrimPrefix(imp, module))
		}
		pkgs[strings.TrimPrefix(p.ImportPath, module)] = imps
	}
	if len(pkgs) == 0 {
		t.Fatal("go list found no packages")
	}
	return pkgs
}

// TestArchitecture checks every import of every package against the rules
// and names each one that breaks a rule (package → import).
func TestArchitecture(t *testing.T) {
	pkgs := packages(t)
	for _, r := range rules {
		for from, imps := range pkgs {
			for _, imp := range imps {
				if !r.broken(from, imp) {
					continue
				}
				t.Errorf("%s: %s → %s", r.name, from, imp)
			}
		}
	}
}

// TestArchitectureRules shows each rule refusing the import it is about and
// allowing its neighbours, so a rule that matches nothing cannot pass unseen.
func TestArchitectureRules(t *testing.T) {
	cases := []struct {
		from, imp string
		broken    bool
	}{
		{"platform/httpapi", "modules/bank", true},
		{"platform/httpapi", "app", true},
		{"platform/httpapi", "platform/apperr", false},
		{"modules/search/internal/bench", "app", true},
		{"app", "modules/bank", false},
		{"modules/bank/internal/store", "database/sql", true},
		{"e2e/harness", "github.com/jackc/pgx/v5/stdlib", true},
		{"platform/db", "github.com/jackc/pgx/v5/pgconn", false},
		{"platform/jobs", "database/sql", false},
		{"modules/flashcards/internal/store", "database/sql/driver", false},
		{"modules/bank/internal/http", "modules/bank/internal/store", true},
		{"modules/bank/internal/http/dto", "modules/bank/internal/store", true},
		{"modules/bank/internal/http", "modules/bank/internal/app", false},
		{"modules/bank/internal/http", "modules/library/internal/store", true},
		{"modules/ai/internal/app", "modules/bank/internal/store", true},
		{"modules/ai/internal/app", "modules/bank", false},
		{"modules/bank/internal/app", "modules/bank/internal/store", false},
		{"modules/bank", "e2e/harness", true},
		{"platform/jobs", "testing", true},
		{"app", "github.com/onsi/gomega", true},
		{"modules/bank/internal/app", "e2e/support/standin", true},
		{"modules/bank", "modules/search/standin", true},
		{"modules/interchange", "modules/interchange/ankifixtures", true},
		{"e2e/ai", "e2e/support/standin", false},
		{"modules/search/standin", "net/http/httptest", false},
	}
	for _, c := range cases {
		var broke []string
		for _, r := range rules {
			if r.broken(c.from, c.imp) {
				broke = append(broke, r.name)
			}
		}
		if (len(broke) > 0) != c.broken {
			t.Errorf("%s → %s: broken %v, want %v (rules %q)", c.from, c.imp, len(broke) > 0, c.broken, broke)
		}
	}
}
