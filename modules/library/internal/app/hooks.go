package app

import "context"

// ArticleSection reports whether article id exists (binned ones included:
// a link to it still names a real article) and whether it has the section
// with the given stable key or numeric id (neither given: false).
func (s *Service) ArticleSection(ctx context.Context, id int64, key string, sectionID *int64) (article, section bool, err error) {
	var found struct{ Article, Section bool }
	err = s.db.Conn(ctx).Raw(`SELECT EXISTS (SELECT 1 FROM library.articles WHERE id = ?) AS article,
		EXISTS (SELECT 1 FROM library.sections WHERE article_id = ? AND (key = ? OR id = ?)) AS section`,
		id, id, key, sectionID).Scan(&found).Error
	return found.Article, found.Section, err
}
