package app

import (
	"time"

	"github.com/roundsedu/rounds/modules/drafts/internal/review"
	"github.com/roundsedu/rounds/modules/drafts/internal/store"
)

// Document is an uploaded PDF as the service shows it.
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

// Step is one line of progress.
type Step struct {
	Name   string
	Detail string
	At     time.Time
}

// Section is a named page range.
type Section struct {
	ID         int64
	DocumentID int64
	Name       string
	StartPage  int
	EndPage    int
	CreatedAt  time.Time
}

// Batch is one extraction run's drafts, counted: the stored row is the
// shape every layer needs.
type Batch = store.BatchSummary

// Draft is one extracted question under review.
type Draft struct {
	ID            int64
	BatchID       int64
	Position      int
	Type          string
	Text          string
	Options       []string
	CorrectAnswer string
	Explanation   string
	SourcePage    *int
	CategoryID    *int64
	Status        string
	QuestionID    *int64
	Problems      []string // readiness reasons; empty when it could be accepted
	ReviewedBy    *int64
	ReviewedAt    *time.Time
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

func toDocument(d *store.Document) *Document {
	return &Document{ID: d.ID, UserID: d.UserID, Filename: d.Filename, OriginalFilename: d.OriginalFilename,
		SizeBytes: d.SizeBytes, Status: d.Status, TotalPages: d.TotalPages, ErrorMessage: d.ErrorMessage,
		UploadedAt: d.UploadedAt}
}

func toSection(s *store.Section) Section {
	return Section{ID: s.ID, DocumentID: s.DocumentID, Name: s.Name, StartPage: s.StartPage,
		EndPage: s.EndPage, CreatedAt: s.CreatedAt}
}

func toSteps(steps []store.Step) []Step {
	out := make([]Step, len(steps))
	for i, st := range steps {
		out[i] = Step(st)
	}
	return out
}

func toDraft(d *store.Draft) Draft {
	out := Draft{ID: d.ID, BatchID: d.BatchID, Position: d.Position, Type: d.QuestionType,
		Text: d.QuestionText, Options: []string(d.Options), CorrectAnswer: d.CorrectAnswer,
		Explanation: d.Explanation, SourcePage: d.SourcePage, CategoryID: d.CategoryID, Status: d.Status,
		QuestionID: d.QuestionID, ReviewedBy: d.ReviewedBy, ReviewedAt: d.ReviewedAt,
		CreatedAt: d.CreatedAt, UpdatedAt: d.UpdatedAt}
	if out.Options == nil {
		out.Options = []string{}
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
