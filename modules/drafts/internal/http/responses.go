// Package http is the drafts module's HTTP surface: thin huma handlers for
// documents, sections, extraction jobs, batches and drafts that decode the
// request, call the service and map the result to these response shapes.
package http

import (
	"time"

	"github.com/roundsedu/rounds/modules/drafts/internal/app"
	"github.com/roundsedu/rounds/platform/opt"
)

// DocumentResponse is an uploaded PDF.
type DocumentResponse struct {
	ID               int64     `json:"id"`
	UserID           int64     `json:"user_id"`
	Filename         string    `json:"filename" doc:"Stored file name (the storage key's last part)"`
	OriginalFilename string    `json:"original_filename" doc:"The name the file was uploaded with"`
	SizeBytes        int64     `json:"size_bytes"`
	Status           string    `json:"status" enum:"processing,ready,failed"`
	TotalPages       int       `json:"total_pages" doc:"0 until processing has read the pages"`
	ErrorMessage     *string   `json:"error_message"`
	UploadedAt       time.Time `json:"uploaded_at"`
}

// DocumentDetail is a document with its sections.
type DocumentDetail struct {
	DocumentResponse
	Sections []SectionResponse `json:"sections"`
}

// StatusResponse is the short status of a document.
type StatusResponse struct {
	ID           int64   `json:"id"`
	Status       string  `json:"status" enum:"processing,ready,failed"`
	TotalPages   int     `json:"total_pages"`
	ErrorMessage *string `json:"error_message"`
}

// StepResponse is one line of progress.
type StepResponse struct {
	Name   string    `json:"name"`
	Detail string    `json:"detail,omitempty"`
	At     time.Time `json:"at"`
}

// StepsResponse is a document's processing history.
type StepsResponse struct {
	Steps []StepResponse `json:"steps"`
}

// SectionResponse is a named page range (1-based, inclusive).
type SectionResponse struct {
	ID         int64     `json:"id"`
	DocumentID int64     `json:"document_id"`
	Name       string    `json:"name"`
	StartPage  int       `json:"start_page"`
	EndPage    int       `json:"end_page"`
	CreatedAt  time.Time `json:"created_at"`
}

// JobStarted answers the start of an extraction.
type JobStarted struct {
	JobID  string `json:"job_id"`
	Status string `json:"status" enum:"pending"`
}

// JobResponse is an extraction job as clients poll it.
type JobResponse struct {
	JobID       string         `json:"job_id"`
	Status      string         `json:"status" enum:"pending,running,completed,failed,cancelled"`
	SectionID   int64          `json:"section_id"`
	ReadingMode string         `json:"reading_mode"`
	Model       string         `json:"model"`
	Steps       []StepResponse `json:"steps"`
	BatchID     *int64         `json:"batch_id" doc:"Set once completed"`
	Drafts      int            `json:"drafts" doc:"Drafts in the batch once completed"`
	Error       *string        `json:"error" doc:"Set once failed"`
	CreatedAt   time.Time      `json:"created_at"`
	StartedAt   *time.Time     `json:"started_at"`
	FinishedAt  *time.Time     `json:"finished_at"`
}

// CancelResponse answers a cancel.
type CancelResponse struct {
	Status string `json:"status" enum:"cancelled"`
}

// DraftCounts counts a batch's drafts by status.
type DraftCounts struct {
	Pending  int `json:"pending"`
	Rejected int `json:"rejected"`
	Accepted int `json:"accepted"`
	Total    int `json:"total"`
}

// BatchResponse is one extraction run's drafts.
type BatchResponse struct {
	ID          int64       `json:"id"`
	JobID       string      `json:"job_id"`
	DocumentID  *int64      `json:"document_id"`
	SectionID   *int64      `json:"section_id"`
	Source      string      `json:"source" doc:"Where the drafts came from; kept when the section or document is deleted"`
	StartPage   int         `json:"start_page"`
	EndPage     int         `json:"end_page"`
	Extractor   string      `json:"extractor"`
	ReadingMode string      `json:"reading_mode"`
	CategoryID  *int64      `json:"category_id" doc:"Files-into-topic category; required before any draft is accepted"`
	Status      string      `json:"status" enum:"open,closed"`
	Counts      DraftCounts `json:"counts"`
	CreatedBy   int64       `json:"created_by"`
	CreatedAt   time.Time   `json:"created_at"`
	ClosedAt    *time.Time  `json:"closed_at"`
}

// DraftResponse is one draft under review.
type DraftResponse struct {
	ID            int64    `json:"id"`
	BatchID       int64    `json:"batch_id"`
	Position      int      `json:"position"`
	QuestionType  string   `json:"question_type" enum:"mcq,fill_in"`
	QuestionText  string   `json:"question_text"`
	Options       []string `json:"options"`
	CorrectAnswer string   `json:"correct_answer"`
	Explanation   string   `json:"explanation"`
	ImagePath     *string  `json:"image_path" doc:"storage key of the question's picture (an imported file's), shown through /uploads"`
	// The explanation's picture, like image_path.
	ExplanationImagePath *string    `json:"explanation_image_path" doc:"storage key of the explanation's picture"`
	SourcePage           *int       `json:"source_page"`
	CategoryID           *int64     `json:"category_id" doc:"The draft's own category; wins over the batch's"`
	Status               string     `json:"status" enum:"pending,rejected,accepted"`
	QuestionID           *int64     `json:"question_id" doc:"The bank question it became; set only once accepted"`
	Ready                bool       `json:"ready" doc:"Passes the readiness checks"`
	Problems             []string   `json:"problems" doc:"Readiness reasons that would refuse its acceptance"`
	ReviewedBy           *int64     `json:"reviewed_by"`
	ReviewedAt           *time.Time `json:"reviewed_at"`
	CreatedAt            time.Time  `json:"created_at"`
	UpdatedAt            time.Time  `json:"updated_at"`
}

