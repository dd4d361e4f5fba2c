package app

import (
	"context"

	"github.com/roundsedu/rounds/platform/module"
)

// ExportPersonalData writes what userID owns in flashcards, read in one snapshot.
func (s *Service) ExportPersonalData(ctx context.Context, userID int64, x *module.Export) error {
	return module.Snapshot(ctx, s.db, func(ctx context.Context) error {
		return s.store.ExportPersonalData(ctx, userID, x)
	})
}
