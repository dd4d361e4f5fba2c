package harness

import (
	"strings"
	"testing"
)

func contractOf(t *testing.T, ops map[string][]int) *Contract {
	t.Helper()
	c := &Contract{}
	for key, statuses := range ops {
		method, path, _ := strings.Cut(key, " ")
		o := &Operation{Method: method, Path: path, Statuses: map[int]bool{}}
		for _, seg := range strings.Split(path, "/") {
			if strings.HasPrefix(seg, "{") {
				seg = param
			}
			o.segments = append(o.segments, seg)
		}
		for _, s := range statuses {
			o.Statuses[s] = true
		}
		c.ops = append(c.ops, o)
	}
	return c
}

// An answer is checked against the operation the router picked: a literal
// segment before a parameter, the /api alias resolved, the query ignored.
func TestUndeclaredStatusesAreNamed(t *testing.T) {
	c := contractOf(t, map[string][]int{
		"GET /api/v1/questions/{id}":    {200, 404},
		"GET /api/v1/questions/trash":   {200, 403},
		"POST /api/v1/share/open/{tok}": {200},
	})
	for _, ok := range []struct {
		method, path string
		status       int
	}{
		{"GET", "/api/v1/questions/7", 404},
		{"GET", "/api/questions/7?x=1", 200},
		{"GET", "/api/v1/questions/trash", 403},
		{"GET", "/api/v1/no/such/route", 418}, // no operation: the router's own answer
		{"DELETE", "/api/v1/questions/7", 405},
	} {
		if msg := c.Undeclared(ok.method, ok.path, ok.status); msg != "" {
			t.Errorf("%s %s %d: %s", ok.method, ok.path, ok.status, msg)
		}
	}
	msg := c.Undeclared("GET", "/api/v1/questions/trash", 404)
	if !strings.Contains(msg, "GET /api/v1/questions/trash answered 404") || !strings.Contains(msg, "declared: 200 403") {
		t.Errorf("a literal segment wins over a parameter: %q", msg)
	}
	if msg := c.Undeclared("GET", "/api/v1/questions/7", 403); msg == "" {
		t.Error("an undeclared 403 passed")
	}
}

func TestForeignCodesAreNamed(t *testing.T) {
	answer := func(status int, body string) *Response {
		return &Response{Status: status, Body: []byte(body), Method: "POST", Path: "/api/v1/drafts/documents?x=1"}
	}
	for _, res := range []*Response{
		answer(400, `{"detail":"not a PDF","error":{"code":"bad_request","message":"not a PDF"}}`),
		answer(410, `{"detail":"gone","error":{"code":"not_found","message":"gone"}}`),
		answer(302, `{"error":{"code":"elsewhere"}}`),
		answer(404, `<html>not json</html>`),
	} {
		if msg := ForeignCode(res); msg != "" {
			t.Errorf("%d %s: %s", res.Status, res.Body, msg)
		}
	}
	for _, code := range []string{"invalid_pdf", "gone", "method_not_allowed", ""} {
		msg := ForeignCode(answer(400, `{"error":{"code":"`+code+`","message":"x"}}`))
		if !strings.Contains(msg, `POST /api/v1/drafts/documents answered 400 with the code "`+code+`"`) {
			t.Errorf("code %q: %q", code, msg)
		}
	}
}
