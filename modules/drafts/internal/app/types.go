package app

import (
	"time"

	"github.com/roundsedu/rounds/modules/drafts/internal/review"
	"github.com/roundsedu/rounds/modules/drafts/internal/store"
)

// Document is an uploaded PDF as the service shows it: its own type because
// the stored row also holds the storage key and the processing bookkeeping
// (run, start, steps), which nothing outside the store reads.
type Document struct {
	ID               int64
	UserID           int64
	Filename         string
	OriginalFilename string
	SizeBytes        int64
	Status           string
	TotalPages       int
	ErrorMessage     *string
	UploadedAt       time.Time
	Sections         []Section // filled by the detail view only
}

// Step is one line of progress, as stored.
type Step = store.Step

// Section is a named page range: the stored row, whose fields the service
// shows as they are.
type Section = store.Section

// Batch is one extraction run's drafts, counted: the stored row is the
// shape every layer needs.
type Batch = store.BatchSummary

// Draft is one extracted question under review: the stored row with its
// readiness reasons (empty when it could be accepted).
type Draft struct {
	store.Draft
	Problems []string
}

func toDocument(d *store.Document) *Document {
	return &Document{ID: d.ID, UserID: d.UserID, Filename: d.Filename, OriginalFilename: d.OriginalFilename,
		SizeBytes: d.SizeBytes, Status: d.Status, TotalPages: d.TotalPages, ErrorMessage: d.ErrorMessage,
		UploadedAt: d.UploadedAt}
}

func toDraft(d *store.Draft) Draft {
	out := Draft{Draft: *d}
	if out.Options == nil {
		out.Options = store.StringList{}
	}
	if d.Status != store.DraftAccepted {
		out.Problems = review.Problems(readiness(d))
	}
	if out.Problems == nil {
		out.Problems = []string{}
	}
	return out
}

func readiness(d *store.Draft) review.Draft {
	return review.Draft{Type: d.QuestionType, Text: d.QuestionText, Options: d.Options, CorrectAnswer: d.CorrectAnswer}
}
