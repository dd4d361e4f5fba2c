package app

import (
	"context"

	"github.com/roundsedu/rounds/modules/drafts/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
)

// RejectDrafts marks the selected drafts rejected, all or nothing: a draft
// already in the bank is a 409. Rejected drafts stay listed; rejecting one
// twice changes nothing. A batch closes once no pending draft remains.
func (s *Service) RejectDrafts(ctx context.Context, p auth.Principal, ids []int64) (*Decision, error) {
	out := &Decision{}
	err := s.db.Tx(ctx, func(ctx context.Context) error {
		set, err := s.lockForReview(ctx, ids)
		if err != nil {
			return err
		}
		if err := alreadyAccepted(set.drafts, "reject"); err != nil {
			return err
		}
		var pending []int64
		for _, d := range set.drafts {
			out.Rejected = append(out.Rejected, d.ID)
			if d.Status == store.DraftPending {
				pending = append(pending, d.ID)
			}
		}
		if len(pending) > 0 {
			if err := s.store.SetStatus(ctx, pending, store.DraftRejected, p.UserID); err != nil {
				return err
			}
		}
		return s.closeBatches(ctx, set.batchIDs, out)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ReopenDraft moves a rejected draft back to pending (its batch reopens if
// it had closed).
func (s *Service) ReopenDraft(ctx context.Context, p auth.Principal, id int64) (*Draft, error) {
	err := s.db.Tx(ctx, func(ctx context.Context) error {
		set, err := s.lockForReview(ctx, []int64{id})
		if err != nil {
			return err
		}
		if err := alreadyAccepted(set.drafts, "reopen"); err != nil {
			return err
		}
		if st := set.drafts[0].Status; st != store.DraftRejected {
			return apperr.BadRequestf("draft %d is %s; only a rejected draft can be reopened", id, st)
		}
		if err := s.store.SetStatus(ctx, []int64{id}, store.DraftPending, p.UserID); err != nil {
			return err
		}
		return s.store.RefreshBatchStatus(ctx, set.batchIDs)
	})
	if err != nil {
		return nil, err
	}
	return s.Draft(ctx, id)
}

// DeleteDraft removes a rejected draft; any other status is refused
// (pending: reject it first; accepted: it is a bank question now).
func (s *Service) DeleteDraft(ctx context.Context, id int64) error {
	return s.db.Tx(ctx, func(ctx context.Context) error {
		set, err := s.lockForReview(ctx, []int64{id})
		if err != nil {
			return err
		}
		if err := alreadyAccepted(set.drafts, "delete"); err != nil {
			return err
		}
		if st := set.drafts[0].Status; st != store.DraftRejected {
			return apperr.BadRequestf("draft %d is %s; only rejected drafts can be deleted (reject it first)", id, st)
		}
		if err := s.store.DeleteDraft(ctx, id); err != nil {
			return err
		}
		return s.store.RefreshBatchStatus(ctx, set.batchIDs)
	})
}
