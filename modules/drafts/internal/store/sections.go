package store

import (
	"context"
	"time"
)

// Section is a row of drafts.sections.
type Section struct {
	ID         int64 `gorm:"primaryKey"`
	DocumentID int64
	Name       string
	StartPage  int
	EndPage    int
	CreatedBy  int64
	CreatedAt  time.Time
}

// TableName places the row in the module's schema.
func (Section) TableName() string { return "drafts.sections" }

// CreateSection inserts a section.
func (s *Store) CreateSection(ctx context.Context, sec *Section) error {
	return s.db.Conn(ctx).Omit("CreatedAt").Create(sec).Error
}

// SectionByID loads a section by its own id.
func (s *Store) SectionByID(ctx context.Context, id int64) (*Section, error) {
	var sec Section
	if err := s.db.Conn(ctx).Take(&sec, id).Error; err != nil {
		return nil, err
	}
	return &sec, nil
}

// Sections lists a document's sections in page order.
func (s *Store) Sections(ctx context.Context, documentID int64) ([]Section, error) {
	var out []Section
	err := s.db.Conn(ctx).Where("document_id = ?", documentID).Order("start_page, id").Find(&out).Error
	return out, err
}

// DeleteSection removes a section; false when it did not exist.
func (s *Store) DeleteSection(ctx context.Context, documentID, id int64) (bool, error) {
	res := s.db.Conn(ctx).Where("document_id = ?", documentID).Delete(&Section{}, id)
	return res.RowsAffected == 1, res.Error
}
