package store

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/platform/db"
)

// Term is a row of library.glossary_terms.
type Term struct {
	ID         int64 `gorm:"primaryKey"`
	Term       string
	Definition string
	ArticleID  *int64
	SectionKey *string
	CreatedBy  int64
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// TableName places the row in the module's schema.
func (Term) TableName() string { return "library.glossary_terms" }

// InsertTerm stores a term (a unique violation when the term exists in
// any case).
func (s *Store) InsertTerm(ctx context.Context, t *Term) error { return s.db.Conn(ctx).Create(t).Error }

// SaveTerm writes every field of a term.
func (s *Store) SaveTerm(ctx context.Context, t *Term) error {
	t.UpdatedAt = time.Now().UTC()
	return s.db.Conn(ctx).Save(t).Error
}

// Term loads one term.
func (s *Store) Term(ctx context.Context, id int64) (*Term, error) {
	var t Term
	if err := s.db.Conn(ctx).Where("id = ?", id).Take(&t).Error; err != nil {
		return nil, err
	}
	return &t, nil
}

// DeleteTerm removes a term; false when there was none.
func (s *Store) DeleteTerm(ctx context.Context, id int64) (bool, error) {
	res := s.db.Conn(ctx).Exec(`DELETE FROM library.glossary_terms WHERE id = ?`, id)
	return res.RowsAffected > 0, res.Error
}

// Terms lists terms alphabetically, those containing q when given, with
// the total.
func (s *Store) Terms(ctx context.Context, q string, limit, offset int) ([]Term, int64, error) {
	tx := s.db.Conn(ctx).Model(&Term{})
	if q != "" {
		tx = tx.Where("term ILIKE ? OR definition ILIKE ?", "%"+db.LikeEscape(q)+"%", "%"+db.LikeEscape(q)+"%")
	}
	var total int64
	if err := tx.Count(&total).Error; err != nil {
		return nil, 0, err
	}
	var out []Term
	err := tx.Order("lower(term), id").Limit(limit).Offset(offset).Find(&out).Error
	return out, total, err
}

// AllTerms lists every term (annotation scans text for all of them).
func (s *Store) AllTerms(ctx context.Context) ([]Term, error) {
	var out []Term
	err := s.db.Conn(ctx).Order("id").Find(&out).Error
	return out, err
}

// SectionKeyExists reports whether an unbinned article has a section.
func (s *Store) SectionKeyExists(ctx context.Context, articleID int64, key string) (bool, error) {
	var ok bool
	err := s.db.Conn(ctx).Raw(`SELECT EXISTS (SELECT 1 FROM library.sections s JOIN library.articles a ON a.id = s.article_id
		WHERE s.article_id = ? AND s.key = ? AND a.deleted_at IS NULL)`, articleID, key).Scan(&ok).Error
	return ok, err
}

// LiveSlugs maps articles that readers may open to their slugs.
func (s *Store) LiveSlugs(ctx context.Context, ids []int64) (map[int64]string, error) {
	var rows []struct {
		ID   int64
		Slug string
	}
	err := s.db.Conn(ctx).Raw(`SELECT id, slug FROM library.articles WHERE id = ANY(CAST(? AS bigint[]))
		AND status = 'published' AND deleted_at IS NULL`, db.IDArray(ids)).Scan(&rows).Error
	out := make(map[int64]string, len(rows))
	for _, r := range rows {
		out[r.ID] = r.Slug
	}
	return out, err
}
