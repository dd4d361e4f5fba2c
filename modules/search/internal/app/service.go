// Package app is the search module's service logic: keeping the index in
// step with source events, embedding off the request path, ranking (keyword,
// vector, fusion, rerank), embedding administration and site settings.
package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"strings"

	"github.com/roundsedu/rounds/modules/search/internal/embed"
	"github.com/roundsedu/rounds/modules/search/internal/store"
	"github.com/roundsedu/rounds/platform/jobs"
	"github.com/roundsedu/rounds/platform/ratelimit"
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
	QueryCacheEntries   int     // query vectors kept (queryVectors)
	QueryEmbeddings     int     // remote query embeddings per person per minute
}

// Models is how search reaches embedding and rerank models: the AI
// module's gateway (one client, one place for keys, timeouts and
// retries). A failure worth retrying as it is (the proxy unreachable, too
// slow, 429, 5xx) has a Transient() bool method answering true.
type Models interface {
	// Embed returns one vector per text, in order, from model.
	Embed(ctx context.Context, model string, texts []string) ([][]float64, error)
	// Rerank scores each document against query with model, in the
	// documents' order.
	Rerank(ctx context.Context, model, query string, docs []string) ([]float64, error)
}

// Ports are filled once every module is built.
type Ports struct {
	Models Models
}

// Service is the module's logic.
type Service struct {
	store    *store.Store
	local    *embed.Local
	ports    *Ports
	queue    *jobs.Queue
	log      *slog.Logger
	tuning   Tuning
	settings *settings.Registry
	reach    Reach
	queries  *queryVectors
}

// New builds the service; local is the built-in embedder, used while no
// embedding model is set.
func New(st *store.Store, local *embed.Local, ports *Ports, q *jobs.Queue, set *settings.Registry, reach Reach,
	limiter *ratelimit.Limiter, log *slog.Logger, t Tuning) *Service {
	s := &Service{store: st, local: local, ports: ports, queue: q, settings: set, reach: reach, log: log, tuning: t,
		queries: newQueryVectors(t.QueryCacheEntries, t.QueryEmbeddings, limiter)}
	s.registerOwnSettings()
	return s
}

// embedder is the embedder of the embedding_model setting: the built-in
// one while it names that (the default), else the named model through the
// gateway.
func (s *Service) embedder(ctx context.Context) (embed.Embedder, error) {
	model, err := s.embeddingModel(ctx)
	if err != nil {
		return nil, err
	}
	return s.embedderOf(model), nil
}

func (s *Service) embedderOf(model string) embed.Embedder {
	if model == s.local.Model() {
		return s.local
	}
	return embed.NewGateway(s.ports.Models, model, s.local.Dims())
}

// rerankScores asks the rerank model through the gateway.
func (s *Service) rerankScores(ctx context.Context, model, q string, docs []string) ([]float64, error) {
	return s.ports.Models.Rerank(ctx, model, q, docs)
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
