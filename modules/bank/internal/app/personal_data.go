package app

import (
	"context"

	"github.com/roundsedu/rounds/platform/module"
)

// ExportPersonalData writes what userID owns in the bank, read in the
// caller's snapshot.
func (s *Service) ExportPersonalData(ctx context.Context, userID int64, x *module.Export) error {
	return s.store.ExportPersonalData(ctx, userID, x)
}

// ForgetPersonalData removes a deleted account's favourites and the saved
// tests built for it, in one transaction (a second run finds nothing).
func (s *Service) ForgetPersonalData(ctx context.Context, userID int64) error {
	return s.write(ctx, func(ctx context.Context) error {
		if err := s.ForgetUser(ctx, userID); err != nil {
			return err
		}
		return s.store.ForgetSavedTests(ctx, userID)
	})
}
