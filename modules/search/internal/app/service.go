// Package app is the search module's service logic: keeping the index in
// step with source events, embedding off the request path, ranking (keyword,
// vector, fusion, rerank), embedding administration and site settings.
package app

import (
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"strings"

	"github.com/roundsedu/rounds/modules/search/internal/embed"
	"github.com/roundsedu/rounds/modules/search/internal/rerank"
	"github.com/roundsedu/rounds/modules/search/internal/store"
	"github.com/roundsedu/rounds/platform/jobs"
	"github.com/roundsedu/rounds/platform/settings"
)

// Kinds the index holds, and whether a search of each reranks. The spec
// reranks question and article search; flashcard and media search are not
// reranked.
var (
	Kinds    = []string{"question", "article", "deck", "media"}
	Reranked = map[string]bool{"question": true, "article": true, "deck": false, "media": false}
)

// IsKind reports a known kind.
func IsKind(k string) bool {
	_, ok := Reranked[k]
	return ok
}

// Tuning is the configuration the service runs with.
type Tuning struct {
	BatchSize           int     // texts per embedding request
	RetryMaxPerRun      int     // items one retry run looks at
	EfSearch            int     // HNSW candidate list
	HybridMinSimilarity float64 // vector hits below this do not enter fusion
}

// Service is the module's logic.
type Service struct {
	store    *store.Store
	embedder embed.Embedder
	reranker *rerank.Client
	queue    *jobs.Queue
	log      *slog.Logger
	tuning   Tuning
	settings *settings.Registry
	reach    Reach
}

// New builds the service.
func New(st *store.Store, e embed.Embedder, r *rerank.Client, q *jobs.Queue, set *settings.Registry, reach Reach,
	log *slog.Logger, t Tuning) *Service {
	s := &Service{store: st, embedder: e, reranker: r, queue: q, settings: set, reach: reach, log: log, tuning: t}
	s.registerOwnSettings()
	return s
}

// embedText is what is embedded for an item: its title (a question's
// stem). The body (a question's options) and hidden text (its explanation)
// feed the keyword ranker only: options are mostly distractors, wrong on
// purpose, and would pull the vector towards topics the question is not
// about.
func embedText(title string) string {
	return strings.TrimSpace(title)
}

// contentHash identifies an embedded text.
func contentHash(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:16])
}
