package http

import (
	"context"
	"encoding/json"
	nethttp "net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/modules/ai/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

// DifficultyJobStep is one line of a classification's progress.
type DifficultyJobStep struct {
	Name   string    `json:"name"`
	Detail string    `json:"detail,omitempty"`
	At     time.Time `json:"at"`
}

// DifficultyJob is a classification as its requester polls it.
type DifficultyJob struct {
	ID         string              `json:"id"`
	Status     string              `json:"status" enum:"pending,running,completed,failed,cancelled"`
	Steps      []DifficultyJobStep `json:"steps"`
	Result     json.RawMessage     `json:"result,omitempty" doc:"{questions, skipped, rated, levels, unrated, stored: {question id: level}}"`
	Error      string              `json:"error,omitempty"`
	CreatedAt  time.Time           `json:"created_at"`
	FinishedAt *time.Time          `json:"finished_at"`
}

// RegisterDifficulty registers question difficulty classification.
func RegisterDifficulty(r *httpapi.Router, rater *app.Rater) {
	tags := []string{"questions"}
	httpapi.Register(r, auth.Mod, huma.Operation{
		Method: nethttp.MethodPost, Path: "/questions/classify-difficulty", Tags: tags, DefaultStatus: nethttp.StatusAccepted,
		Summary: "Queue classify_question_difficulty: the tool model rates questions easy, medium or hard (moderators)",
		Description: "Name question_ids (at most 500) or a category_id (its branch, the first 500 live questions by id). " +
			"Questions already rated are skipped unless overwrite. 503 with nothing queued when no tool model is configured; " +
			"poll GET /questions/classify-difficulty/{job_id}.",
		Errors: []int{nethttp.StatusServiceUnavailable},
	}, func(ctx context.Context, in *struct {
		Body struct {
			QuestionIDs []int64 `json:"question_ids,omitempty" required:"false" maxItems:"500"`
			CategoryID  *int64  `json:"category_id,omitempty" required:"false" minimum:"1"`
			Overwrite   bool    `json:"overwrite,omitempty" required:"false"`
		}
	}) (*struct {
		Body struct {
			JobID  string `json:"job_id"`
			Status string `json:"status"`
		}
	}, error) {
		b := in.Body
		id, err := rater.Start(ctx, auth.MustFrom(ctx), app.RateRequest{QuestionIDs: b.QuestionIDs, CategoryID: b.CategoryID,
			Overwrite: b.Overwrite})
		if err != nil {
			return nil, err
		}
		out := &struct {
			Body struct {
				JobID  string `json:"job_id"`
				Status string `json:"status"`
			}
		}{}
		out.Body.JobID, out.Body.Status = id, "pending"
		return out, nil
	})

	httpapi.Register(r, auth.Mod, huma.Operation{
		Method: nethttp.MethodGet, Path: "/questions/classify-difficulty/{job_id}", Tags: tags,
		Summary: "One of your difficulty classifications with its progress",
		Errors:  []int{nethttp.StatusNotFound},
	}, func(ctx context.Context, in *struct {
		JobID string `path:"job_id" maxLength:"64"`
	}) (*struct{ Body DifficultyJob }, error) {
		rec, err := rater.Job(ctx, auth.MustFrom(ctx), in.JobID)
		if err != nil {
			return nil, err
		}
		out := DifficultyJob{ID: rec.ID.String(), Status: string(rec.Status), Result: rec.Result, Error: rec.Error,
			CreatedAt: rec.CreatedAt, FinishedAt: rec.FinishedAt, Steps: make([]DifficultyJobStep, len(rec.Steps))}
		for i, s := range rec.Steps {
			out.Steps[i] = DifficultyJobStep(s)
		}
		return &struct{ Body DifficultyJob }{out}, nil
	})
}
