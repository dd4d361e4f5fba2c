// Package store is the plans module's persistence: plans, their blocks and
// reading, enrolments, saved tests and each learner's progress.
package store

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/platform/db"
)

// Plan is a row of plans.plans.
type Plan struct {
	ID          int64 `gorm:"primaryKey"`
	Title       string
	Description string
	Kind        string
	IsPublished int
	RetiredAt   *time.Time
	ExamDate    *time.Time
	CreatedBy   int64
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// TableName places the row in the module's schema.
func (Plan) TableName() string { return "plans.plans" }

// Block is a row of plans.blocks.
type Block struct {
	ID          int64 `gorm:"primaryKey"`
	PlanID      int64
	Position    int
	Title       string
	QuestionIDs db.JSONList[int64] `gorm:"column:question_ids"`
	CreatedAt   time.Time
}

// TableName places the row in the module's schema.
func (Block) TableName() string { return "plans.blocks" }

// ReadingLink is a row of plans.reading_links.
type ReadingLink struct {
	ID        int64 `gorm:"primaryKey"`
	BlockID   int64
	Position  int
	ArticleID int64
	SectionID *string
}

// TableName places the row in the module's schema.
func (ReadingLink) TableName() string { return "plans.reading_links" }

// Progress is a row of plans.block_progress.
type Progress struct {
	BlockID     int64
	UserID      int64
	QuizID      int64
	Mode        string
	StartedAt   time.Time
	CompletedAt *time.Time
	AttemptID   *int64
}

// Store reads and writes the plans schema.
type Store struct{ db *db.DB }

// New makes the store.
func New(d *db.DB) *Store { return &Store{db: d} }

// InsertPlan stores a plan; the database sets id and times.
func (s *Store) InsertPlan(ctx context.Context, p *Plan) error {
	return s.db.Conn(ctx).Omit("id", "created_at", "updated_at", "retired_at").Create(p).Error
}

// Plan loads one plan (db.ErrNotFound when missing); locked when asked.
func (s *Store) Plan(ctx context.Context, id int64, lock bool) (*Plan, error) {
	q := s.db.Conn(ctx)
	if lock {
		q = s.db.Locked(ctx)
	}
	var p Plan
	if err := q.Where("id = ?", id).Take(&p).Error; err != nil {
		return nil, err
	}
	return &p, nil
}

// SetPublished publishes (1) or retires (0) a plan; retiring a published
// plan stamps retired_at, publishing clears it.
func (s *Store) SetPublished(ctx context.Context, p *Plan, published int) error {
	return s.db.Conn(ctx).Raw(`UPDATE plans.plans SET is_published = ?,
		retired_at = CASE WHEN ? = 1 THEN NULL WHEN is_published = 1 THEN now() ELSE retired_at END,
		updated_at = now() WHERE id = ? RETURNING *`, published, published, p.ID).Scan(p).Error
}

// DeletePlan removes a plan with everything under it.
func (s *Store) DeletePlan(ctx context.Context, id int64) error {
	return s.db.Conn(ctx).Exec(`DELETE FROM plans.plans WHERE id = ?`, id).Error
}

// Plans lists plans newest first: every plan, or (learners) the published
// ones and those userID is enrolled in.
func (s *Store) Plans(ctx context.Context, all bool, userID int64, limit, offset int) ([]Plan, int64, error) {
	q := s.db.Conn(ctx).Model(&Plan{})
	if !all {
		q = q.Where(`is_published = 1 OR id IN (SELECT plan_id FROM plans.enrolments WHERE user_id = ?)`, userID)
	}
	var total int64
	if err := q.Count(&total).Error; err != nil {
		return nil, 0, err
	}
	var out []Plan
	err := q.Order("created_at DESC, id DESC").Limit(limit).Offset(offset).Find(&out).Error
	return out, total, err
}

// Enrolled reports whether userID is enrolled in plan id.
func (s *Store) Enrolled(ctx context.Context, planID, userID int64) (bool, error) {
	var n int64
	err := s.db.Conn(ctx).Raw(`SELECT count(*) FROM plans.enrolments WHERE plan_id = ? AND user_id = ?`, planID, userID).Scan(&n).Error
	return n > 0, err
}

// Enrol enrols userID (again: no change).
func (s *Store) Enrol(ctx context.Context, planID, userID int64) error {
	return s.db.Conn(ctx).Exec(`INSERT INTO plans.enrolments (plan_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING`,
		planID, userID).Error
}

// InsertBlock appends a block to its plan with its reading links.
func (s *Store) InsertBlock(ctx context.Context, b *Block, links []ReadingLink) error {
	if err := s.db.Conn(ctx).Raw(`INSERT INTO plans.blocks (plan_id, position, title, question_ids)
		VALUES (?, (SELECT coalesce(max(position), 0) + 1 FROM plans.blocks WHERE plan_id = ?), ?, ?) RETURNING *`,
		b.PlanID, b.PlanID, b.Title, b.QuestionIDs).Scan(b).Error; err != nil {
		return err
	}
	for i := range links {
		links[i].BlockID, links[i].Position = b.ID, i+1
	}
	if len(links) == 0 {
		return nil
	}
	return s.db.Conn(ctx).Omit("id").Create(&links).Error
}

// Blocks lists a plan's blocks in order with their reading links.
func (s *Store) Blocks(ctx context.Context, planID int64) ([]Block, map[int64][]ReadingLink, error) {
	var bs []Block
	if err := s.db.Conn(ctx).Where("plan_id = ?", planID).Order("position").Find(&bs).Error; err != nil {
		return nil, nil, err
	}
	var ls []ReadingLink
	err := s.db.Conn(ctx).Where("block_id IN (SELECT id FROM plans.blocks WHERE plan_id = ?)", planID).
		Order("block_id, position").Find(&ls).Error
	links := map[int64][]ReadingLink{}
	for _, l := range ls {
		links[l.BlockID] = append(links[l.BlockID], l)
	}
	return bs, links, err
}

// Block loads one block (db.ErrNotFound when missing).
func (s *Store) Block(ctx context.Context, id int64) (*Block, error) {
	var b Block
	if err := s.db.Conn(ctx).Where("id = ?", id).Take(&b).Error; err != nil {
		return nil, err
	}
	return &b, nil
}

// Link loads a reading link and the plan it belongs to.
func (s *Store) Link(ctx context.Context, id int64) (*ReadingLink, int64, error) {
	var row struct {
		ReadingLink
		PlanID int64
	}
	err := s.db.Conn(ctx).Raw(`SELECT l.*, b.plan_id FROM plans.reading_links l JOIN plans.blocks b ON b.id = l.block_id
		WHERE l.id = ?`, id).Scan(&row).Error
	if err == nil && row.ID == 0 {
		err = db.ErrNotFound
	}
	return &row.ReadingLink, row.PlanID, err
}

// SetRead marks a link read or unread for userID.
func (s *Store) SetRead(ctx context.Context, linkID, userID int64, read bool) error {
	if read {
		return s.db.Conn(ctx).Exec(`INSERT INTO plans.reading_progress (link_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING`,
			linkID, userID).Error
	}
	return s.db.Conn(ctx).Exec(`DELETE FROM plans.reading_progress WHERE link_id = ? AND user_id = ?`, linkID, userID).Error
}

// SavedTest is the quiz a learner's saved test of a block in a mode is
// (0 when none).
func (s *Store) SavedTest(ctx context.Context, blockID, userID int64, mode string) (int64, error) {
	var ids []int64
	err := s.db.Conn(ctx).Raw(`SELECT quiz_id FROM plans.saved_tests WHERE block_id = ? AND user_id = ? AND mode = ?`,
		blockID, userID, mode).Scan(&ids).Error
	if len(ids) == 0 {
		return 0, err
	}
	return ids[0], err
}

// SaveTest records the saved test and the block's progress row (the quiz
// last started as; a completed block stays completed).
func (s *Store) SaveTest(ctx context.Context, blockID, userID int64, mode string, quizID int64) error {
	if err := s.db.Conn(ctx).Exec(`INSERT INTO plans.saved_tests (block_id, user_id, mode, quiz_id) VALUES (?, ?, ?, ?)
		ON CONFLICT (block_id, user_id, mode) DO UPDATE SET quiz_id = EXCLUDED.quiz_id`, blockID, userID, mode, quizID).Error; err != nil {
		return err
	}
	return s.db.Conn(ctx).Exec(`INSERT INTO plans.block_progress (block_id, user_id, quiz_id, mode) VALUES (?, ?, ?, ?)
		ON CONFLICT (block_id, user_id) DO UPDATE SET quiz_id = EXCLUDED.quiz_id, mode = EXCLUDED.mode, started_at = now()`,
		blockID, userID, quizID, mode).Error
}

// Complete marks done every block whose saved test for userID is quizID and
// is not done yet; a second delivery changes nothing.
func (s *Store) Complete(ctx context.Context, userID, quizID, attemptID int64, at time.Time) error {
	return s.db.Conn(ctx).Exec(`UPDATE plans.block_progress p SET completed_at = ?, attempt_id = ?
		FROM plans.saved_tests t WHERE t.quiz_id = ? AND t.user_id = ? AND p.block_id = t.block_id
		AND p.user_id = t.user_id AND p.completed_at IS NULL`, at, attemptID, quizID, userID).Error
}

// Progress lists userID's progress rows on a plan's blocks.
func (s *Store) Progress(ctx context.Context, planID, userID int64) (map[int64]Progress, error) {
	var rows []Progress
	err := s.db.Conn(ctx).Raw(`SELECT p.* FROM plans.block_progress p JOIN plans.blocks b ON b.id = p.block_id
		WHERE b.plan_id = ? AND p.user_id = ?`, planID, userID).Scan(&rows).Error
	out := make(map[int64]Progress, len(rows))
	for _, r := range rows {
		out[r.BlockID] = r
	}
	return out, err
}

// ReadLinks lists the links of a plan userID has read.
func (s *Store) ReadLinks(ctx context.Context, planID, userID int64) (map[int64]time.Time, error) {
	var rows []struct {
		LinkID int64
		ReadAt time.Time
	}
	err := s.db.Conn(ctx).Raw(`SELECT r.link_id, r.read_at FROM plans.reading_progress r
		JOIN plans.reading_links l ON l.id = r.link_id JOIN plans.blocks b ON b.id = l.block_id
		WHERE b.plan_id = ? AND r.user_id = ?`, planID, userID).Scan(&rows).Error
	out := make(map[int64]time.Time, len(rows))
	for _, r := range rows {
		out[r.LinkID] = r.ReadAt
	}
	return out, err
}

// UpdatePlan writes a plan's title, description and exam date.
func (s *Store) UpdatePlan(ctx context.Context, p *Plan) error {
	return s.db.Conn(ctx).Raw(`UPDATE plans.plans SET title = ?, description = ?, exam_date = ?, updated_at = now()
		WHERE id = ? RETURNING *`, p.Title, p.Description, p.ExamDate, p.ID).Scan(p).Error
}
