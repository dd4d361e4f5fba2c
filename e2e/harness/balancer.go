package harness

import (
	"bytes"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
)

// BackendHeader names, on every answer of a Balancer, the backend that
// answered (or failed) it.
const BackendHeader = "X-Balancer-Backend"

// OwnAnswerHeader marks the balancer's own 502 (its backend died with the
// request in flight): no operation answered it, so the harness's contract
// check leaves it out.
const OwnAnswerHeader = "X-Balancer-Own-Answer"

// Balancer is a small reverse proxy in front of several serve processes,
// as a deployment's load balancer is: each request goes to the next
// backend in turn over a connection of its own. A backend that refuses the
// connection is taken out (nothing was sent, so the request goes to the
// next one); a backend that fails once the request has reached it (killed
// with the request in flight) gets the caller a 502. Request and answer
// bodies are held whole, so a caller sees a complete answer or a 502.
type Balancer struct {
	URL string

	srv       *httptest.Server
	backends  []string
	transport *http.Transport

	mu     sync.Mutex
	next   int
	down   map[string]bool
	served map[string]int
}

// StartBalancer listens on a loopback port in front of the backends
// (host:port each).
func StartBalancer(backends ...string) *Balancer {
	b := &Balancer{backends: backends, down: map[string]bool{}, served: map[string]int{},
		transport: &http.Transport{DisableKeepAlives: true}}
	b.srv = httptest.NewServer(b)
	b.URL = b.srv.URL
	return b
}

// Close stops the balancer.
func (b *Balancer) Close() { b.srv.Close() }

// Served is how many requests the backend answered or failed.
func (b *Balancer) Served(backend string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.served[backend]
}

// Down reports whether the backend was taken out.
func (b *Balancer) Down(backend string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.down[backend]
}

func (b *Balancer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	for range b.backends {
		backend, ok := b.pick()
		if !ok {
			break
		}
		req, err := http.NewRequestWithContext(r.Context(), r.Method, "http://"+backend+r.URL.RequestURI(), bytes.NewReader(body))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		req.Header = r.Header.Clone()
		res, err := b.transport.RoundTrip(req)
		var opErr *net.OpError
		if err != nil && errors.As(err, &opErr) && opErr.Op == "dial" {
			b.takeOut(backend)
			continue
		}
		b.count(backend)
		w.Header().Set(BackendHeader, backend)
		if err != nil {
			w.Header().Set(OwnAnswerHeader, "1")
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		data, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			w.Header().Set(OwnAnswerHeader, "1")
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		for k, vs := range res.Header {
			w.Header()[k] = vs
		}
		w.Header().Set(BackendHeader, backend)
		w.WriteHeader(res.StatusCode)
		_, _ = w.Write(data)
		return
	}
	w.WriteHeader(http.StatusServiceUnavailable)
}

// pick is the next backend in turn that is not taken out.
func (b *Balancer) pick() (string, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for range b.backends {
		be := b.backends[b.next%len(b.backends)]
		b.next++
		if !b.down[be] {
			return be, true
		}
	}
	return "", false
}

func (b *Balancer) takeOut(backend string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.down[backend] = true
}

func (b *Balancer) count(backend string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.served[backend]++
}
