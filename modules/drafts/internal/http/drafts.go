package http

import (
	"context"

	"github.com/roundsedu/rounds/modules/drafts/internal/app"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

type listBatchesIn struct {
	PageQuery
	Status string `query:"status" default:"open" enum:"open,closed,all" doc:"open (the default list), closed, or all"`
}

type batchesOut struct{ Body []BatchResponse }

func (h *handlers) listBatches(ctx context.Context, in *listBatchesIn) (*batchesOut, error) {
	bs, err := h.svc.Batches(ctx, in.Status, in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	return &batchesOut{Body: toBatchResponses(bs)}, nil
}

// BatchPath names a batch.
type BatchPath struct {
	BatchID int64 `path:"batch_id"`
}

type batchOut struct{ Body BatchResponse }

func (h *handlers) getBatch(ctx context.Context, in *BatchPath) (*batchOut, error) {
	b, err := h.svc.Batch(ctx, in.BatchID)
	if err != nil {
		return nil, err
	}
	return &batchOut{Body: toBatchResponse(b)}, nil
}

type patchBatchIn struct {
	BatchPath
	Body struct {
		CategoryID int64 `json:"category_id" minimum:"1" doc:"The Files-into-topic category accepted drafts are filed into"`
	}
}

func (h *handlers) patchBatch(ctx context.Context, in *patchBatchIn) (*batchOut, error) {
	b, err := h.svc.SetBatchCategory(ctx, in.BatchID, in.Body.CategoryID)
	if err != nil {
		return nil, err
	}
	return &batchOut{Body: toBatchResponse(b)}, nil
}

type batchDraftsIn struct {
	BatchPath
	PageQuery
	Status string `query:"status" default:"all" enum:"pending,rejected,accepted,all"`
}

type draftsOut struct{ Body []DraftResponse }

func (h *handlers) batchDrafts(ctx context.Context, in *batchDraftsIn) (*draftsOut, error) {
	ds, err := h.svc.BatchDrafts(ctx, in.BatchID, in.Status, in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	return &draftsOut{Body: toDraftResponses(ds)}, nil
}

// DraftPath names a draft.
type DraftPath struct {
	ID int64 `path:"id"`
}

type draftOut struct{ Body DraftResponse }

func (h *handlers) getDraft(ctx context.Context, in *DraftPath) (*draftOut, error) {
	d, err := h.svc.Draft(ctx, in.ID)
	if err != nil {
		return nil, err
	}
	return &draftOut{Body: toDraftResponse(d)}, nil
}

type patchDraftIn struct {
	DraftPath
	Body struct {
		QuestionText  *string                 `json:"question_text,omitempty" required:"false" maxLength:"10000"`
		QuestionType  *string                 `json:"question_type,omitempty" required:"false" enum:"mcq,fill_in"`
		Options       *string                 `json:"options,omitempty" required:"false" maxLength:"20000" doc:"One option per line; blank lines are ignored"`
		CorrectAnswer *string                 `json:"correct_answer,omitempty" required:"false" maxLength:"2000" doc:"For MCQ, the text of one option"`
		Explanation   *string                 `json:"explanation,omitempty" required:"false" maxLength:"20000"`
		CategoryID    httpapi.Nullable[int64] `json:"category_id,omitempty" required:"false" minimum:"1" doc:"The draft's own category; null clears it so the batch's applies"`
	}
}

func (h *handlers) patchDraft(ctx context.Context, in *patchDraftIn) (*draftOut, error) {
	b := in.Body
	if b.QuestionText == nil && b.QuestionType == nil && b.Options == nil && b.CorrectAnswer == nil &&
		b.Explanation == nil && !b.CategoryID.Sent {
		return nil, apperr.Invalidf("body", "name at least one field to change")
	}
	edit := app.DraftEdit{Type: b.QuestionType, Text: b.QuestionText, Options: b.Options,
		CorrectAnswer: b.CorrectAnswer, Explanation: b.Explanation, SetCategory: b.CategoryID.Sent}
	if b.CategoryID.Sent && !b.CategoryID.Null {
		edit.CategoryID = &b.CategoryID.Value
	}
	d, err := h.svc.EditDraft(ctx, in.ID, edit)
	if err != nil {
		return nil, err
	}
	return &draftOut{Body: toDraftResponse(d)}, nil
}

type selectionIn struct {
	Body struct {
		DraftIDs []int64 `json:"draft_ids" minItems:"1" maxItems:"200" doc:"The drafts to decide on, all or nothing"`
	}
}

type acceptOut struct{ Body AcceptResponse }

func (h *handlers) accept(ctx context.Context, in *selectionIn) (*acceptOut, error) {
	dec, err := h.svc.AcceptDrafts(ctx, auth.MustFrom(ctx), in.Body.DraftIDs)
	if err != nil {
		return nil, err
	}
	return &acceptOut{Body: AcceptResponse{Accepted: toAcceptedResponses(dec.Accepted),
		Batches: toBatchResponses(dec.Batches)}}, nil
}

type rejectOut struct{ Body RejectResponse }

func (h *handlers) reject(ctx context.Context, in *selectionIn) (*rejectOut, error) {
	dec, err := h.svc.RejectDrafts(ctx, auth.MustFrom(ctx), in.Body.DraftIDs)
	if err != nil {
		return nil, err
	}
	return &rejectOut{Body: RejectResponse{Rejected: dec.Rejected, Batches: toBatchResponses(dec.Batches)}}, nil
}

func (h *handlers) reopen(ctx context.Context, in *DraftPath) (*draftOut, error) {
	d, err := h.svc.ReopenDraft(ctx, auth.MustFrom(ctx), in.ID)
	if err != nil {
		return nil, err
	}
	return &draftOut{Body: toDraftResponse(d)}, nil
}

func (h *handlers) deleteDraft(ctx context.Context, in *DraftPath) (*struct{}, error) {
	return nil, h.svc.DeleteDraft(ctx, in.ID)
}
