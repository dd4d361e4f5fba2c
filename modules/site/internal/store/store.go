// Package store is the site module's persistence: contact submissions.
package store

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/platform/db"
)

// Submission is a row of site.contact_submissions.
type Submission struct {
	ID        int64 `gorm:"primaryKey"`
	Name      string
	Email     string
	Type      string
	Message   string
	Read      bool
	Client    string
	MailedAt  *time.Time
	CreatedAt time.Time
}

// TableName places the row in the module's schema.
func (Submission) TableName() string { return "site.contact_submissions" }

// Store reads and writes the site schema.
type Store struct{ db *db.DB }

// New makes the store.
func New(d *db.DB) *Store { return &Store{db: d} }

// Insert stores a submission; the database sets its id and created_at.
func (s *Store) Insert(ctx context.Context, sub *Submission) error {
	return s.db.Conn(ctx).Raw(`INSERT INTO site.contact_submissions (name, email, type, message, client)
		VALUES (?, ?, ?, ?, ?) RETURNING *`, sub.Name, sub.Email, sub.Type, sub.Message, sub.Client).Scan(sub).Error
}

// Submission loads one submission (db.ErrNotFound when there is none).
func (s *Store) Submission(ctx context.Context, id int64) (*Submission, error) {
	var sub Submission
	if err := s.db.Conn(ctx).Where("id = ?", id).Take(&sub).Error; err != nil {
		return nil, err
	}
	return &sub, nil
}

// Submissions lists submissions newest first (the unread ones only when
// unread is set) and how many there are in all.
func (s *Store) Submissions(ctx context.Context, unread bool, limit, offset int) ([]Submission, int64, error) {
	q := s.db.Conn(ctx).Model(&Submission{})
	if unread {
		q = q.Where("NOT read")
	}
	var total int64
	if err := q.Count(&total).Error; err != nil {
		return nil, 0, err
	}
	var out []Submission
	err := q.Order("created_at DESC, id DESC").Limit(limit).Offset(offset).Find(&out).Error
	return out, total, err
}

// MarkRead sets a submission read, reporting whether there was one.
func (s *Store) MarkRead(ctx context.Context, id int64) (bool, error) {
	res := s.db.Conn(ctx).Exec(`UPDATE site.contact_submissions SET read = true WHERE id = ?`, id)
	return res.RowsAffected == 1, res.Error
}

// MarkMailed records that a submission was mailed to the admin.
func (s *Store) MarkMailed(ctx context.Context, id int64) error {
	return s.db.Conn(ctx).Exec(`UPDATE site.contact_submissions SET mailed_at = now() WHERE id = ?`, id).Error
}
