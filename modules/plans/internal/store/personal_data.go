package store

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/platform/module"
)

// EnrolmentExport is a study plan the learner follows.
type EnrolmentExport struct {
	PlanID    int64     `json:"plan_id"`
	Title     string    `json:"title"`
	CreatedAt time.Time `json:"created_at"`
}

// BlockProgressExport is where the learner is in one block.
type BlockProgressExport struct {
	PlanID      int64      `json:"plan_id"`
	BlockID     int64      `json:"block_id"`
	QuizID      int64      `json:"quiz_id"`
	Mode        string     `json:"mode"`
	StartedAt   time.Time  `json:"started_at"`
	CompletedAt *time.Time `json:"completed_at"`
	AttemptID   *int64     `json:"attempt_id"`
}

// ReadingExport is a reading the learner marked read.
type ReadingExport struct {
	LinkID    int64     `json:"link_id"`
	ArticleID int64     `json:"article_id"`
	ReadAt    time.Time `json:"read_at"`
}

// ExamResultExport is the learner's counted result on an exam.
type ExamResultExport struct {
	ExamID      int64     `json:"exam_id"`
	Title       string    `json:"title"`
	AttemptID   int64     `json:"attempt_id"`
	Score       int       `json:"score"`
	Total       int       `json:"total"`
	CompletedAt time.Time `json:"completed_at"`
}

// ExportPersonalData writes the learner's enrolments, block and reading
// progress and exam results.
func (s *Store) ExportPersonalData(ctx context.Context, userID int64, x *module.Export) error {
	conn := s.db.Conn(ctx)
	if err := module.Rows[EnrolmentExport](x, "enrolments", conn.Raw(`
		SELECT e.plan_id, p.title, e.created_at FROM plans.enrolments e JOIN plans.plans p ON p.id = e.plan_id
		 WHERE e.user_id = ? ORDER BY e.created_at, e.plan_id`, userID)); err != nil {
		return err
	}
	if err := module.Rows[BlockProgressExport](x, "block_progress", conn.Raw(`
		SELECT b.plan_id, g.block_id, g.quiz_id, g.mode, g.started_at, g.completed_at, g.attempt_id
		  FROM plans.block_progress g JOIN plans.blocks b ON b.id = g.block_id
		 WHERE g.user_id = ? ORDER BY b.plan_id, b.position`, userID)); err != nil {
		return err
	}
	if err := module.Rows[ReadingExport](x, "reading", conn.Raw(`
		SELECT r.link_id, l.article_id, r.read_at FROM plans.reading_progress r
		  JOIN plans.reading_links l ON l.id = r.link_id WHERE r.user_id = ? ORDER BY r.read_at, r.link_id`,
		userID)); err != nil {
		return err
	}
	return module.Rows[ExamResultExport](x, "exam_results", conn.Raw(`
		SELECT r.exam_id, e.title, r.attempt_id, r.score, r.total, r.completed_at
		  FROM plans.exam_results r JOIN plans.exams e ON e.id = r.exam_id
		 WHERE r.user_id = ? ORDER BY r.completed_at, r.exam_id`, userID))
}

// ForgetUser removes every row the learner owns here (the plans and exams
// themselves belong to the moderators who made them).
func (s *Store) ForgetUser(ctx context.Context, userID int64) error {
	for _, t := range []string{"enrolments", "saved_tests", "block_progress", "reading_progress",
		"exam_sittings", "exam_results"} {
		if err := s.db.Conn(ctx).Exec(`DELETE FROM plans.`+t+` WHERE user_id = ?`, userID).Error; err != nil {
			return err
		}
	}
	return nil
}
