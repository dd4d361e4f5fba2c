package app

import (
	"context"

	"github.com/roundsedu/rounds/platform/module"
)

// ExportPersonalData writes what userID owns in library, in the caller's snapshot.
func (s *Service) ExportPersonalData(ctx context.Context, userID int64, x *module.Export) error {
	return s.store.ExportPersonalData(ctx, userID, x)
}

// ForgetUser removes a deleted account's rows here, in the caller's
// transaction (a second run finds nothing).
func (s *Service) ForgetUser(ctx context.Context, userID int64) error {
	return s.store.ForgetUser(ctx, userID)
}
