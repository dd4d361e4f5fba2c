package app

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/roundsedu/rounds/modules/drafts/extraction"
	"github.com/roundsedu/rounds/modules/drafts/internal/reader"
	"github.com/roundsedu/rounds/modules/drafts/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
	"github.com/roundsedu/rounds/platform/jobs"
)

// ExtractRequest starts an extraction from a section.
type ExtractRequest struct {
	SectionID   int64
	ReadingMode string // extraction.ReadingText (default), ReadingOCR or ReadingVision
	Model       string // "" = the default extraction model, else the built-in extractor
	CategoryID  *int64 // the batch's Files-into-topic category, if known already
}

// extractPayload is an extract_quiz job.
type extractPayload struct {
	SectionID   int64  `json:"section_id"`
	ReadingMode string `json:"reading_mode"`
	Model       string `json:"model,omitempty"`
	CategoryID  *int64 `json:"category_id,omitempty"`
	RequestedBy int64  `json:"requested_by"`
}

func (extractPayload) Kind() string { return KindExtractQuiz }

// extractResult is what a completed extract_quiz job stores.
type extractResult struct {
	BatchID int64 `json:"batch_id"`
	Drafts  int   `json:"drafts"`
}

// queueFullRetry is what a 503 for a full queue suggests as Retry-After.
const queueFullRetry = 30 * time.Second

// StartExtraction validates the choice (section, document ready, reading
// mode, model, category) and enqueues extract_quiz. When the queue cannot
// take the job the answer is 503 and nothing is created: there is no
// synchronous fallback.
func (s *Service) StartExtraction(ctx context.Context, p auth.Principal, req ExtractRequest) (string, error) {
	if req.ReadingMode == "" {
		req.ReadingMode = extraction.ReadingText
	}
	sec, err := s.store.SectionByID(ctx, req.SectionID)
	if errors.Is(err, db.ErrNotFound) {
		return "", apperr.NotFoundf("section %d not found", req.SectionID)
	}
	if err != nil {
		return "", err
	}
	doc, err := s.store.Document(ctx, sec.DocumentID)
	if errors.Is(err, db.ErrNotFound) {
		return "", apperr.NotFoundf("section %d not found", req.SectionID) // deleted with its document
	}
	if err != nil {
		return "", err
	}
	if doc.Status != store.DocReady {
		return "", apperr.BadRequestf("document %d is not ready (status %s)", doc.ID, doc.Status)
	}
	if _, err := s.extractorFor(ctx, req.Model, req.ReadingMode); err != nil {
		return "", err
	}
	if req.ReadingMode == extraction.ReadingOCR {
		if err := reader.Available(); err != nil {
			return "", apperr.BadRequestf("%s", strings.TrimPrefix(err.Error(), reader.ErrOCR.Error()+": "))
		}
	}
	if req.CategoryID != nil {
		if err := s.ports.Bank.CheckCategory(ctx, "body.category_id", *req.CategoryID); err != nil {
			return "", err
		}
	}
	var id string
	err = s.db.Tx(ctx, func(ctx context.Context) error {
		jobID, err := s.queue.Enqueue(ctx, &p.UserID, extractPayload{SectionID: sec.ID,
			ReadingMode: req.ReadingMode, Model: req.Model, CategoryID: req.CategoryID, RequestedBy: p.UserID})
		id = jobID.String()
		return err
	})
	if errors.Is(err, jobs.ErrQueueFull) {
		return "", &apperr.Error{Code: apperr.Unavailable, RetryAfter: queueFullRetry,
			Message: "the extraction queue cannot accept a job now; nothing was started, try again shortly"}
	}
	if err != nil {
		return "", err
	}
	return id, nil
}

// extractorFor picks the extractor for a model choice and reading mode.
// The built-in extractor serves "builtin", and "" while no model is
// configured; it reads the text layer only. OCR hands extractors text, so
// it takes any extractor that reads text.
func (s *Service) extractorFor(ctx context.Context, model, mode string) (extraction.Extractor, error) {
	if mode == extraction.ReadingOCR {
		mode = extraction.ReadingText
	}
	models := s.modelPort()
	if model != extraction.BuiltinModel && models != nil {
		ext, err := models.Extractor(ctx, model, mode)
		switch {
		case err == nil:
			return ext, nil
		case errors.Is(err, extraction.ErrUnsupportedMode):
			return nil, apperr.BadRequestf("model %q cannot read in %s mode", model, mode)
		case errors.Is(err, extraction.ErrNoModel) && model != "":
			return nil, apperr.BadRequestf("model %q is not configured for extraction", model)
		case !errors.Is(err, extraction.ErrNoModel):
			return nil, err
		}
	}
	if model != "" && model != extraction.BuiltinModel {
		return nil, apperr.BadRequestf("model %q is not available: no extraction model is configured; use %q",
			model, extraction.BuiltinModel)
	}
	if mode != extraction.ReadingText {
		return nil, apperr.BadRequestf("the built-in extractor reads the text layer only; choose a model for %s mode", mode)
	}
	return s.builtin, nil
}
