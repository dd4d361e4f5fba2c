// Package search is the search bounded context: its own index of the other
// modules' searchable items (kept in step by their events), embeddings made
// off the request path by the built-in or a configured model, a keyword ranker
// (Postgres full text) and a vector ranker (pgvector HNSW) fused by
// reciprocal rank fusion with an optional cross-encoder rerank (remote
// models through the AI module's gateway, Models), the /search
// routes, the embedding and rerank admin routes, and the site settings
// store. Other modules rank through Facade and load their own rows.
package search

import (
	"context"
	_ "embed"
	"fmt"
	"slices"
	"time"

	"github.com/roundsedu/rounds/modules/search/internal/app"
	"github.com/roundsedu/rounds/modules/search/internal/embed"
	searchhttp "github.com/roundsedu/rounds/modules/search/internal/http"
	"github.com/roundsedu/rounds/modules/search/internal/store"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/events"
	"github.com/roundsedu/rounds/platform/httpapi"
	"github.com/roundsedu/rounds/platform/jobs"
	"github.com/roundsedu/rounds/platform/module"
	"github.com/roundsedu/rounds/platform/scheduler"
)

// Config is the search section: the vector size, embedding work and
// ranking tuning. The models are admin settings (embedding_model,
// rerank_model) reached through the AI module's gateway, whose section
// holds the proxy, its key, the timeouts and the retries.
type Config struct {
	EmbeddingDims int `mapstructure:"embedding_dims" validate:"gte=1,lte=2000"`
	// Embedding work off the request path.
	EmbeddingBatch int           `mapstructure:"embedding_batch" validate:"gte=1,lte=2048"`
	RetryInterval  time.Duration `mapstructure:"retry_interval" validate:"gt=0"`
	RetryMaxPerRun int           `mapstructure:"retry_max_per_run" validate:"gte=1"`
	// Ranking.
	HNSWEfSearch        int     `mapstructure:"hnsw_ef_search" validate:"gte=60,lte=1000"`
	HybridMinSimilarity float64 `mapstructure:"hybrid_min_similarity" validate:"gte=0,lte=1"`
	// What queries cost: vectors kept, remote embeddings per person.
	QueryCacheEntries        int `mapstructure:"query_cache_entries" validate:"gte=1,lte=1000000"`
	QueryEmbeddingsPerMinute int `mapstructure:"query_embeddings_per_minute" validate:"gte=1"`
}

//go:embed config.yaml
var defaults []byte

// Module is the search bounded context.
type Module struct {
	svc *app.Service
	cfg Config
	// st and local are the store and built-in embedder under svc (Probe).
	st    *store.Store
	local *embed.Local
	// reaches are the modules that own indexed kinds (search.Reach).
	reaches []Reach
}

// Background work names.
const (
	JobRegenerateEmbeddings = app.JobRegenerate
	TaskRetryMissing        = app.TaskRetry
)

// New builds the module and makes the vector column match
// search.embedding_dims (dropping vectors of another size, which no query
// could compare; see docs/decisions/search.md).
func New(ctx context.Context, k *module.Kit) (module.Module, error) {
	cfg, err := module.Section[Config](k, "search", defaults)
	if err != nil {
		return nil, err
	}
	st := store.New(k.DB)
	cur, err := st.VectorDims(ctx)
	if err != nil {
		return nil, fmt.Errorf("search: read the vector column (are migrations applied?): %w", err)
	}
	if cur != cfg.EmbeddingDims {
		dropped, err := st.ResizeVectors(ctx, cfg.EmbeddingDims)
		if err != nil {
			return nil, fmt.Errorf("search: resize vectors to %d: %w", cfg.EmbeddingDims, err)
		}
		k.Log.Warn("search: embedding dimension changed; stored vectors dropped, run POST /admin/embedding/regenerate",
			"from", cur, "to", cfg.EmbeddingDims, "dropped", dropped)
	}
	m := &Module{cfg: cfg, st: st, local: embed.NewLocal(cfg.EmbeddingDims)}
	module.NeedAll(k, &m.reaches)
	ports := &app.Ports{}
	module.Need(k, "ai", &ports.Models)
	m.svc = app.New(st, m.local, ports, k.Queue, k.Settings,
		m.reachable, k.Limiter, k.Log, app.Tuning{BatchSize: cfg.EmbeddingBatch, RetryMaxPerRun: cfg.RetryMaxPerRun,
			EfSearch: cfg.HNSWEfSearch, HybridMinSimilarity: cfg.HybridMinSimilarity,
			QueryCacheEntries: cfg.QueryCacheEntries, QueryEmbeddings: cfg.QueryEmbeddingsPerMinute})
	return m, nil
}