// AcceptedResponse pairs a draft with its question.
type AcceptedResponse struct {
	DraftID    int64 `json:"draft_id"`
	QuestionID int64 `json:"question_id"`
}

// AcceptResponse answers POST /drafts/accept.
type AcceptResponse struct {
	Accepted []AcceptedResponse `json:"accepted"`
	Batches  []BatchResponse    `json:"batches" doc:"The batches touched, as they are now"`
}

// RejectResponse answers POST /drafts/reject.
type RejectResponse struct {
	Rejected []int64         `json:"rejected"`
	Batches  []BatchResponse `json:"batches" doc:"The batches touched, as they are now"`
}

func toDocumentResponse(d *app.Document) DocumentResponse {
	return DocumentResponse{ID: d.ID, UserID: d.UserID, Filename: d.Filename, OriginalFilename: d.OriginalFilename,
		SizeBytes: d.SizeBytes, Status: d.Status, TotalPages: d.TotalPages, ErrorMessage: d.ErrorMessage,
		UploadedAt: d.UploadedAt}
}

func toSectionResponse(s *app.Section) SectionResponse {
	return SectionResponse{ID: s.ID, DocumentID: s.DocumentID, Name: s.Name, StartPage: s.StartPage,
		EndPage: s.EndPage, CreatedAt: s.CreatedAt}
}

func toStepResponses(steps []app.Step) []StepResponse {
	out := make([]StepResponse, len(steps))
	for i, s := range steps {
		out[i] = StepResponse(s)
	}
	return out
}

func toJobResponse(j *app.Job) JobResponse {
	out := JobResponse{JobID: j.ID, Status: j.Status, SectionID: j.SectionID, ReadingMode: j.ReadingMode,
		Model: j.Model, Steps: toStepResponses(j.Steps), BatchID: j.BatchID, Drafts: j.Drafts,
		CreatedAt: j.CreatedAt, StartedAt: j.StartedAt, FinishedAt: j.FinishedAt}
	if j.Error != "" {
		out.Error = &j.Error
	}
	return out
}

func toBatchResponse(b *app.Batch) BatchResponse {
	out := BatchResponse{ID: b.ID, DocumentID: b.DocumentID, SectionID: b.SectionID,
		Source: b.Source, StartPage: b.StartPage, EndPage: b.EndPage, Extractor: b.Extractor,
		ReadingMode: b.ReadingMode, CategoryID: b.CategoryID, Status: b.Status,
		Counts: DraftCounts{Pending: b.Pending, Rejected: b.Rejected, Accepted: b.Accepted,
			Total: b.Pending + b.Rejected + b.Accepted},
		CreatedBy: b.CreatedBy, CreatedAt: b.CreatedAt, ClosedAt: b.ClosedAt}
	if b.JobID != nil { // imports run no job
		out.JobID = b.JobID.String()
	}
	return out
}

func toBatchResponses(bs []app.Batch) []BatchResponse {
	out := make([]BatchResponse, len(bs))
	for i := range bs {
		out[i] = toBatchResponse(&bs[i])
	}
	return out
}

func toDraftResponse(d *app.Draft) DraftResponse {
	return DraftResponse{ID: d.ID, BatchID: d.BatchID, Position: d.Position, QuestionType: d.QuestionType,
		QuestionText: d.QuestionText, Options: d.Options, CorrectAnswer: d.CorrectAnswer, Explanation: d.Explanation,
		ImagePath: opt.NilIfZero(d.ImagePath), ExplanationImagePath: opt.NilIfZero(d.ExplanationImagePath), SourcePage: d.SourcePage, CategoryID: d.CategoryID, Status: d.Status, QuestionID: d.QuestionID,
		Ready: d.Status == "pending" && len(d.Problems) == 0, Problems: d.Problems,
		ReviewedBy: d.ReviewedBy, ReviewedAt: d.ReviewedAt, CreatedAt: d.CreatedAt, UpdatedAt: d.UpdatedAt}
}

func toDocumentResponses(ds []app.Document) []DocumentResponse {
	out := make([]DocumentResponse, len(ds))
	for i := range ds {
		out[i] = toDocumentResponse(&ds[i])
	}
	return out
}

func toSectionResponses(ss []app.Section) []SectionResponse {
	out := make([]SectionResponse, len(ss))
	for i := range ss {
		out[i] = toSectionResponse(&ss[i])
	}
	return out
}

func toJobResponses(js []app.Job) []JobResponse {
	out := make([]JobResponse, len(js))
	for i := range js {
		out[i] = toJobResponse(&js[i])
	}
	return out
}

func toDraftResponses(ds []app.Draft) []DraftResponse {
	out := make([]DraftResponse, len(ds))
	for i := range ds {
		out[i] = toDraftResponse(&ds[i])
	}
	return out
}

func toAcceptedResponses(as []app.Accepted) []AcceptedResponse {
	out := make([]AcceptedResponse, len(as))
	for i, a := range as {
		out[i] = AcceptedResponse{DraftID: a.DraftID, QuestionID: a.QuestionID}
	}
	return out
}
