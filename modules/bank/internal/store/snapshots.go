package store

import (
	"context"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"github.com/roundsedu/rounds/platform/db"
)

// Snapshot is a classification snapshot without its pairs.
type Snapshot struct {
	ID        int64
	Kind      string
	Reason    string
	JobID     *uuid.UUID
	Restores  *int64
	CreatedBy *int64
	Pairs     int
	Questions int
	CreatedAt time.Time
}

const snapshotCols = `id, kind, reason, job_id, restores, created_by, pairs, questions, created_at`

// LockClassification holds every other writer of question tags off until
// the transaction ends (readers go on), so a snapshot is exactly the state
// the write after it replaces.
func (s *Store) LockClassification(ctx context.Context) error {
	return s.db.Conn(ctx).Exec(`LOCK TABLE bank.question_tags IN SHARE ROW EXCLUSIVE MODE`).Error
}

// SnapshotTags stores every (question, tag) pair as a snapshot. A second
// snapshot for the same job is not taken (nil, nil).
func (s *Store) SnapshotTags(ctx context.Context, reason string, jobID *uuid.UUID, restores, by *int64) (*Snapshot,
	error) {
	var rows []Snapshot
	err := s.db.Conn(ctx).Raw(`INSERT INTO bank.classification_snapshots
		(reason, job_id, restores, created_by, question_ids, tag_ids, pairs, questions)
		SELECT ?, ?, ?, ?, coalesce(array_agg(question_id ORDER BY question_id, tag_id), '{}'),
			coalesce(array_agg(tag_id ORDER BY question_id, tag_id), '{}'), count(*), count(DISTINCT question_id)
		FROM bank.question_tags
		ON CONFLICT (job_id) DO NOTHING
		RETURNING `+snapshotCols, reason, jobID, restores, by).Scan(&rows).Error
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	return &rows[0], nil
}

// PruneSnapshots drops all but the newest keep snapshots.
func (s *Store) PruneSnapshots(ctx context.Context, keep int) error {
	return s.db.Conn(ctx).Exec(`DELETE FROM bank.classification_snapshots WHERE id IN (
		SELECT id FROM bank.classification_snapshots ORDER BY id DESC OFFSET ?)`, keep).Error
}

// Snapshots lists snapshots newest first with their total.
func (s *Store) Snapshots(ctx context.Context, limit, offset int) ([]Snapshot, int64, error) {
	var total int64
	if err := s.db.Conn(ctx).Table("bank.classification_snapshots").Count(&total).Error; err != nil {
		return nil, 0, err
	}
	rows := []Snapshot{}
	err := s.db.Conn(ctx).Raw(`SELECT `+snapshotCols+` FROM bank.classification_snapshots
		ORDER BY id DESC LIMIT ? OFFSET ?`, limit, offset).Scan(&rows).Error
	return rows, total, err
}

// SnapshotByID loads one snapshot (without its pairs); db.ErrNotFound on
// a miss.
func (s *Store) SnapshotByID(ctx context.Context, id int64) (*Snapshot, error) {
	var rows []Snapshot
	err := s.db.Conn(ctx).Raw(`SELECT `+snapshotCols+` FROM bank.classification_snapshots WHERE id = ?`, id).
		Scan(&rows).Error
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, gorm.ErrRecordNotFound
	}
	return &rows[0], nil
}

// Restored is what putting a snapshot's pairs back changed.
type Restored struct {
	Added, Removed int64
	Questions      []int64 // questions whose tags changed, by id
}

// RestoreTags makes bank.question_tags exactly the snapshot's pairs, less
// those whose question or tag is gone since, in one statement.
func (s *Store) RestoreTags(ctx context.Context, id int64) (*Restored, error) {
	var rows []struct {
		QuestionID int64
		Added      bool
	}
	err := s.db.Conn(ctx).Raw(`WITH target AS (
			SELECT DISTINCT p.question_id, p.tag_id
			FROM bank.classification_snapshots s,
				unnest(s.question_ids, s.tag_ids) AS p(question_id, tag_id)
			WHERE s.id = ?
				AND EXISTS (SELECT 1 FROM bank.questions q WHERE q.id = p.question_id)
				AND EXISTS (SELECT 1 FROM bank.tags t WHERE t.id = p.tag_id)),
		removed AS (
			DELETE FROM bank.question_tags qt WHERE NOT EXISTS (
				SELECT 1 FROM target WHERE target.question_id = qt.question_id AND target.tag_id = qt.tag_id)
			RETURNING qt.question_id),
		added AS (
			INSERT INTO bank.question_tags (question_id, tag_id) SELECT question_id, tag_id FROM target
			ON CONFLICT DO NOTHING RETURNING question_id)
		SELECT question_id, false AS added FROM removed UNION ALL SELECT question_id, true FROM added`, id).
		Scan(&rows).Error
	if err != nil {
		return nil, err
	}
	out := &Restored{}
	seen := map[int64]bool{}
	for _, r := range rows {
		if r.Added {
			out.Added++
		} else {
			out.Removed++
		}
		if !seen[r.QuestionID] {
			seen[r.QuestionID] = true
			out.Questions = append(out.Questions, r.QuestionID)
		}
	}
	return out, nil
}

// TouchQuestions bumps the version of the questions among ids (their
// classification changed) and returns them, for their change events.
func (s *Store) TouchQuestions(ctx context.Context, ids []int64) ([]Question, error) {
	var rows []Question
	err := s.db.Conn(ctx).Raw(`UPDATE bank.questions SET version = version + 1, updated_at = now()
		WHERE id = ANY(?::bigint[]) RETURNING `+questionCols, db.IDArray(ids)).Scan(&rows).Error
	return rows, err
}
