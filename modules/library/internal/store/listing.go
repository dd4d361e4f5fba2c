package store

import (
	"context"

	"gorm.io/gorm/clause"

	"github.com/roundsedu/rounds/platform/db"
)

// Scope is which articles a listing starts from.
type Scope int

// The scopes of a listing.
const (
	// Published: the published library.
	Published Scope = iota
	// Editable: what an editor reaches, drafts included.
	Editable
	// PublishedOrEditable: both (the cross-reference picker).
	PublishedOrEditable
)

// Filter narrows a listing of unbinned articles; zero values do not filter.
type Filter struct {
	Scope Scope
	// The editor's reach: everything (a moderator), or the articles filed
	// in Categories plus Articles.
	All        bool
	Categories []int64
	Articles   []int64
	CategoryID *int64
	// IDs keeps only these articles, in this order (a search's ranking);
	// nil means no such filter.
	IDs []int64
	// Title keeps articles whose title contains it (case-insensitive).
	Title string
}

// List gives a page of the articles a filter selects, with their total:
// in the order of IDs when given, else the most recently updated first.
func (s *Store) List(ctx context.Context, f Filter, limit, offset int) ([]Article, int64, error) {
	q := s.db.Conn(ctx).Model(&Article{}).Where("deleted_at IS NULL")
	reach, args := "TRUE", []any{}
	if !f.All {
		reach = "(category_id = ANY(CAST(? AS bigint[])) OR id = ANY(CAST(? AS bigint[])))"
		args = []any{db.IDArray(f.Categories), db.IDArray(f.Articles)}
	}
	switch f.Scope {
	case Published:
		q = q.Where("status = 'published'")
	case Editable:
		q = q.Where(reach, args...)
	case PublishedOrEditable:
		q = q.Where("(status = 'published' OR "+reach+")", args...)
	}
	if f.CategoryID != nil {
		q = q.Where("category_id = ?", *f.CategoryID)
	}
	if f.IDs != nil {
		q = q.Where("id = ANY(CAST(? AS bigint[]))", db.IDArray(f.IDs))
	}
	if f.Title != "" {
		q = q.Where("title ILIKE ?", "%"+db.LikeEscape(f.Title)+"%")
	}
	var total int64
	if err := q.Count(&total).Error; err != nil {
		return nil, 0, err
	}
	if f.IDs != nil {
		q = q.Order(clause.OrderBy{Expression: clause.Expr{SQL: "array_position(CAST(? AS bigint[]), id)",
			Vars: []any{db.IDArray(f.IDs)}, WithoutParentheses: true}})
	} else {
		q = q.Order("updated_at DESC, id DESC")
	}
	var out []Article
	err := q.Limit(limit).Offset(offset).Find(&out).Error
	return out, total, err
}

// Categories lists the distinct categories unbinned articles are filed
// under (to expand a grant holder's branches against).
func (s *Store) Categories(ctx context.Context) ([]int64, error) {
	var out []int64
	err := s.db.Conn(ctx).Raw(`SELECT DISTINCT category_id FROM library.articles
		WHERE category_id IS NOT NULL AND deleted_at IS NULL`).Scan(&out).Error
	return out, err
}

// ArticlesOfSections maps section index ids to their article ids.
func (s *Store) ArticlesOfSections(ctx context.Context, sectionIDs []int64) (map[int64]int64, error) {
	var rows []struct{ ID, ArticleID int64 }
	err := s.db.Conn(ctx).Raw(`SELECT id, article_id FROM library.sections WHERE id = ANY(CAST(? AS bigint[]))`,
		db.IDArray(sectionIDs)).Scan(&rows).Error
	out := make(map[int64]int64, len(rows))
	for _, r := range rows {
		out[r.ID] = r.ArticleID
	}
	return out, err
}

// Trash lists binned articles, most recently binned first, with the total.
func (s *Store) Trash(ctx context.Context, limit, offset int) ([]Article, int64, error) {
	q := s.db.Conn(ctx).Model(&Article{}).Where("deleted_at IS NOT NULL")
	var total int64
	if err := q.Count(&total).Error; err != nil {
		return nil, 0, err
	}
	var out []Article
	err := q.Order("deleted_at DESC, id DESC").Limit(limit).Offset(offset).Find(&out).Error
	return out, total, err
}

// Opened records that a person opened an article, keeping their newest
// keep entries only.
func (s *Store) Opened(ctx context.Context, userID, articleID int64, keep int) error {
	conn := s.db.Conn(ctx)
	if err := conn.Exec(`INSERT INTO library.recent (user_id, article_id) VALUES (?, ?)
		ON CONFLICT (user_id, article_id) DO UPDATE SET opened_at = now()`, userID, articleID).Error; err != nil {
		return err
	}
	return conn.Exec(`DELETE FROM library.recent WHERE user_id = ? AND article_id NOT IN (
		SELECT article_id FROM library.recent WHERE user_id = ? ORDER BY opened_at DESC, article_id DESC LIMIT ?)`,
		userID, userID, keep).Error
}

// Recent lists the unbinned articles a person opened, newest first.
func (s *Store) Recent(ctx context.Context, userID int64) ([]Article, error) {
	var out []Article
	err := s.db.Conn(ctx).Raw(`SELECT a.* FROM library.recent r JOIN library.articles a ON a.id = r.article_id
		WHERE r.user_id = ? AND a.deleted_at IS NULL ORDER BY r.opened_at DESC, r.article_id DESC`, userID).
		Scan(&out).Error
	return out, err
}

// PublishedCount counts the published, unbinned articles.
func (s *Store) PublishedCount(ctx context.Context) (int64, error) {
	var n int64
	err := s.db.Conn(ctx).Model(&Article{}).Where("status = 'published' AND deleted_at IS NULL").Count(&n).Error
	return n, err
}
