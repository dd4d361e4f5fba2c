package http

import (
	"context"
	"encoding/json"
	"time"

	"github.com/roundsedu/rounds/modules/library/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/jobs"
)

// ArticleJobQueued answers a generation request.
type ArticleJobQueued struct {
	JobID  string `json:"job_id"`
	Status string `json:"status" doc:"pending; poll GET /articles/jobs/{job_id}"`
}

// ArticleJobStep is one line of a job's progress.
type ArticleJobStep struct {
	Name   string    `json:"name"`
	Detail string    `json:"detail,omitempty"`
	At     time.Time `json:"at"`
}

// ArticleJob is a generation job as its requester polls it.
type ArticleJob struct {
	ID         string           `json:"id"`
	Kind       string           `json:"kind" enum:"generate_article_draft,generate_article_cards"`
	Status     string           `json:"status" enum:"pending,running,completed,failed,cancelled"`
	Steps      []ArticleJobStep `json:"steps"`
	Result     json.RawMessage  `json:"result,omitempty"`
	Error      string           `json:"error,omitempty"`
	CreatedAt  time.Time        `json:"created_at"`
	FinishedAt *time.Time       `json:"finished_at"`
}

// ArticleCardsRequest asks for flashcards from an article.
type ArticleCardsRequest struct {
	Instructions string   `json:"instructions,omitempty" required:"false" maxLength:"4000"`
	Sources      []string `json:"sources,omitempty" required:"false" maxItems:"10" doc:"from GET /articles/ai-sources"`
}

// ArticleDraftRequest asks for a new article draft.
type ArticleDraftRequest struct {
	Title        string   `json:"title" minLength:"1" maxLength:"300"`
	CategoryID   *int64   `json:"category_id,omitempty" required:"false" doc:"files the draft there; the bank source reads its questions"`
	Instructions string   `json:"instructions,omitempty" required:"false" maxLength:"4000"`
	Sources      []string `json:"sources,omitempty" required:"false" maxItems:"10" doc:"from GET /articles/ai-sources"`
}

// ArticleRefineRequest asks for a refinement of an article or a section.
type ArticleRefineRequest struct {
	SectionID    string   `json:"section_id,omitempty" required:"false" maxLength:"64"`
	Instructions string   `json:"instructions,omitempty" required:"false" maxLength:"4000"`
	Sources      []string `json:"sources,omitempty" required:"false" maxItems:"10" doc:"from GET /articles/ai-sources"`
}

type queuedOut struct{ Body ArticleJobQueued }

func queued(id string, err error) (*queuedOut, error) {
	if err != nil {
		return nil, err
	}
	return &queuedOut{ArticleJobQueued{JobID: id, Status: "pending"}}, nil
}

type aiSourcesOut struct {
	Body struct {
		Sources []string `json:"sources"`
	} `nameHint:"Get-articles-ai-sourcesResponse"`
}

func (h *handlers) aiSources(context.Context, *struct{}) (*aiSourcesOut, error) {
	out := &aiSourcesOut{}
	out.Body.Sources = app.Sources
	return out, nil
}

type aiDraftIn struct{ Body ArticleDraftRequest }

func (h *handlers) aiDraft(ctx context.Context, in *aiDraftIn) (*queuedOut, error) {
	b := in.Body
	return queued(h.svc.Generate(ctx, auth.MustFrom(ctx), app.GenerationRequest{Mode: "draft", Title: b.Title,
		Instructions: b.Instructions, Sources: b.Sources, CategoryID: b.CategoryID}))
}

type aiRefineIn struct {
	ID   int64 `path:"id" minimum:"1"`
	Body ArticleRefineRequest
}

func (h *handlers) aiRefine(ctx context.Context, in *aiRefineIn) (*queuedOut, error) {
	b := in.Body
	return queued(h.svc.Generate(ctx, auth.MustFrom(ctx), app.GenerationRequest{Mode: "refine", ArticleID: in.ID,
		SectionID: b.SectionID, Instructions: b.Instructions, Sources: b.Sources}))
}

type aiCardsIn struct {
	ID   int64 `path:"id" minimum:"1"`
	Body ArticleCardsRequest
}

func (h *handlers) aiCards(ctx context.Context, in *aiCardsIn) (*queuedOut, error) {
	return queued(h.svc.Generate(ctx, auth.MustFrom(ctx), app.GenerationRequest{Mode: "cards", ArticleID: in.ID,
		Instructions: in.Body.Instructions, Sources: in.Body.Sources}))
}

type generationJobIn struct {
	JobID string `path:"job_id" maxLength:"64"`
}

type generationJobOut struct{ Body ArticleJob }

func (h *handlers) generationJob(ctx context.Context, in *generationJobIn) (*generationJobOut, error) {
	rec, err := h.svc.GenerationJob(ctx, auth.MustFrom(ctx), in.JobID)
	if err != nil {
		return nil, err
	}
	return &generationJobOut{toArticleJob(rec)}, nil
}

func toArticleJob(rec *app.Job) ArticleJob {
	return ArticleJob{ID: rec.ID.String(), Kind: rec.Kind, Status: string(rec.Status), Result: rec.Result,
		Error: rec.Error, CreatedAt: rec.CreatedAt, FinishedAt: rec.FinishedAt, Steps: toArticleJobSteps(rec.Steps)}
}

func toArticleJobSteps(steps []jobs.Step) []ArticleJobStep {
	out := make([]ArticleJobStep, len(steps))
	for i, s := range steps {
		out[i] = ArticleJobStep(s)
	}
	return out
}
