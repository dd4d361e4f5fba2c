package app

import (
	"context"

	"github.com/roundsedu/rounds/platform/module"
)

// ExportPersonalData writes what userID owns in attempts, in the caller's snapshot.
func (s *Service) ExportPersonalData(ctx context.Context, userID int64, x *module.Export) error {
	return s.store.ExportPersonalData(ctx, userID, x)
}
