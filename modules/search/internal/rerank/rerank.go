// Package rerank calls a cross-encoder rerank endpoint (Cohere's wire
// protocol, as served by LiteLLM and most proxies) and checks that the reply
// is an ordering of exactly the candidates sent.
package rerank

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strings"
	"time"
)

// MaxCandidates is the most documents one rerank may see (the spec's limit).
const MaxCandidates = 50

// Failure kinds, for logs and the admin test route.
var (
	ErrUnset       = errors.New("no rerank model or endpoint configured")
	ErrUnreachable = errors.New("rerank endpoint unreachable")
	ErrTimeout     = errors.New("rerank endpoint too slow")
	ErrRateLimited = errors.New("rerank endpoint rate-limited the call")
	ErrUpstream    = errors.New("rerank endpoint failed")
	ErrMismatch    = errors.New("rerank reply does not match the candidates")
)

// Client is one rerank endpoint.
type Client struct {
	baseURL string
	key     string
	timeout time.Duration
	http    *http.Client
}

// New makes a client for POST {baseURL}/rerank; an empty baseURL makes every
// call answer ErrUnset.
func New(baseURL, key string, timeout time.Duration) *Client {
	return &Client{baseURL: strings.TrimRight(baseURL, "/"), key: key, timeout: timeout, http: &http.Client{}}
}

// Configured reports whether an endpoint is set.
func (c *Client) Configured() bool { return c.baseURL != "" }

type request struct {
	Model           string   `json:"model"`
	Query           string   `json:"query"`
	Documents       []string `json:"documents"`
	TopN            int      `json:"top_n"`
	ReturnDocuments bool     `json:"return_documents"`
}

type reply struct {
	Results []struct {
		Index *int     `json:"index"`
		Score *float64 `json:"relevance_score"`
	} `json:"results"`
}

// Scores asks model to score docs against query and returns one relevance
// score per document, in the order the documents were given. Any failure
// is one of the Err values above, wrapped with the detail.
func (c *Client) Scores(ctx context.Context, model, query string, docs []string) ([]float64, error) {
	if c.baseURL == "" || strings.TrimSpace(model) == "" {
		return nil, ErrUnset
	}
	if len(docs) == 0 {
		return nil, nil
	}
	if len(docs) > MaxCandidates {
		return nil, fmt.Errorf("%w: %d candidates, at most %d", ErrMismatch, len(docs), MaxCandidates)
	}
	body, _ := json.Marshal(request{Model: model, Query: query, Documents: docs, TopN: len(docs)})
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.baseURL+"/rerank", bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnreachable, err)
	}
	req.Header.Set("Content-Type", "application/json")
	if c.key != "" {
		req.Header.Set("Authorization", "Bearer "+c.key)
	}
	res, err := c.http.Do(req)
	if err != nil {
		return nil, c.transportError(ctx, err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		return nil, c.transportError(ctx, err)
	}
	switch {
	case res.StatusCode == http.StatusTooManyRequests:
		return nil, fmt.Errorf("%w: %s", ErrRateLimited, snippet(data))
	case res.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("%w: status %d: %s", ErrUpstream, res.StatusCode, snippet(data))
	}
	return match(data, len(docs))
}

// match checks that the reply scores every candidate exactly once.
func match(data []byte, n int) ([]float64, error) {
	var r reply
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%w: not a rerank reply: %s", ErrMismatch, snippet(data))
	}
	if len(r.Results) != n {
		return nil, fmt.Errorf("%w: %d results for %d candidates", ErrMismatch, len(r.Results), n)
	}
	scores := make([]float64, n)
	seen := make([]bool, n)
	for _, res := range r.Results {
		if res.Index == nil || res.Score == nil {
			return nil, fmt.Errorf("%w: a result lacks index or relevance_score", ErrMismatch)
		}
		i := *res.Index
		if i < 0 || i >= n || seen[i] {
			return nil, fmt.Errorf("%w: index %d", ErrMismatch, i)
		}
		if math.IsNaN(*res.Score) || math.IsInf(*res.Score, 0) {
			return nil, fmt.Errorf("%w: non-finite score", ErrMismatch)
		}
		seen[i] = true
		scores[i] = *res.Score
	}
	return scores, nil
}

// transportError sorts a failed call or read: too slow, or unreachable.
func (c *Client) transportError(ctx context.Context, err error) error {
	if ctx.Err() != nil || isTimeout(err) {
		return fmt.Errorf("%w (over %s)", ErrTimeout, c.timeout)
	}
	return fmt.Errorf("%w: %v", ErrUnreachable, err)
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &t) && t.Timeout())
}

func snippet(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
