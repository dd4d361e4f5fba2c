package app

import (
	"context"

	"github.com/roundsedu/rounds/modules/drafts/internal/store"
)

// ImportedDraft is one question read from a file another module parsed
// (Moodle XML, GIFT).
type ImportedDraft struct {
	Type          string
	Text          string
	Options       []string
	CorrectAnswer string
	Explanation   string
	// Storage keys of media assets: the question's picture and its
	// explanation's ("" none).
	ImagePath, ExplanationImagePath string
}

// Import is a file's questions to review as one batch.
type Import struct {
	By         int64
	Source     string // shown as the batch's source ("questions.xml (Moodle XML)")
	Extractor  string // the format's name ("moodle_xml", "gift")
	CategoryID *int64 // the Files-into-topic category, optional
	Drafts     []ImportedDraft
}

// ImportDrafts files imported questions as one open batch of pending
// drafts, in one transaction: nothing enters the bank until a draft is
// accepted, as for extracted drafts.
func (s *Service) ImportDrafts(ctx context.Context, imp Import) (*Batch, error) {
	if imp.CategoryID != nil {
		if err := s.ports.Bank.CheckCategory(ctx, "body.category_id", *imp.CategoryID); err != nil {
			return nil, err
		}
	}
	b := &store.Batch{Source: imp.Source, Extractor: imp.Extractor, ReadingMode: "import",
		CategoryID: imp.CategoryID, CreatedBy: imp.By}
	rows := make([]store.Draft, len(imp.Drafts))
	for i, d := range imp.Drafts {
		rows[i] = store.Draft{QuestionType: d.Type, QuestionText: d.Text, Options: d.Options,
			CorrectAnswer: d.CorrectAnswer, Explanation: d.Explanation, ImagePath: d.ImagePath,
			ExplanationImagePath: d.ExplanationImagePath}
		if rows[i].Options == nil {
			rows[i].Options = store.StringList{}
		}
	}
	err := s.db.Tx(ctx, func(ctx context.Context) error { return s.store.CreateBatch(ctx, b, rows) })
	if err != nil {
		return nil, err
	}
	return s.Batch(ctx, b.ID)
}
