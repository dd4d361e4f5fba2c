package harness

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/roundsedu/rounds/platform/apperr"
)

// Contract is the served OpenAPI document as the contract checks read it:
// each operation's path and the statuses it declares. Every answer a
// suite's client receives is checked against it (Client.Do): a status the
// operation that answered did not declare, or an error whose envelope code
// is not one of the spec's, is recorded, and Stop fails the suite naming
// each one. So the document cannot drift from what the routes do, for
// every route any suite drives.
type Contract struct {
	ops []*Operation
}

// param marks a path parameter's segment.
const param = "{}"

// Operation is one operation of the document.
type Operation struct {
	Method, Path string
	segments     []string // param for a parameter
	Statuses     map[int]bool
}

// LoadContract reads the document a server serves at base.
func LoadContract(c *http.Client, base string) (*Contract, error) {
	res, err := c.Get(base + "/api/openapi.json")
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET /api/openapi.json: %d", res.StatusCode)
	}
	var doc struct {
		Paths map[string]map[string]struct {
			Responses map[string]json.RawMessage `json:"responses"`
		} `json:"paths"`
	}
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, err
	}
	out := &Contract{}
	for path, methods := range doc.Paths {
		for method, op := range methods {
			o := &Operation{Method: strings.ToUpper(method), Path: path, Statuses: map[int]bool{}}
			for _, seg := range strings.Split(path, "/") {
				if strings.HasPrefix(seg, "{") {
					seg = param
				}
				o.segments = append(o.segments, seg)
			}
			for code := range op.Responses {
				if n, err := strconv.Atoi(code); err == nil {
					o.Statuses[n] = true
				}
			}
			out.ops = append(out.ops, o)
		}
	}
	return out, nil
}

// Served is the operation that serves method on a request path (query
// allowed, /api/... aliases resolved), as the router picks it: a literal
// segment wins over a parameter, from the left. nil when none does (the
// router's own 404 or 405).
func (c *Contract) Served(method, path string) *Operation {
	u, err := url.Parse(path)
	if err != nil {
		return nil
	}
	p := u.Path
	if rest, ok := strings.CutPrefix(p, "/api/"); ok && !strings.HasPrefix(rest, "v1/") {
		p = "/api/v1/" + rest
	}
	segs := strings.Split(p, "/")
	var best *Operation
	var bestRank []bool
	for _, o := range c.ops {
		if o.Method != method || len(o.segments) != len(segs) {
			continue
		}
		rank, ok := make([]bool, len(segs)), true
		for i, s := range o.segments {
			switch {
			case s == param:
				ok = segs[i] != "" // the router matches no empty parameter
			case s == segs[i]:
				rank[i] = true
			default:
				ok = false
			}
			if !ok {
				break
			}
		}
		if ok && (best == nil || better(rank, bestRank)) {
			best, bestRank = o, rank
		}
	}
	return best
}

// better reports whether a wins the router's choice: the first segment
// where they differ is a literal in a.
func better(a, b []bool) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i]
		}
	}
	return false
}

// Undeclared describes an answer whose status its operation does not
// declare, or "" when it does (or no operation served it).
func (c *Contract) Undeclared(method, path string, status int) string {
	o := c.Served(method, path)
	if o == nil || o.Statuses[status] {
		return ""
	}
	return fmt.Sprintf("%s %s answered %d, which it does not declare (declared: %s)", o.Method, o.Path, status, o.declared())
}

func (o *Operation) declared() string {
	codes := make([]int, 0, len(o.Statuses))
	for c := range o.Statuses {
		codes = append(codes, c)
	}
	sort.Ints(codes)
	parts := make([]string, len(codes))
	for i, c := range codes {
		parts[i] = strconv.Itoa(c)
	}
	return strings.Join(parts, " ")
}

// contractCheck is a harness's record of the answers it saw that their
// operation does not declare.
type contractCheck struct {
	once       sync.Once
	contract   *Contract
	loadErr    error
	mu         sync.Mutex
	undeclared map[string]bool
}

// checkAnswer records res when its status is undeclared or its code is
// not the spec's. A test balancer's own answer is no operation's.
func (h *Harness) checkAnswer(res *Response) {
	if res.Header.Get(OwnAnswerHeader) != "" {
		return
	}
	h.contractCheck.once.Do(func() {
		h.contractCheck.contract, h.contractCheck.loadErr = LoadContract(h.HTTP, h.BaseURL)
	})
	cc := &h.contractCheck
	if cc.contract == nil {
		return
	}
	for _, msg := range []string{cc.contract.Undeclared(res.Method, res.Path, res.Status), ForeignCode(res)} {
		if msg == "" {
			continue
		}
		cc.mu.Lock()
		if cc.undeclared == nil {
			cc.undeclared = map[string]bool{}
		}
		cc.undeclared[msg] = true
		cc.mu.Unlock()
	}
}

// ForeignCode describes an error answer whose envelope code is not one of
// the spec's (apperr.Codes), or "" when it is, or the answer is no
// envelope (a redirect, a page, a file).
func ForeignCode(res *Response) string {
	if res.Status < 400 {
		return ""
	}
	var env struct {
		Error *struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	if json.Unmarshal(res.Body, &env) != nil || env.Error == nil {
		return ""
	}
	for _, c := range apperr.Codes {
		if env.Error.Code == c.String() {
			return ""
		}
	}
	return fmt.Sprintf("%s %s answered %d with the code %q, which is not one of the spec's", res.Method,
		pathOnly(res.Path), res.Status, env.Error.Code)
}

// pathOnly is a request path without its query, so that one message
// stands for every request of an operation.
func pathOnly(p string) string {
	if u, err := url.Parse(p); err == nil {
		return u.Path
	}
	return p
}

// contractErr names every undeclared answer seen.
func (h *Harness) contractErr() error {
	cc := &h.contractCheck
	cc.mu.Lock()
	defer cc.mu.Unlock()
	if cc.loadErr != nil {
		return fmt.Errorf("contract check: %w", cc.loadErr)
	}
	if len(cc.undeclared) == 0 {
		return nil
	}
	msgs := make([]string, 0, len(cc.undeclared))
	for m := range cc.undeclared {
		msgs = append(msgs, m)
	}
	sort.Strings(msgs)
	return fmt.Errorf("answers outside the contract:\n  %s", strings.Join(msgs, "\n  "))
}
