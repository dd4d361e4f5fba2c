package http

import (
	"context"
	"encoding/json"
	"time"

	"github.com/roundsedu/rounds/modules/ai/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/jobs"
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

type startDifficultyIn struct {
	Body struct {
		QuestionIDs []int64 `json:"question_ids,omitempty" required:"false" maxItems:"500"`
		CategoryID  *int64  `json:"category_id,omitempty" required:"false" minimum:"1"`
		Overwrite   bool    `json:"overwrite,omitempty" required:"false"`
	} `nameHint:"Post-questions-classify-difficultyRequest"`
}

type startDifficultyOut struct {
	Body struct {
		JobID  string `json:"job_id"`
		Status string `json:"status"`
	} `nameHint:"Post-questions-classify-difficultyResponse"`
}

func (h *handlers) startDifficulty(ctx context.Context, in *startDifficultyIn) (*startDifficultyOut, error) {
	b := in.Body
	id, err := h.rater.Start(ctx, auth.MustFrom(ctx), app.RateRequest{QuestionIDs: b.QuestionIDs, CategoryID: b.CategoryID,
		Overwrite: b.Overwrite})
	if err != nil {
		return nil, err
	}
	out := &startDifficultyOut{}
	out.Body.JobID, out.Body.Status = id, "pending"
	return out, nil
}

type difficultyJobIn struct {
	JobID string `path:"job_id" maxLength:"64"`
}

type difficultyJobOut struct{ Body DifficultyJob }

func (h *handlers) difficultyJob(ctx context.Context, in *difficultyJobIn) (*difficultyJobOut, error) {
	rec, err := h.rater.Job(ctx, auth.MustFrom(ctx), in.JobID)
	if err != nil {
		return nil, err
	}
	return &difficultyJobOut{toDifficultyJob(rec)}, nil
}

func toDifficultyJob(rec *jobs.Record) DifficultyJob {
	return DifficultyJob{ID: rec.ID.String(), Status: string(rec.Status), Result: rec.Result, Error: rec.Error,
		CreatedAt: rec.CreatedAt, FinishedAt: rec.FinishedAt, Steps: toDifficultyJobSteps(rec.Steps)}
}

func toDifficultyJobSteps(steps []jobs.Step) []DifficultyJobStep {
	out := make([]DifficultyJobStep, len(steps))
	for i, s := range steps {
		out[i] = DifficultyJobStep(s)
	}
	return out
}