// reachable asks the module that owns kind what p may find of ids. No
// owner: nothing (an item nobody vouches for is found by nobody).
func (m *Module) reachable(ctx context.Context, p auth.Principal, kind string, ids []int64) (visible, editable map[int64]bool, err error) {
	for _, r := range m.reaches {
		if slices.Contains(r.Kinds(), Kind(kind)) {
			return r.Reachable(ctx, p, Kind(kind), ids)
		}
	}
	return nil, nil, nil
}

// Name implements module.Module.
func (m *Module) Name() string { return "search" }

// Config is the search section in use.
func (m *Module) Config() Config { return m.cfg }

// Routes registers /search, /search/suggest and the admin routes it owns.
func (m *Module) Routes(r *httpapi.Router) { searchhttp.Register(r, m.svc) }

// Subscribe keeps the index in step with every item its owner publishes
// through the index contract (the bank's questions included: the bank
// publishes IndexChanged, so search keeps no copy of its payload).
func (m *Module) Subscribe(b *events.Bus) {
	events.Subscribe(b, "search.index_items", TopicIndexChanged,
		func(ctx context.Context, e IndexChanged, _ events.Meta) error {
			if err := checkKind(e.Kind); err != nil {
				return err
			}
			return m.svc.OnIndexChanged(ctx, app.Item{Kind: string(e.Kind), ID: e.ID, Version: e.Version,
				Live: e.Live, Purged: e.Purged, Title: e.Title, Body: e.Body, Hidden: e.Hidden})
		})
}

// Jobs registers regenerate_embeddings (one at a time, after everything a
// person waits on; it may take hours over a large index) and embed_pending
// (which embeds what was just written).
func (m *Module) Jobs(r *jobs.Runner) {
	jobs.Register(r, jobs.Kind[app.RegeneratePayload]{Handle: m.svc.Regenerate, Priority: jobs.Bulk,
		Unique: jobs.OnePerKind, Timeout: 6 * time.Hour})
	jobs.Register(r, jobs.Kind[app.EmbedPendingArgs]{Handle: m.svc.EmbedPending, Timeout: 30 * time.Minute})
}

// Schedule queues retry_missing_embeddings from the scheduler leader.
func (m *Module) Schedule(s *scheduler.Scheduler) {
	s.EveryQueued(app.TaskRetry, m.cfg.RetryInterval, m.svc.RetryMissing)
}

// checkKind refuses a kind the index does not know (a caller's bug).
func checkKind(kind Kind) error {
	if !app.IsKind(string(kind)) {
		return fmt.Errorf("search: unknown kind %q", kind)
	}
	return nil
}

// Semantic implements Facade.
func (m *Module) Semantic(ctx context.Context, kind Kind, q string, minSimilarity float64, limit int) ([]Hit, error) {
	if err := checkKind(kind); err != nil {
		return nil, err
	}
	return m.svc.Semantic(ctx, string(kind), q, minSimilarity, limit)
}

// Keyword implements Facade.
func (m *Module) Keyword(ctx context.Context, kind Kind, q string, limit int) ([]Hit, error) {
	if err := checkKind(kind); err != nil {
		return nil, err
	}
	return m.svc.Keyword(ctx, string(kind), q, limit)
}

// Hybrid implements Facade.
func (m *Module) Hybrid(ctx context.Context, kind Kind, q string, limit int, rerank bool) ([]Hit, error) {
	if err := checkKind(kind); err != nil {
		return nil, err
	}
	return m.svc.Hybrid(ctx, string(kind), q, limit, rerank)
}

// Rerank implements Facade.
func (m *Module) Rerank(ctx context.Context, kind Kind, q string, ids []int64) []int64 {
	if checkKind(kind) != nil {
		return ids
	}
	return m.svc.Rerank(ctx, string(kind), q, ids)
}

// Find implements Facade.
func (m *Module) Find(ctx context.Context, p auth.Principal, kinds []Kind, q string, perKind, snippetRunes int) (Found, error) {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		if err := checkKind(k); err != nil {
			return Found{}, err
		}
		names[i] = string(k)
	}
	return m.svc.Global(ctx, p, names, q, perKind, snippetRunes)
}

var _ Facade = (*Module)(nil)
