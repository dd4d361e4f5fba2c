package app

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/roundsedu/rounds/modules/bank"
	"github.com/roundsedu/rounds/modules/drafts/internal/review"
	"github.com/roundsedu/rounds/modules/drafts/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
)

// Accepted pairs a draft with the bank question it became.
type Accepted struct {
	DraftID    int64
	QuestionID int64
}

// Decision is the outcome of an accept or reject: what changed and the
// batches it touched, as they are afterwards.
type Decision struct {
	Accepted []Accepted
	Rejected []int64
	Batches  []Batch
}

// AcceptDrafts turns the selected drafts into bank questions, all or
// nothing, in one transaction with the drafts' status change: a draft
// already in the bank is a 409; any draft that is not ready (rejected, or
// failing a readiness check), or a batch without its Files-into-topic
// category, refuses the whole selection with the reasons per draft.
func (s *Service) AcceptDrafts(ctx context.Context, p auth.Principal, ids []int64) (*Decision, error) {
	out := &Decision{}
	err := s.db.Tx(ctx, func(ctx context.Context) error {
		set, err := s.lockForReview(ctx, ids)
		if err != nil {
			return err
		}
		if err := alreadyAccepted(set.drafts, "accept"); err != nil {
			return err
		}
		if err := notReady(set); err != nil {
			return err
		}
		qs := make([]bank.NewQuestion, len(set.drafts))
		draftIDs := make([]int64, len(set.drafts))
		for i, d := range set.drafts {
			qs[i] = toNewQuestion(&d, set.batches[d.BatchID])
			draftIDs[i] = d.ID
		}
		qids, err := s.ports.Bank.CreateQuestions(ctx, p.UserID, qs)
		if err != nil {
			return byDraft(err, draftIDs)
		}
		if len(qids) != len(qs) {
			return fmt.Errorf("drafts: bank created %d questions for %d drafts", len(qids), len(qs))
		}
		if err := s.store.MarkAccepted(ctx, draftIDs, qids, p.UserID); err != nil {
			return err
		}
		for i := range draftIDs {
			out.Accepted = append(out.Accepted, Accepted{DraftID: draftIDs[i], QuestionID: qids[i]})
		}
		return s.closeBatches(ctx, set.batchIDs, out)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// notReady is the 400 that prints, per draft, why the selection cannot be
// accepted; nil when every draft is ready.
func notReady(set *reviewSet) error {
	var reasons []string
	for _, id := range set.batchIDs {
		if set.batches[id].CategoryID == nil {
			reasons = append(reasons, fmt.Sprintf("batch %d: no Files-into-topic category set", id))
		}
	}
	blocked := 0
	for _, d := range set.drafts {
		var why []string
		if d.Status == store.DraftRejected {
			why = []string{"rejected (reopen it first)"}
		} else {
			why = review.Problems(readiness(&d))
		}
		if len(why) > 0 {
			blocked++
			reasons = append(reasons, fmt.Sprintf("draft %d: %s", d.ID, strings.Join(why, ", ")))
		}
	}
	if len(reasons) == 0 {
		return nil
	}
	return apperr.BadRequestf("nothing was accepted; %d of %d drafts not ready: %s",
		blocked, len(set.drafts), strings.Join(reasons, "; "))
}

// byDraft turns the bank's refusal of questions into the drafts they came
// from ("drafts[17].question_category_id"), so a refusal the readiness
// checks did not foresee (a category deleted meanwhile) still points at
// the draft to fix. Any other error passes unchanged.
func byDraft(err error, draftIDs []int64) error {
	var refused *bank.RefusedQuestions
	if !errors.As(err, &refused) {
		return err
	}
	out := &apperr.Error{Code: apperr.Invalid}
	msgs := make([]string, len(refused.Refusals))
	for i, r := range refused.Refusals {
		id := draftIDs[r.Item]
		msgs[i] = fmt.Sprintf("draft %d: %s", id, r.Rule)
		out.Fields = append(out.Fields, apperr.Field{Field: fmt.Sprintf("drafts[%d].%s", id, r.Field),
			Message: msgs[i], Type: "value_error"})
	}
	out.Message = strings.Join(msgs, "; ")
	return out
}

// toNewQuestion files a draft into its own category, else its batch's.
func toNewQuestion(d *store.Draft, b *store.Batch) bank.NewQuestion {
	q := bank.NewQuestion{Type: d.QuestionType, Text: strings.TrimSpace(d.QuestionText),
		CorrectAnswer: strings.TrimSpace(d.CorrectAnswer), Explanation: strings.TrimSpace(d.Explanation),
		ImagePath: d.ImagePath, ExplanationImagePath: d.ExplanationImagePath, CategoryID: b.CategoryID}
	if d.QuestionType == review.TypeMCQ {
		q.Options = review.CleanOptions(d.Options)
	}
	if d.CategoryID != nil {
		q.CategoryID = d.CategoryID
	}
	return q
}

// closeBatches recomputes the touched batches' status and reads them back
// into the decision.
func (s *Service) closeBatches(ctx context.Context, ids []int64, out *Decision) error {
	if err := s.store.RefreshBatchStatus(ctx, ids); err != nil {
		return err
	}
	sums, err := s.store.BatchSummaries(ctx, ids)
	if err != nil {
		return err
	}
	out.Batches = append(out.Batches, sums...)
	return nil
}
