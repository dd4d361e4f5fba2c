// Package search is the search bounded context: its own index of the other
// modules' searchable items (kept in step by their events), embeddings made
// off the request path by a local or remote embedder, a keyword ranker
// (Postgres full text) and a vector ranker (pgvector HNSW) fused by
// reciprocal rank fusion with an optional cross-encoder rerank, the /search
// routes, the embedding and rerank admin routes, and the site settings
// store. Other modules rank through Facade and load their own rows.
package search

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/roundsedu/rounds/modules/search/internal/app"
	"github.com/roundsedu/rounds/modules/search/internal/embed"
	searchhttp "github.com/roundsedu/rounds/modules/search/internal/http"
	"github.com/roundsedu/rounds/modules/search/internal/rerank"
	"github.com/roundsedu/rounds/modules/search/internal/store"
	"github.com/roundsedu/rounds/platform/config"
	"github.com/roundsedu/rounds/platform/db"
	"github.com/roundsedu/rounds/platform/events"
	"github.com/roundsedu/rounds/platform/httpapi"
	"github.com/roundsedu/rounds/platform/jobs"
	"github.com/roundsedu/rounds/platform/scheduler"
)

// Deps is what the module is built from.
type Deps struct {
	DB     *db.DB
	Log    *slog.Logger
	Config config.Search
	Queue  *jobs.Queue
}

// Module is the search bounded context.
type Module struct {
	svc *app.Service
	cfg config.Search
}

// Setting declares a site-settings key (see RegisterSetting).
type Setting = app.Setting

// Background work names.
const (
	JobRegenerateEmbeddings = app.JobRegenerate
	TaskRetryMissing        = app.TaskRetry
)

// New builds the module and makes the vector column match
// search.embedding_dims (dropping vectors of another size, which no query
// could compare; see docs/decisions.md (Search)).
func New(ctx context.Context, d Deps) (*Module, error) {
	st := store.New(d.DB)
	cur, err := st.VectorDims(ctx)
	if err != nil {
		return nil, fmt.Errorf("search: read the vector column (are migrations applied?): %w", err)
	}
	if cur != d.Config.EmbeddingDims {
		dropped, err := st.ResizeVectors(ctx, d.Config.EmbeddingDims)
		if err != nil {
			return nil, fmt.Errorf("search: resize vectors to %d: %w", d.Config.EmbeddingDims, err)
		}
		d.Log.Warn("search: embedding dimension changed; stored vectors dropped, run POST /admin/embedding/regenerate",
			"from", cur, "to", d.Config.EmbeddingDims, "dropped", dropped)
	}
	var e embed.Embedder = embed.NewLocal(d.Config.EmbeddingDims)
	if d.Config.EmbeddingURL != "" {
		e = embed.NewRemote(embed.RemoteConfig{BaseURL: d.Config.EmbeddingURL, APIKey: d.Config.EmbeddingKey,
			Model: d.Config.EmbeddingModel, Dims: d.Config.EmbeddingDims, Timeout: d.Config.EmbeddingTimeout})
	}
	svc := app.New(st, e, rerank.New(d.Config.RerankURL, d.Config.RerankKey, d.Config.RerankTimeout), d.Queue, d.Log,
		app.Tuning{BatchSize: d.Config.EmbeddingBatch, RetryMaxPerRun: d.Config.RetryMaxPerRun,
			EfSearch: d.Config.HNSWEfSearch, HybridMinSimilarity: d.Config.HybridMinSimilarity})
	return &Module{svc: svc, cfg: d.Config}, nil
}

// Routes registers /search, /search/suggest and the admin routes it owns.
func (m *Module) Routes(r *httpapi.Router) { searchhttp.Register(r, m.svc) }

// Subscribe keeps the index in step with the bank's questions.
func (m *Module) Subscribe(b *events.Bus) {
	events.Subscribe(b, "search.index_questions", app.TopicQuestionChanged,
		func(ctx context.Context, e app.QuestionChanged, _ events.Meta) error {
			return m.svc.OnQuestionChanged(ctx, e)
		})
}

// Jobs registers regenerate_embeddings.
func (m *Module) Jobs(r *jobs.Runner) { r.Handle(app.JobRegenerate, m.svc.Regenerate) }

// Schedule registers retry_missing_embeddings on the scheduler leader.
func (m *Module) Schedule(s *scheduler.Scheduler) {
	s.Every(app.TaskRetry, m.cfg.RetryInterval, m.svc.RetryMissing)
}

// RegisterSetting declares a site-settings key for another module (site
// policy flags, daily quotas): GET /admin/settings shows it and PUT writes
// it. Call while wiring, before the app starts.
func (m *Module) RegisterSetting(s Setting) { m.svc.Settings.Register(s) }

// Setting implements SettingsReader.
func (m *Module) Setting(ctx context.Context, key string, dst any) error {
	return m.svc.Settings.Get(ctx, key, dst)
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

var (
	_ Facade         = (*Module)(nil)
	_ SettingsReader = (*Module)(nil)
)
