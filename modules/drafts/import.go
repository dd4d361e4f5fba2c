package drafts

import (
	"context"

	"github.com/roundsedu/rounds/modules/drafts/internal/app"
)

// ImportedDraft is one question another module read from a file.
type ImportedDraft = app.ImportedDraft

// Import is a file's questions to review as one batch.
type Import = app.Import

// ImportedBatch is the batch an import made, with its counts.
type ImportedBatch = app.Batch

// Importer is what the interchange module asks drafts: imported questions
// become a batch of pending drafts, never bank questions directly.
type Importer interface {
	ImportDrafts(ctx context.Context, imp Import) (*ImportedBatch, error)
}

var _ Importer = (*Module)(nil)

// ImportDrafts files a file's questions as one open batch of drafts.
func (m *Module) ImportDrafts(ctx context.Context, imp Import) (*ImportedBatch, error) {
	return m.svc.ImportDrafts(ctx, imp)
}
