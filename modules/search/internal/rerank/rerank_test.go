package rerank_test

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/roundsedu/rounds/modules/search/internal/rerank"
	"github.com/roundsedu/rounds/modules/search/standin"
)

var docs = []string{"fracture of the wrist", "first-line treatment of hypertension", "asthma in children"}

func closedURL(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr + "/v1"
}

func TestScoresRankTheRelevantDocumentFirst(t *testing.T) {
	s := standin.New(64)
	defer s.Close()
	c := rerank.New(s.URL, "secret", 2*time.Second)
	scores, err := c.Scores(context.Background(), "rerank-model", "high blood pressure drugs", docs)
	if err != nil {
		t.Fatal(err)
	}
	if len(scores) != 3 || scores[1] <= scores[0] || scores[1] <= scores[2] {
		t.Fatalf("scores %v", scores)
	}
	req := s.RerankRequests()
	if len(req) != 1 || req[0].Model != "rerank-model" || len(req[0].Documents) != 3 {
		t.Fatalf("request %+v", req)
	}
}

func TestEveryFailureKind(t *testing.T) {
	s := standin.New(64)
	defer s.Close()
	s.SetSlowDelay(500 * time.Millisecond)
	cases := []struct {
		name string
		mode standin.Mode
		url  string
		want error
	}{
		{"down", standin.Down, "", rerank.ErrUnreachable},
		{"nothing listening", standin.OK, closedURL(t), rerank.ErrUnreachable},
		{"slow", standin.Slow, "", rerank.ErrTimeout},
		{"rate limited", standin.RateLimited, "", rerank.ErrRateLimited},
		{"server error", standin.ServerError, "", rerank.ErrUpstream},
		{"garbage", standin.Garbage, "", rerank.ErrMismatch},
		{"mismatched reply", standin.Mismatch, "", rerank.ErrMismatch},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s.SetRerank(tc.mode)
			url := tc.url
			if url == "" {
				url = s.URL
			}
			_, err := rerank.New(url, "", 100*time.Millisecond).Scores(context.Background(), "m", "q", docs)
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
}

func TestUnsetAndTooManyCandidates(t *testing.T) {
	if _, err := rerank.New("", "", time.Second).Scores(context.Background(), "m", "q", docs); !errors.Is(err, rerank.ErrUnset) {
		t.Fatalf("no endpoint: %v", err)
	}
	if _, err := rerank.New("http://127.0.0.1:1/v1", "", time.Second).Scores(context.Background(), "  ", "q", docs); !errors.Is(err, rerank.ErrUnset) {
		t.Fatalf("blank model: %v", err)
	}
	many := make([]string, rerank.MaxCandidates+1)
	if _, err := rerank.New("http://127.0.0.1:1/v1", "", time.Second).Scores(context.Background(), "m", "q", many); !errors.Is(err, rerank.ErrMismatch) {
		t.Fatalf("too many: %v", err)
	}
}
