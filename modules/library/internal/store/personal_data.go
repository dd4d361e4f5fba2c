package store

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/platform/module"
)

// RecentExport is an article the person opened.
type RecentExport struct {
	ArticleID int64     `json:"article_id"`
	Title     string    `json:"title"`
	OpenedAt  time.Time `json:"opened_at"`
}

// ExportPersonalData writes the articles the person opened (articles they
// wrote as an editor are the library's, not theirs).
func (s *Store) ExportPersonalData(ctx context.Context, userID int64, x *module.Export) error {
	return module.Rows[RecentExport](x, "recent", s.db.Conn(ctx).Raw(`
		SELECT r.article_id, a.title, r.opened_at FROM library.recent r JOIN library.articles a ON a.id = r.article_id
		 WHERE r.user_id = ? ORDER BY r.opened_at DESC, r.article_id`, userID))
}

// ForgetUser removes the person's reading history.
func (s *Store) ForgetUser(ctx context.Context, userID int64) error {
	return s.db.Conn(ctx).Exec(`DELETE FROM library.recent WHERE user_id = ?`, userID).Error
}
