package http

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/modules/bank/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

// ClassificationSnapshotBody is a classification snapshot as listed.
type ClassificationSnapshotBody struct {
	ID        int64     `json:"id"`
	Kind      string    `json:"kind" enum:"tags" doc:"what was snapshotted: the question-tag classification"`
	Reason    string    `json:"reason" enum:"classification,rollback" doc:"what was about to change it"`
	JobID     *string   `json:"job_id" doc:"the classification job it preceded"`
	Restores  *int64    `json:"restores" doc:"the snapshot the rollback it preceded restored"`
	CreatedBy *int64    `json:"created_by"`
	Pairs     int       `json:"pairs" doc:"question-tag pairs held"`
	Questions int       `json:"questions" doc:"questions with at least one tag"`
	CreatedAt time.Time `json:"created_at"`
}

func toClassificationSnapshot(s *app.Snapshot) ClassificationSnapshotBody {
	b := ClassificationSnapshotBody{ID: s.ID, Kind: s.Kind, Reason: s.Reason, Restores: s.Restores, CreatedBy: s.CreatedBy,
		Pairs: s.Pairs, Questions: s.Questions, CreatedAt: s.CreatedAt}
	if s.JobID != nil {
		id := s.JobID.String()
		b.JobID = &id
	}
	return b
}

type rollbackOutput struct {
	Body struct {
		Restored         int64                      `json:"restored" doc:"the snapshot restored"`
		Backup           ClassificationSnapshotBody `json:"backup" doc:"the classification as it was just before, snapshotted first"`
		TagsAdded        int64                      `json:"tags_added"`
		TagsRemoved      int64                      `json:"tags_removed"`
		QuestionsChanged int                        `json:"questions_changed" doc:"questions whose tags changed (each reindexed)"`
	}
}

type classificationSnapshotsIn struct{ httpapi.Page }

func (h *handlers) classificationSnapshots(ctx context.Context, in *classificationSnapshotsIn) (*httpapi.Listing[ClassificationSnapshotBody], error) {
	snaps, total, err := h.svc.ClassificationSnapshots(ctx, auth.MustFrom(ctx), in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	return httpapi.ListOf(snaps, total, toClassificationSnapshot), nil
}

type rollbackClassificationIn struct {
	ID int64 `path:"snapshot_id" minimum:"1"`
}

func (h *handlers) rollbackClassification(ctx context.Context, in *rollbackClassificationIn) (*rollbackOutput, error) {
	rb, err := h.svc.RollbackClassification(ctx, auth.MustFrom(ctx), in.ID)
	if err != nil {
		return nil, err
	}
	out := &rollbackOutput{}
	out.Body.Restored, out.Body.Backup = rb.Restored, toClassificationSnapshot(rb.Backup)
	out.Body.TagsAdded, out.Body.TagsRemoved, out.Body.QuestionsChanged = rb.TagsAdded, rb.TagsRemoved,
		rb.QuestionsChanged
	return out, nil
}
