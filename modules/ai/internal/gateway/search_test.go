package gateway

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/roundsedu/rounds/platform/apperr"
)

// TestRerankChecksTheReply: a reply must score every document exactly once
// with a finite score; anything else is a 502 that is not transient.
func TestRerankChecksTheReply(t *testing.T) {
	cases := map[string]struct {
		body    string
		want    []float64
		failure string
	}{
		"in order":       {body: `{"results":[{"index":1,"relevance_score":0.9},{"index":0,"relevance_score":0.1}]}`, want: []float64{0.1, 0.9}},
		"one missing":    {body: `{"results":[{"index":1,"relevance_score":0.9}]}`, failure: "1 results for 2"},
		"index twice":    {body: `{"results":[{"index":1,"relevance_score":0.9},{"index":1,"relevance_score":0.1}]}`, failure: "index 1"},
		"out of range":   {body: `{"results":[{"index":0,"relevance_score":0.9},{"index":5,"relevance_score":0.1}]}`, failure: "index 5"},
		"no score":       {body: `{"results":[{"index":0},{"index":1,"relevance_score":0.1}]}`, failure: "lacks"},
		"not a reply":    {body: `<html>502</html>`, failure: "failed"},
		"not the schema": {body: `{"results":"nope"}`, failure: "not a rerank reply"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != "/v1/rerank" {
					t.Errorf("path %s", r.URL.Path)
				}
				w.Header().Set("Content-Type", "application/json")
				_, _ = w.Write([]byte(c.body))
			}))
			defer srv.Close()
			g := &Gateway{Timeout: 2 * time.Second}
			got, err := g.Rerank(context.Background(), Target{BaseURL: srv.URL + "/v1", Model: "m"}, "q", []string{"a", "b"})
			if c.failure == "" {
				if err != nil || len(got) != 2 || got[0] != c.want[0] || got[1] != c.want[1] {
					t.Fatalf("got %v, %v", got, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.failure) || !apperr.Is(err, apperr.UpstreamFailed) {
				t.Fatalf("want a 502 saying %q, got %v", c.failure, err)
			}
			if f, ok := err.(*Failure); !ok || f.Transient() {
				t.Fatalf("a reply that does not fit is not transient: %#v", err)
			}
		})
	}
}
