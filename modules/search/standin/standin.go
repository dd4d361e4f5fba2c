// Package standin is a test stand-in for the paid model proxy: an
// in-process HTTP server speaking the real wire protocols search's models
// use through the AI module's gateway
// (OpenAI POST /v1/embeddings, Cohere-style POST /v1/rerank), with switches
// for the ways a real endpoint fails. Vectors come from the local embedder
// and rerank scores from its cosine similarity, so results still make sense.
// Only tests and benchmarks import it.
package standin

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	"github.com/roundsedu/rounds/modules/search/internal/embed"
)

// Mode is how an endpoint behaves.
type Mode string

// Behaviours.
const (
	OK          Mode = "ok"
	Down        Mode = "down"         // hangs up without answering
	Slow        Mode = "slow"         // answers correctly after SlowDelay
	RateLimited Mode = "rate_limited" // 429
	ServerError Mode = "server_error" // 500
	Garbage     Mode = "garbage"      // 200 with a body that is not the protocol
	Mismatch    Mode = "mismatch"     // well-formed, but not one result per input
	WrongDims   Mode = "wrong_dims"   // vectors of the wrong size (embeddings only)
)

// Request is what one call asked.
type Request struct {
	Key       string // the bearer key
	Model     string
	Query     string   // rerank
	Documents []string // rerank documents or embedding inputs
}

// Server is the stand-in.
type Server struct {
	// URL is the base URL to configure, ending in /v1.
	URL string

	srv   *httptest.Server
	local *embed.Local

	mu        sync.Mutex
	embedMode Mode
	rankMode  Mode
	delay     time.Duration // added to every OK answer
	slowDelay time.Duration
	prefer    string
	embedLog  []Request
	rerankLog []Request
}

// New starts a stand-in producing vectors of dims floats.
func New(dims int) *Server {
	s := &Server{local: embed.NewLocal(dims), embedMode: OK, rankMode: OK, slowDelay: 5 * time.Second}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/embeddings", s.embeddings)
	mux.HandleFunc("POST /v1/rerank", s.rerank)
	s.srv = httptest.NewServer(mux)
	s.URL = s.srv.URL + "/v1"
	return s
}

// Close stops the server.
func (s *Server) Close() {
	s.srv.CloseClientConnections()
	s.srv.Close()
}

// SetEmbeddings switches the embeddings endpoint's behaviour.
func (s *Server) SetEmbeddings(m Mode) { s.mu.Lock(); s.embedMode = m; s.mu.Unlock() }

// SetRerank switches the rerank endpoint's behaviour.
func (s *Server) SetRerank(m Mode) { s.mu.Lock(); s.rankMode = m; s.mu.Unlock() }

// SetDelay slows every successful answer by d (a slow but working proxy).
func (s *Server) SetDelay(d time.Duration) { s.mu.Lock(); s.delay = d; s.mu.Unlock() }

// SetSlowDelay is how long Slow mode waits before answering.
func (s *Server) SetSlowDelay(d time.Duration) { s.mu.Lock(); s.slowDelay = d; s.mu.Unlock() }

// Prefer makes the reranker score documents containing substr above all
// others, so a test can tell a reranked order from the fused one.
func (s *Server) Prefer(substr string) { s.mu.Lock(); s.prefer = substr; s.mu.Unlock() }

// Vector is the vector the stand-in answers for text (before the
// caller's normalisation; the local embedder's are unit already).
func (s *Server) Vector(text string) []float32 { return s.local.Vector(text) }

// EmbedRequests and RerankRequests return what was asked so far.
func (s *Server) EmbedRequests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.embedLog...)
}

// RerankRequests returns the rerank calls received.
func (s *Server) RerankRequests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.rerankLog...)
}

// fail answers the failure modes shared by both endpoints; it reports
// whether it wrote the answer.
func (s *Server) fail(w http.ResponseWriter, m Mode, slow time.Duration) bool {
	switch m {
	case Down:
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				_ = conn.Close()
			}
		}
		return true
	case Slow:
		time.Sleep(slow)
	case RateLimited:
		w.Header().Set("Retry-After", "30")
		writeJSON(w, http.StatusTooManyRequests, map[string]any{"error": map[string]any{
			"message": "rate limit reached for requests", "type": "rate_limit_error", "code": "rate_limit_exceeded"}})
		return true
	case ServerError:
		writeJSON(w, http.StatusInternalServerError, map[string]any{"error": map[string]any{
			"message": "upstream model crashed", "type": "server_error"}})
		return true
	case Garbage:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte(`<html>502 Bad Gateway</html>`))
		return true
	}
	return false
}

