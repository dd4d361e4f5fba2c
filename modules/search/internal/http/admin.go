package searchhttp

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/modules/search/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/jobs"
)

// EmbeddingCoverageBody counts one kind's (or all) live items.
type EmbeddingCoverageBody struct {
	Kind       string  `json:"kind,omitempty"`
	Live       int     `json:"live" doc:"Searchable items"`
	Embedded   int     `json:"embedded" doc:"With a vector of the current model for their current text"`
	Missing    int     `json:"missing" doc:"Text without a vector for it yet (new, or the embedding failed)"`
	Failed     int     `json:"failed" doc:"Of missing: the last attempt failed; retry_missing_embeddings will try again"`
	OtherModel int     `json:"other_model" doc:"Vector made by another model, awaiting regeneration"`
	Empty      int     `json:"empty" doc:"Text with nothing to embed"`
	Coverage   float64 `json:"coverage" doc:"embedded / (live - empty); 1 when there is nothing to embed"`
}

func coverage(k app.KindHealth) EmbeddingCoverageBody {
	c := EmbeddingCoverageBody{Kind: k.Kind, Live: k.Live, Embedded: k.Current, Missing: k.Missing, Failed: k.Failed,
		OtherModel: k.OtherModel, Empty: k.Empty, Coverage: 1}
	if n := k.Live - k.Empty; n > 0 {
		c.Coverage = float64(k.Current) / float64(n)
	}
	return c
}

// EmbeddingJobBody is a job's state.
type EmbeddingJobBody struct {
	JobID      string      `json:"job_id"`
	Status     string      `json:"status"`
	Steps      []jobs.Step `json:"steps"`
	Error      string      `json:"error,omitempty"`
	CreatedAt  time.Time   `json:"created_at"`
	FinishedAt *time.Time  `json:"finished_at"`
}

// EmbeddingHealthBody is the answer of GET /admin/embedding/health.
type EmbeddingHealthBody struct {
	Provider              string                  `json:"provider" doc:"local (built in) or remote (OpenAI-compatible endpoint)"`
	Model                 string                  `json:"model"`
	Dims                  int                     `json:"dims"`
	EmbeddingCoverageBody                         // totals over every kind
	Kinds                 []EmbeddingCoverageBody `json:"kinds"`
	LastError             string                  `json:"last_error,omitempty" doc:"Most recent unresolved embedding failure"`
	LastErrorAt           *time.Time              `json:"last_error_at"`
	Regeneration          *EmbeddingJobBody       `json:"regeneration" doc:"The latest regeneration job, if any"`
}

type healthOut struct{ Body EmbeddingHealthBody }

func (h *handlers) health(ctx context.Context, _ *struct{}) (*healthOut, error) {
	res, err := h.svc.Health(ctx)
	if err != nil {
		return nil, err
	}
	return &healthOut{toHealth(res)}, nil
}

func toHealth(res app.Health) EmbeddingHealthBody {
	return EmbeddingHealthBody{Provider: res.Provider, Model: res.Model, Dims: res.Dims, EmbeddingCoverageBody: coverage(res.Totals),
		Kinds: coverages(res.Kinds), LastError: res.LastError, LastErrorAt: res.LastErrorAt,
		Regeneration: toEmbeddingJob(res.Regeneration)}
}

func coverages(ks []app.KindHealth) []EmbeddingCoverageBody {
	out := make([]EmbeddingCoverageBody, len(ks))
	for i, k := range ks {
		out[i] = coverage(k)
	}
	return out
}

func toEmbeddingJob(r *jobs.Record) *EmbeddingJobBody {
	if r == nil {
		return nil
	}
	out := &EmbeddingJobBody{JobID: r.ID.String(), Status: string(r.Status), Steps: r.Steps, Error: r.Error,
		CreatedAt: r.CreatedAt, FinishedAt: r.FinishedAt}
	if out.Steps == nil {
		out.Steps = []jobs.Step{}
	}
	return out
}

type testEmbeddingInput struct {
	Body *struct {
		Text string `json:"text,omitempty" required:"false" maxLength:"8000" doc:"Also embed this text and show the start of its vector"`
	}
}

// EmbeddingTestBody is the answer of POST /admin/embedding/test.
type EmbeddingTestBody struct {
	OK                   bool      `json:"ok"`
	Provider             string    `json:"provider"`
	Model                string    `json:"model"`
	Dims                 int       `json:"dims"`
	LatencyMS            int64     `json:"latency_ms"`
	RelevantSimilarity   float64   `json:"relevant_similarity"`
	IrrelevantSimilarity float64   `json:"irrelevant_similarity"`
	Preview              []float32 `json:"preview,omitempty"`
	Message              string    `json:"message"`
}

type embeddingTestOut struct{ Body EmbeddingTestBody }

func (h *handlers) testEmbedding(ctx context.Context, in *testEmbeddingInput) (*embeddingTestOut, error) {
	var text string
	if in.Body != nil {
		text = in.Body.Text
	}
	res, err := h.svc.TestEmbedding(ctx, text)
	if err != nil {
		return nil, err
	}
	return &embeddingTestOut{EmbeddingTestBody{OK: res.OK, Provider: res.Provider, Model: res.Model,
		Dims: res.Dims, LatencyMS: res.LatencyMS, RelevantSimilarity: res.RelevantSimilarity,
		IrrelevantSimilarity: res.IrrelevantSimilarity, Preview: res.Preview, Message: res.Message}}, nil
}

// EmbeddingRegenerateBody is the answer of POST /admin/embedding/regenerate.
type EmbeddingRegenerateBody struct {
	JobID  string `json:"job_id"`
	Status string `json:"status"`
}

type regenerateInput struct {
	Body *struct {
		Model string `json:"model,omitempty" required:"false" minLength:"1" maxLength:"200" pattern:"^\\S(.*\\S)?$" doc:"Switch to this embedding model (default: stay on embedding_model)"`
	}
}

type regenerateOut struct{ Body EmbeddingRegenerateBody }

func (h *handlers) regenerate(ctx context.Context, in *regenerateInput) (*regenerateOut, error) {
	var model string
	if in.Body != nil {
		model = in.Body.Model
	}
	res, err := h.svc.StartRegeneration(ctx, auth.MustFrom(ctx).UserID, model)
	if err != nil {
		return nil, err
	}
	return &regenerateOut{EmbeddingRegenerateBody{JobID: res.JobID.String(), Status: string(res.Status)}}, nil
}

type testRerankInput struct {
	Body *struct {
		Model *string `json:"model,omitempty" required:"false" maxLength:"200" doc:"Model to try; default the rerank_model setting"`
	}
}

// RerankTestBody is the answer of POST /admin/rerank/test.
type RerankTestBody struct {
	OK              bool    `json:"ok"`
	Model           string  `json:"model"`
	RelevantScore   float64 `json:"relevant_score"`
	IrrelevantScore float64 `json:"irrelevant_score"`
	LatencyMS       int64   `json:"latency_ms"`
	Message         string  `json:"message"`
}

type rerankTestOut struct{ Body RerankTestBody }

func (h *handlers) testRerank(ctx context.Context, in *testRerankInput) (*rerankTestOut, error) {
	var model *string
	if in.Body != nil {
		model = in.Body.Model
	}
	res, err := h.svc.TestRerank(ctx, model)
	if err != nil {
		return nil, err
	}
	return &rerankTestOut{RerankTestBody{OK: res.OK, Model: res.Model, RelevantScore: res.RelevantScore,
		IrrelevantScore: res.IrrelevantScore, LatencyMS: res.LatencyMS, Message: res.Message}}, nil
}
