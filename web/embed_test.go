package web

import (
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"testing/fstest"
)

func TestHandler(t *testing.T) {
	build := fstest.MapFS{
		"index.html":           {Data: []byte("<!doctype html><div id=root></div>")},
		"assets/app-abc123.js": {Data: []byte("console.log(1)")},
		"favicon.svg":          {Data: []byte("<svg/>")},
	}
	api := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusTeapot)
	})
	h, ok := Handler(build, api)
	if !ok {
		t.Fatal("a build with index.html was refused")
	}
	cases := []struct {
		method, path string
		status       int
		body, cache  string
	}{
		{"GET", "/", 200, "<!doctype html><div id=root></div>", "no-cache"},
		{"GET", "/quizzes/42", 200, "<!doctype html><div id=root></div>", "no-cache"},
		{"GET", "/index.html", 200, "<!doctype html><div id=root></div>", "no-cache"},
		{"GET", "/assets/app-abc123.js", 200, "console.log(1)", "public, max-age=31536000, immutable"},
		{"GET", "/favicon.svg", 200, "<svg/>", "no-cache"},
		{"GET", "/assets/gone-000.js", 418, "", ""},
		{"GET", "/api/v1/health", 418, "", ""},
		{"GET", "/api", 418, "", ""},
		{"GET", "/uploads/a.png", 418, "", ""},
		{"GET", "/admin/jobs", 418, "", ""},
		{"GET", "/admin/jobs/jobs", 418, "", ""},
		{"GET", "/admin", 200, "<!doctype html><div id=root></div>", "no-cache"},
		{"POST", "/quizzes", 418, "", ""},
		{"GET", "/apiary", 200, "<!doctype html><div id=root></div>", "no-cache"},
		{"GET", "/../../etc/passwd", 200, "<!doctype html><div id=root></div>", "no-cache"},
	}
	for _, c := range cases {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(c.method, c.path, nil))
		if rec.Code != c.status {
			t.Errorf("%s %s: status %d, want %d", c.method, c.path, rec.Code, c.status)
			continue
		}
		if c.status != 200 {
			continue
		}
		if got := rec.Body.String(); got != c.body {
			t.Errorf("%s %s: body %q, want %q", c.method, c.path, got, c.body)
		}
		if got := rec.Header().Get("Cache-Control"); got != c.cache {
			t.Errorf("%s %s: Cache-Control %q, want %q", c.method, c.path, got, c.cache)
		}
		if got := rec.Header().Get("Content-Security-Policy"); got != CSP {
			t.Errorf("%s %s: CSP %q", c.method, c.path, got)
		}
	}
}

func TestGzipAssets(t *testing.T) {
	js := []byte("console.log('rounds');")
	h, _ := Handler(fstest.MapFS{"index.html": {Data: []byte("x")}, "assets/a-1.js": {Data: js}}, http.NotFoundHandler())
	req := httptest.NewRequest("GET", "/assets/a-1.js", nil)
	req.Header.Set("Accept-Encoding", "gzip, br")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Header().Get("Content-Encoding") != "gzip" || rec.Header().Get("Cache-Control") != "public, max-age=31536000, immutable" {
		t.Fatalf("headers %v", rec.Header())
	}
	if ct := rec.Header().Get("Content-Type"); ct != "text/javascript; charset=utf-8" {
		t.Fatalf("Content-Type %q", ct)
	}
	zr, err := gzip.NewReader(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := io.ReadAll(zr); string(got) != string(js) {
		t.Fatalf("body %q", got)
	}
}

func TestNoBuildLeavesTheAPI(t *testing.T) {
	api := http.NotFoundHandler()
	if _, ok := Handler(fstest.MapFS{".gitignore": {Data: []byte("*")}}, api); ok {
		t.Fatal("a dist without index.html must not be served")
	}
}
