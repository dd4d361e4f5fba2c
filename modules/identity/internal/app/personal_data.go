package app

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/module"
	"github.com/roundsedu/rounds/platform/ratelimit"
)

// exportLimit bounds how often one person downloads their data: an export
// reads every module's history, so it is not a thing to run in a loop.
var exportLimit = ratelimit.Limit{Name: "personal_export", Max: 5, Window: time.Hour}

// exportTimeout bounds the writing of one export (a client reading very
// slowly would otherwise hold the modules' read transactions open).
const exportTimeout = 10 * time.Minute

// DeleteConfirmation is what DELETE /auth/me wants typed, so a stray
// request cannot erase an account.
const DeleteConfirmation = "delete my account"

// StartExport checks, before anything is sent, that the caller may export
// now: the account exists and the hourly allowance is not spent.
func (s *Service) StartExport(ctx context.Context, userID int64) error {
	if _, err := userOrNotFound(s.Store.UserByID(ctx, userID)); err != nil {
		return err
	}
	return s.Limiter.Allow(ctx, exportLimit, strconv.FormatInt(userID, 10))
}

// WriteExport writes everything userID owns to w as a zip: identity's
// account, sessions and grants, then each module offering PersonalData in
// its own folder. A failure half-way leaves the archive without its
// directory (unreadable as whole) and is logged: the response has started.
func (s *Service) WriteExport(ctx context.Context, userID int64, w io.Writer) {
	ctx, cancel := context.WithTimeout(ctx, exportTimeout)
	defer cancel()
	if err := s.writeExport(ctx, userID, w); err != nil {
		s.Log.Error("personal data export failed", "user_id", userID, "error", err)
	}
}

func (s *Service) writeExport(ctx context.Context, userID int64, w io.Writer) error {
	a := module.NewArchive(w, s.now())
	// One snapshot for every module: the files agree with each other as of
	// one instant, however long the writing takes.
	err := module.Snapshot(ctx, s.DB, func(ctx context.Context) error {
		if err := s.Store.ExportPersonalData(ctx, userID, a.Module("identity")); err != nil {
			return fmt.Errorf("identity: %w", err)
		}
		for _, p := range s.personal() {
			if err := p.ExportPersonalData(ctx, userID, a.Module(p.Name())); err != nil {
				return fmt.Errorf("%s: %w", p.Name(), err)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return a.Close()
}

func (s *Service) personal() []module.PersonalData {
	if s.Personal == nil {
		return nil
	}
	return *s.Personal
}

// DeleteMe removes the caller's own account as an administrator's deletion
// does, once they typed DeleteConfirmation; the last administrator cannot.
func (s *Service) DeleteMe(ctx context.Context, userID int64, confirm string) error {
	if !strings.EqualFold(strings.TrimSpace(confirm), DeleteConfirmation) {
		return apperr.Invalidf("body.confirm", "confirm must be %q", DeleteConfirmation)
	}
	return s.removeAccount(ctx, userID)
}
