package app

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/google/uuid"

	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/jobs"
)

// Job is an extraction job as clients poll it.
type Job struct {
	ID          string
	Status      string
	SectionID   int64
	ReadingMode string
	Model       string
	Steps       []Step
	BatchID     *int64 // set once completed
	Drafts      int
	Error       string // set once failed
	CreatedAt   time.Time
	StartedAt   *time.Time
	FinishedAt  *time.Time
}

func jobNotFound(id string) error { return apperr.NotFoundf("extraction job %s not found", id) }

// Job reads one extraction job.
func (s *Service) Job(ctx context.Context, id string) (*Job, error) {
	rec, err := s.extractionJob(ctx, id)
	if err != nil {
		return nil, err
	}
	return toJob(rec), nil
}

// Jobs lists the caller's most recent extraction jobs.
func (s *Service) Jobs(ctx context.Context, p auth.Principal, limit int) ([]Job, error) {
	recs, err := s.queue.ListByOwner(ctx, p.UserID, []string{KindExtractQuiz}, limit)
	if err != nil {
		return nil, err
	}
	out := make([]Job, len(recs))
	for i, r := range recs {
		out[i] = *toJob(r)
	}
	return out, nil
}

// CancelJob cancels the caller's own extraction job while it is pending or
// running: 403 for someone else's job, 400 once it is over.
func (s *Service) CancelJob(ctx context.Context, p auth.Principal, id string) error {
	rec, err := s.extractionJob(ctx, id)
	if err != nil {
		return err
	}
	if rec.OwnerID == nil || *rec.OwnerID != p.UserID {
		return apperr.Forbiddenf("only the moderator who started extraction job %s may cancel it", id)
	}
	err = s.queue.Cancel(ctx, rec.ID)
	switch {
	case errors.Is(err, jobs.ErrNotCancellable):
		return apperr.BadRequestf("extraction job %s is not running (status %s)", id, s.statusOf(ctx, rec))
	case errors.Is(err, jobs.ErrNotFound):
		return jobNotFound(id)
	}
	return err
}

// statusOf re-reads a job's status for a message; the record may be stale.
func (s *Service) statusOf(ctx context.Context, rec *jobs.Record) jobs.Status {
	if fresh, err := s.queue.Get(ctx, rec.ID); err == nil {
		return fresh.Status
	}
	return rec.Status
}

// extractionJob loads a job by id; malformed ids and jobs of other kinds
// are not found.
func (s *Service) extractionJob(ctx context.Context, id string) (*jobs.Record, error) {
	uid, err := uuid.Parse(id)
	if err != nil {
		return nil, jobNotFound(id)
	}
	rec, err := s.queue.Get(ctx, uid)
	if errors.Is(err, jobs.ErrNotFound) || (err == nil && rec.Kind != KindExtractQuiz) {
		return nil, jobNotFound(id)
	}
	return rec, err
}

func toJob(r *jobs.Record) *Job {
	j := &Job{ID: r.ID.String(), Status: string(r.Status), CreatedAt: r.CreatedAt,
		StartedAt: r.StartedAt, FinishedAt: r.FinishedAt, Steps: make([]Step, len(r.Steps))}
	var pl extractPayload
	if json.Unmarshal(r.Payload, &pl) == nil {
		j.SectionID, j.ReadingMode, j.Model = pl.SectionID, pl.ReadingMode, pl.Model
	}
	for i, st := range r.Steps {
		j.Steps[i] = Step{Name: st.Name, Detail: st.Detail, At: st.At}
	}
	switch r.Status {
	case jobs.Completed:
		var res extractResult
		if r.Decode(&res) == nil {
			j.BatchID, j.Drafts = &res.BatchID, res.Drafts
		}
	case jobs.Failed:
		j.Error = r.Error
	}
	return j
}
