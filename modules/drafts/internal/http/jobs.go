package http

import (
	"context"

	"github.com/roundsedu/rounds/modules/drafts/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
)

// extractIn is the body of POST /drafts/extract and POST /quizzes/.
type extractIn struct {
	Body struct {
		SectionID   int64  `json:"section_id" minimum:"1" doc:"The section to read"`
		ReadingMode string `json:"reading_mode,omitempty" required:"false" enum:"text,ocr,vision" default:"text" doc:"text reads the PDF's text layer (pages without one are OCR'd when the document is processed); ocr reads the section's pages with OCR (scanned papers); vision needs a model"`
		Model       string `json:"model,omitempty" required:"false" maxLength:"200" doc:"A configured extraction model; builtin for the built-in extractor; empty for the default"`
		CategoryID  *int64 `json:"category_id,omitempty" required:"false" minimum:"1" doc:"Files-into-topic category for the batch; can be set later"`
	}
}

type jobStartedOut struct{ Body JobStarted }

func (h *handlers) extract(ctx context.Context, in *extractIn) (*jobStartedOut, error) {
	id, err := h.svc.StartExtraction(ctx, auth.MustFrom(ctx), app.ExtractRequest{SectionID: in.Body.SectionID,
		ReadingMode: in.Body.ReadingMode, Model: in.Body.Model, CategoryID: in.Body.CategoryID})
	if err != nil {
		return nil, err
	}
	return &jobStartedOut{Body: JobStarted{JobID: id, Status: "pending"}}, nil
}

type listJobsIn struct {
	Limit int `query:"limit" default:"20" minimum:"1" maximum:"100" doc:"How many of the most recent jobs"`
}

type jobsOut struct{ Body []JobResponse }

func (h *handlers) listJobs(ctx context.Context, in *listJobsIn) (*jobsOut, error) {
	js, err := h.svc.Jobs(ctx, auth.MustFrom(ctx), in.Limit)
	if err != nil {
		return nil, err
	}
	return &jobsOut{Body: toJobResponses(js)}, nil
}

// JobPath names an extraction job.
type JobPath struct {
	JobID string `path:"job_id" maxLength:"64"`
}

type jobOut struct{ Body JobResponse }

func (h *handlers) getJob(ctx context.Context, in *JobPath) (*jobOut, error) {
	j, err := h.svc.Job(ctx, in.JobID)
	if err != nil {
		return nil, err
	}
	return &jobOut{Body: toJobResponse(j)}, nil
}

type cancelOut struct{ Body CancelResponse }

func (h *handlers) cancelJob(ctx context.Context, in *JobPath) (*cancelOut, error) {
	if err := h.svc.CancelJob(ctx, auth.MustFrom(ctx), in.JobID); err != nil {
		return nil, err
	}
	return &cancelOut{Body: CancelResponse{Status: "cancelled"}}, nil
}
