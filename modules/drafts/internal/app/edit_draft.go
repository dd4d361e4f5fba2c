package app

import (
	"context"
	"strings"

	"github.com/roundsedu/rounds/modules/drafts/internal/review"
)

// DraftEdit is a partial edit: nil fields stay as they are.
type DraftEdit struct {
	Type          *string
	Text          *string
	Options       *string // one option per line
	CorrectAnswer *string
	Explanation   *string
	// SetCategory applies CategoryID (nil clears the draft's own category,
	// so the batch's applies again).
	SetCategory bool
	CategoryID  *int64
}

// EditDraft changes a pending or rejected draft. An accepted draft is a
// bank question now and is refused (409): edit the question instead.
func (s *Service) EditDraft(ctx context.Context, id int64, e DraftEdit) (*Draft, error) {
	if e.SetCategory && e.CategoryID != nil {
		if err := s.ports.Bank.CheckCategory(ctx, "body.category_id", *e.CategoryID); err != nil {
			return nil, err
		}
	}
	err := s.db.Tx(ctx, func(ctx context.Context) error {
		set, err := s.lockForReview(ctx, []int64{id})
		if err != nil {
			return err
		}
		if err := alreadyAccepted(set.drafts, "edit"); err != nil {
			return err
		}
		d := &set.drafts[0]
		if e.Type != nil {
			d.QuestionType = *e.Type
		}
		if e.Text != nil {
			d.QuestionText = strings.TrimSpace(*e.Text)
		}
		if e.Options != nil {
			d.Options = review.OptionsFromLines(*e.Options)
		}
		if e.CorrectAnswer != nil {
			d.CorrectAnswer = strings.TrimSpace(*e.CorrectAnswer)
		}
		if e.Explanation != nil {
			d.Explanation = strings.TrimSpace(*e.Explanation)
		}
		if e.SetCategory {
			d.CategoryID = e.CategoryID
		}
		return s.store.SaveDraftContent(ctx, d)
	})
	if err != nil {
		return nil, err
	}
	return s.Draft(ctx, id)
}
