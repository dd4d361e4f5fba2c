// Package web serves the browser client: the Vite build in dist, embedded in
// the binary. Paths outside /api, /uploads and /admin/jobs (River's job UI)
// are the client's: a file of the build when one matches, else index.html
// so the client's router handles the route (a reload on /quizzes/42 works).
package web

import (
	"bytes"
	"compress/gzip"
	"embed"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
	"sync"
	"time"
)

//go:embed all:dist
var dist embed.FS

// CSP allows only the client's own scripts, styles and calls: no inline
// script or style, no framing. Images may be data: or blob: URLs (uploads
// previewed before sending).
const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; " +
	"connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"

// Serve puts the embedded client in front of api. Without a build (a fresh
// clone that never ran `go tool task web:build`) it returns api unchanged, so
// the development landing page keeps the root.
func Serve(api http.Handler) http.Handler {
	sub, _ := fs.Sub(dist, "dist")
	h, ok := Handler(sub, api)
	if !ok {
		return api
	}
	return h
}

// Handler serves the client in fsys (a Vite build: index.html and assets/)
// in front of api; ok is false when fsys holds no index.html.
func Handler(fsys fs.FS, api http.Handler) (h http.Handler, ok bool) {
	index, err := fs.ReadFile(fsys, "index.html")
	if err != nil {
		return nil, false
	}
	files := http.FileServerFS(fsys)
	zipped := &gzipCache{m: map[string][]byte{}}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		if isServer(p) || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
			api.ServeHTTP(w, r)
			return
		}
		name := strings.TrimPrefix(path.Clean(p), "/")
		if st, err := fs.Stat(fsys, name); err == nil && !st.IsDir() && name != "index.html" {
			// Vite names every file under assets/ by its content hash.
			if strings.HasPrefix(name, "assets/") {
				w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
			} else {
				w.Header().Set("Cache-Control", "no-cache")
			}
			w.Header().Set("Content-Security-Policy", CSP)
			w.Header().Set("X-Content-Type-Options", "nosniff")
			if z := zipped.get(fsys, name); z != nil && strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
				w.Header().Set("Content-Encoding", "gzip")
				w.Header().Set("Vary", "Accept-Encoding")
				w.Header().Set("Content-Type", mime.TypeByExtension(path.Ext(name)))
				http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(z))
				return
			}
			files.ServeHTTP(w, r)
			return
		}
		if strings.HasPrefix(name, "assets/") {
			// A missing hashed asset is an old build's: a 404, never the page.
			api.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("Content-Security-Policy", CSP)
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Referrer-Policy", "same-origin")
		http.ServeContent(w, r, "index.html", time.Time{}, bytes.NewReader(index))
	}), true
}

// isServer reports the paths the API and the media routes own.
func isServer(p string) bool {
	for _, prefix := range []string{"/api", "/uploads", "/admin/jobs"} {
		if p == prefix || strings.HasPrefix(p, prefix+"/") {
			return true
		}
	}
	return false
}

// gzipCache holds the gzip of each script and style sheet of the build,
// made on first request: the bundle shrinks to about a third, and the
// build is small enough to keep in memory.
type gzipCache struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (c *gzipCache) get(fsys fs.FS, name string) []byte {
	if ext := path.Ext(name); ext != ".js" && ext != ".css" {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if z, ok := c.m[name]; ok {
		return z
	}
	raw, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	_, _ = zw.Write(raw)
	_ = zw.Close()
	c.m[name] = buf.Bytes()
	return c.m[name]
}