func (s *Server) embeddings(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model string          `json:"model"`
		Input json.RawMessage `json:"input"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": map[string]any{"message": "invalid JSON"}})
		return
	}
	var inputs []string
	if err := json.Unmarshal(req.Input, &inputs); err != nil {
		var one string
		if json.Unmarshal(req.Input, &one) != nil {
			writeJSON(w, http.StatusBadRequest, map[string]any{"error": map[string]any{"message": "input must be a string or an array of strings"}})
			return
		}
		inputs = []string{one}
	}
	s.mu.Lock()
	mode, delay, slow := s.embedMode, s.delay, s.slowDelay
	s.embedLog = append(s.embedLog, Request{Key: bearer(r), Model: req.Model, Documents: inputs})
	s.mu.Unlock()
	if s.fail(w, mode, slow) {
		return
	}
	time.Sleep(delay)
	for _, in := range inputs {
		if strings.TrimSpace(in) == "" {
			writeJSON(w, http.StatusBadRequest, map[string]any{"error": map[string]any{"message": "input cannot be an empty string"}})
			return
		}
	}
	data := make([]map[string]any, 0, len(inputs))
	for i, in := range inputs {
		v := s.local.Vector(in)
		if v == nil {
			v = make([]float32, s.local.Dims())
			v[0] = 1 // a real model always answers with some vector
		}
		if mode == WrongDims {
			v = v[:len(v)/2]
		}
		data = append(data, map[string]any{"object": "embedding", "index": i, "embedding": v})
	}
	if mode == Mismatch && len(data) > 0 {
		data = data[:len(data)-1]
		if len(data) == 0 {
			data = append(data, map[string]any{"object": "embedding", "index": 7, "embedding": []float32{1}})
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": data, "model": req.Model,
		"usage": map[string]any{"prompt_tokens": len(inputs), "total_tokens": len(inputs)}})
}

func (s *Server) rerank(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model     string   `json:"model"`
		Query     string   `json:"query"`
		Documents []string `json:"documents"`
		TopN      int      `json:"top_n"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Query == "" || len(req.Documents) == 0 {
		writeJSON(w, http.StatusBadRequest, map[string]any{"message": "query and documents are required"})
		return
	}
	s.mu.Lock()
	mode, delay, slow, prefer := s.rankMode, s.delay, s.slowDelay, s.prefer
	s.rerankLog = append(s.rerankLog, Request{Key: bearer(r), Model: req.Model, Query: req.Query, Documents: req.Documents})
	s.mu.Unlock()
	if s.fail(w, mode, slow) {
		return
	}
	time.Sleep(delay)
	q := s.local.Vector(req.Query)
	type result struct {
		Index int     `json:"index"`
		Score float64 `json:"relevance_score"`
	}
	results := make([]result, len(req.Documents))
	for i, d := range req.Documents {
		score := (embed.Cosine(q, s.local.Vector(d)) + 1) / 4 // 0..0.5
		if prefer != "" && strings.Contains(d, prefer) {
			score += 0.5
		}
		results[i] = result{Index: i, Score: score}
	}
	// Best first, as the real endpoints answer.
	for i := 1; i < len(results); i++ {
		for j := i; j > 0 && results[j].Score > results[j-1].Score; j-- {
			results[j], results[j-1] = results[j-1], results[j]
		}
	}
	if req.TopN > 0 && req.TopN < len(results) {
		results = results[:req.TopN]
	}
	if mode == Mismatch {
		results = append(results[:len(results)-1], result{Index: len(req.Documents) + 3, Score: 0.9})
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": "rerank-standin", "results": results,
		"meta": map[string]any{"billed_units": map[string]any{"search_units": 1}}})
}

func bearer(r *http.Request) string {
	return strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
