package store

import (
	"context"
)

// Figure is a row of library.figures: a section showing a stored file.
type Figure struct {
	ArticleID  int64
	SectionKey string
	Path       string
	Ord        int
	Alt        string
}

// TableName places the row in the module's schema.
func (Figure) TableName() string { return "library.figures" }

// ReplaceFigures makes figs the article's figure rows.
func (s *Store) ReplaceFigures(ctx context.Context, articleID int64, figs []Figure) error {
	conn := s.db.Conn(ctx)
	if err := conn.Exec(`DELETE FROM library.figures WHERE article_id = ?`, articleID).Error; err != nil {
		return err
	}
	if len(figs) == 0 {
		return nil
	}
	return conn.Create(&figs).Error
}

// Figures lists an article's figures in the order of its markdown.
func (s *Store) Figures(ctx context.Context, articleID int64) ([]Figure, error) {
	var out []Figure
	err := s.db.Conn(ctx).Where("article_id = ?", articleID).Order("ord").Find(&out).Error
	return out, err
}

// FiguresOf lists where a stored file is shown, by article and order.
func (s *Store) FiguresOf(ctx context.Context, path string) ([]Figure, error) {
	var out []Figure
	err := s.db.Conn(ctx).Where("path = ?", path).Order("article_id, ord").Find(&out).Error
	return out, err
}
