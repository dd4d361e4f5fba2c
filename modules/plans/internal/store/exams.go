package store

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/platform/db"
)

// ExamDomain is a domain of an exam as stored.
type ExamDomain struct {
	Name       string  `json:"name"`
	ArticleIDs []int64 `json:"article_ids"`
	DeckIDs    []int64 `json:"deck_ids"`
}

// Exam is a row of plans.exams.
type Exam struct {
	ID               int64 `gorm:"primaryKey"`
	Title            string
	TimeLimitMinutes int
	QuestionIDs      db.JSONList[int64]      `gorm:"column:question_ids"`
	QuestionDomains  db.JSONList[int]        `gorm:"column:question_domains"`
	Domains          db.JSONList[ExamDomain] `gorm:"column:domains"`
	IsPublished      int
	CreatedBy        int64
	CreatedAt        time.Time
}

// TableName places the row in the module's schema.
func (Exam) TableName() string { return "plans.exams" }

// Result is a row of plans.exam_results.
type Result struct {
	ExamID        int64
	UserID        int64
	AttemptID     int64
	Score         int
	Total         int
	DomainCorrect db.JSONList[int]
	DomainTotal   db.JSONList[int]
	CompletedAt   time.Time
}

// TableName places the row in the module's schema.
func (Result) TableName() string { return "plans.exam_results" }

// InsertExam stores an exam.
func (s *Store) InsertExam(ctx context.Context, e *Exam) error {
	return s.db.Conn(ctx).Omit("id", "created_at").Create(e).Error
}

// Exam loads one exam (db.ErrNotFound when missing).
func (s *Store) Exam(ctx context.Context, id int64) (*Exam, error) {
	var e Exam
	if err := s.db.Conn(ctx).Where("id = ?", id).Take(&e).Error; err != nil {
		return nil, err
	}
	return &e, nil
}

// Sitting is the quiz of userID's saved test of an exam (0 when none).
func (s *Store) Sitting(ctx context.Context, examID, userID int64) (int64, error) {
	var ids []int64
	err := s.db.Conn(ctx).Raw(`SELECT quiz_id FROM plans.exam_sittings WHERE exam_id = ? AND user_id = ?`, examID, userID).Scan(&ids).Error
	if len(ids) == 0 {
		return 0, err
	}
	return ids[0], err
}

// SaveSitting records userID's saved test of an exam.
func (s *Store) SaveSitting(ctx context.Context, examID, userID, quizID int64) error {
	return s.db.Conn(ctx).Exec(`INSERT INTO plans.exam_sittings (exam_id, user_id, quiz_id) VALUES (?, ?, ?)
		ON CONFLICT (exam_id, user_id) DO UPDATE SET quiz_id = EXCLUDED.quiz_id`, examID, userID, quizID).Error
}

// ExamOfQuiz finds the exam whose saved test for userID is quizID (nil
// when the quiz is no exam's).
func (s *Store) ExamOfQuiz(ctx context.Context, quizID, userID int64) (*Exam, error) {
	var es []Exam
	err := s.db.Conn(ctx).Raw(`SELECT e.* FROM plans.exams e JOIN plans.exam_sittings t ON t.exam_id = e.id
		WHERE t.quiz_id = ? AND t.user_id = ?`, quizID, userID).Scan(&es).Error
	if err != nil || len(es) == 0 {
		return nil, err
	}
	return &es[0], nil
}

// InsertResult records a result unless the learner has one already.
func (s *Store) InsertResult(ctx context.Context, r *Result) error {
	return s.db.Conn(ctx).Exec(`INSERT INTO plans.exam_results (exam_id, user_id, attempt_id, score, total,
		domain_correct, domain_total, completed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
		r.ExamID, r.UserID, r.AttemptID, r.Score, r.Total, r.DomainCorrect, r.DomainTotal, r.CompletedAt).Error
}

// Result loads userID's result (db.ErrNotFound when none).
func (s *Store) Result(ctx context.Context, examID, userID int64) (*Result, error) {
	var r Result
	if err := s.db.Conn(ctx).Where("exam_id = ? AND user_id = ?", examID, userID).Take(&r).Error; err != nil {
		return nil, err
	}
	return &r, nil
}

// Standing counts an exam's results below and equal to score, and all.
func (s *Store) Standing(ctx context.Context, examID int64, score int) (below, equal, all int, err error) {
	var row struct{ Below, Equal, N int }
	err = s.db.Conn(ctx).Raw(`SELECT count(*) FILTER (WHERE score < ?) AS below, count(*) FILTER (WHERE score = ?) AS equal,
		count(*) AS n FROM plans.exam_results WHERE exam_id = ?`, score, score, examID).Scan(&row).Error
	return row.Below, row.Equal, row.N, err
}

// Exams lists exams newest first (published ones only unless all) with
// their total.
func (s *Store) Exams(ctx context.Context, all bool, limit, offset int) ([]Exam, int64, error) {
	q := s.db.Conn(ctx).Model(&Exam{})
	if !all {
		q = q.Where("is_published = 1")
	}
	var total int64
	if err := q.Count(&total).Error; err != nil {
		return nil, 0, err
	}
	var out []Exam
	err := q.Order("created_at DESC, id DESC").Limit(limit).Offset(offset).Find(&out).Error
	return out, total, err
}

// SetExamPublished opens an exam to learners (1) or closes it (0); db.ErrNotFound when missing.
func (s *Store) SetExamPublished(ctx context.Context, id int64, published int) (*Exam, error) {
	var out []Exam
	if err := s.db.Conn(ctx).Raw(`UPDATE plans.exams SET is_published = ? WHERE id = ? RETURNING *`, published, id).
		Scan(&out).Error; err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, db.ErrNotFound
	}
	return &out[0], nil
}
