package http

import (
	"context"
	"encoding/json"
	nethttp "net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/modules/library/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
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

func queued(id string, err error) (*struct{ Body ArticleJobQueued }, error) {
	if err != nil {
		return nil, err
	}
	return &struct{ Body ArticleJobQueued }{ArticleJobQueued{JobID: id, Status: "pending"}}, nil
}

func registerAI(r *httpapi.Router, svc *app.Service) {
	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodGet, Path: "/articles/ai-sources", Tags: tags,
		Summary: "Which grounding sources an article generation can be offered",
	}, func(context.Context, *struct{}) (*struct {
		Body struct {
			Sources []string `json:"sources"`
		}
	}, error) {
		out := &struct {
			Body struct {
				Sources []string `json:"sources"`
			}
		}{}
		out.Body.Sources = app.Sources
		return out, nil
	})

	httpapi.Register(r, auth.Mod, huma.Operation{
		Method: nethttp.MethodPost, Path: "/articles/ai-draft", Tags: tags, DefaultStatus: nethttp.StatusAccepted,
		Summary: "Queue the generation of a new article draft (moderators); poll the job",
		Errors:  []int{nethttp.StatusServiceUnavailable},
	}, func(ctx context.Context, in *struct{ Body ArticleDraftRequest }) (*struct{ Body ArticleJobQueued }, error) {
		b := in.Body
		return queued(svc.Generate(ctx, auth.MustFrom(ctx), app.GenerationRequest{Mode: "draft", Title: b.Title,
			Instructions: b.Instructions, Sources: b.Sources, CategoryID: b.CategoryID}))
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodPost, Path: "/articles/{id}/ai-refine", Tags: tags, DefaultStatus: nethttp.StatusAccepted,
		Summary: "Queue a refinement of an article or one section (its editors); poll the job",
		Errors:  []int{nethttp.StatusForbidden, nethttp.StatusNotFound, nethttp.StatusServiceUnavailable},
	}, func(ctx context.Context, in *struct {
		ID   int64 `path:"id" minimum:"1"`
		Body ArticleRefineRequest
	}) (*struct{ Body ArticleJobQueued }, error) {
		b := in.Body
		return queued(svc.Generate(ctx, auth.MustFrom(ctx), app.GenerationRequest{Mode: "refine", ArticleID: in.ID,
			SectionID: b.SectionID, Instructions: b.Instructions, Sources: b.Sources}))
	})

	httpapi.Register(r, auth.Mod, huma.Operation{
		Method: nethttp.MethodPost, Path: "/articles/{id}/ai-cards", Tags: tags, DefaultStatus: nethttp.StatusAccepted,
		Summary: "Queue the generation of flashcards from an article (moderators); poll the job",
		Errors:  []int{nethttp.StatusNotFound, nethttp.StatusServiceUnavailable},
	}, func(ctx context.Context, in *struct {
		ID   int64 `path:"id" minimum:"1"`
		Body ArticleCardsRequest
	}) (*struct{ Body ArticleJobQueued }, error) {
		return queued(svc.Generate(ctx, auth.MustFrom(ctx), app.GenerationRequest{Mode: "cards", ArticleID: in.ID,
			Instructions: in.Body.Instructions, Sources: in.Body.Sources}))
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodGet, Path: "/articles/jobs/{job_id}", Tags: tags,
		Summary: "One of your article generation jobs with its progress steps",
		Errors:  []int{nethttp.StatusNotFound},
	}, func(ctx context.Context, in *struct {
		JobID string `path:"job_id" maxLength:"64"`
	}) (*struct{ Body ArticleJob }, error) {
		rec, err := svc.GenerationJob(ctx, auth.MustFrom(ctx), in.JobID)
		if err != nil {
			return nil, err
		}
		out := ArticleJob{ID: rec.ID.String(), Kind: rec.Kind, Status: string(rec.Status), Result: rec.Result,
			Error: rec.Error, CreatedAt: rec.CreatedAt, FinishedAt: rec.FinishedAt, Steps: make([]ArticleJobStep, len(rec.Steps))}
		for i, s := range rec.Steps {
			out.Steps[i] = ArticleJobStep(s)
		}
		return &struct{ Body ArticleJob }{out}, nil
	})
}
