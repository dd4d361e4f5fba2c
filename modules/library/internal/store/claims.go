package store

import (
	"context"

	"github.com/roundsedu/rounds/platform/db"
)

// linkable is the rule of topic claims as SQL: a live question filed in a
// category a published, unbinned article claims links to that article.
const linkable = `SELECT f.question_id, c.article_id FROM library.topic_claims c
	JOIN library.question_filings f ON f.category_id = c.category_id AND f.live
	JOIN library.articles a ON a.id = c.article_id AND a.status = 'published' AND a.deleted_at IS NULL`

// SetClaims makes ids the categories an article claims.
func (s *Store) SetClaims(ctx context.Context, articleID int64, ids []int64) error {
	conn := s.db.Conn(ctx)
	if err := conn.Exec(`DELETE FROM library.topic_claims WHERE article_id = ?`, articleID).Error; err != nil {
		return err
	}
	return conn.Exec(`INSERT INTO library.topic_claims (article_id, category_id)
		SELECT ?, unnest(CAST(? AS bigint[])) ON CONFLICT DO NOTHING`, articleID, db.IDArray(ids)).Error
}

// Claims lists the categories an article claims.
func (s *Store) Claims(ctx context.Context, articleID int64) ([]int64, error) {
	out := []int64{}
	err := s.db.Conn(ctx).Raw(`SELECT category_id FROM library.topic_claims WHERE article_id = ? ORDER BY category_id`,
		articleID).Scan(&out).Error
	return out, err
}

// RelinkArticle applies the rule to one article's links.
func (s *Store) RelinkArticle(ctx context.Context, articleID int64) error {
	conn := s.db.Conn(ctx)
	if err := conn.Exec(`DELETE FROM library.question_links WHERE article_id = ?`, articleID).Error; err != nil {
		return err
	}
	return conn.Exec(`INSERT INTO library.question_links `+linkable+` WHERE c.article_id = ?`, articleID).Error
}

// UpsertFiling records where a question is filed now, unless a newer
// version is already recorded, and applies the rule to its links.
func (s *Store) UpsertFiling(ctx context.Context, questionID int64, categoryID *int64, live bool, version int) error {
	conn := s.db.Conn(ctx)
	if err := conn.Exec(`INSERT INTO library.question_filings (question_id, category_id, live, version) VALUES (?, ?, ?, ?)
		ON CONFLICT (question_id) DO UPDATE SET category_id = EXCLUDED.category_id, live = EXCLUDED.live, version = EXCLUDED.version
		WHERE library.question_filings.version <= EXCLUDED.version`, questionID, categoryID, live, version).Error; err != nil {
		return err
	}
	if err := conn.Exec(`DELETE FROM library.question_links WHERE question_id = ?`, questionID).Error; err != nil {
		return err
	}
	return conn.Exec(`INSERT INTO library.question_links `+linkable+` WHERE f.question_id = ?`, questionID).Error
}

// KnownQuestions pages through the questions the library has a filing for.
func (s *Store) KnownQuestions(ctx context.Context, afterID int64, limit int) ([]int64, error) {
	var out []int64
	err := s.db.Conn(ctx).Raw(`SELECT question_id FROM library.question_filings WHERE question_id > ?
		ORDER BY question_id LIMIT ?`, afterID, limit).Scan(&out).Error
	return out, err
}

// Filing is where the bank says a question is filed.
type Filing struct {
	QuestionID int64
	CategoryID *int64
	Live       bool
}

// CorrectFilings overwrites recorded filings that differ from the bank's
// and counts them.
func (s *Store) CorrectFilings(ctx context.Context, fs []Filing) (int64, error) {
	var n int64
	for _, f := range fs {
		res := s.db.Conn(ctx).Exec(`UPDATE library.question_filings SET category_id = ?, live = ?
			WHERE question_id = ? AND (category_id IS DISTINCT FROM ? OR live <> ?)`,
			f.CategoryID, f.Live, f.QuestionID, f.CategoryID, f.Live)
		if res.Error != nil {
			return n, res.Error
		}
		n += res.RowsAffected
	}
	return n, nil
}

// RelinkAll applies the rule to every link, counting the links added and
// removed.
func (s *Store) RelinkAll(ctx context.Context) (added, removed int64, err error) {
	conn := s.db.Conn(ctx)
	res := conn.Exec(`DELETE FROM library.question_links l WHERE NOT EXISTS (
		SELECT 1 FROM (` + linkable + `) r WHERE r.question_id = l.question_id AND r.article_id = l.article_id)`)
	if res.Error != nil {
		return 0, 0, res.Error
	}
	removed = res.RowsAffected
	res = conn.Exec(`INSERT INTO library.question_links ` + linkable + ` ON CONFLICT DO NOTHING`)
	return res.RowsAffected, removed, res.Error
}

// ReadMore maps questions to the articles they link to.
func (s *Store) ReadMore(ctx context.Context, questionIDs []int64) (map[int64][]Article, error) {
	var rows []struct {
		QuestionID int64
		Article    `gorm:"embedded"`
	}
	err := s.db.Conn(ctx).Raw(`SELECT l.question_id, a.* FROM library.question_links l
		JOIN library.articles a ON a.id = l.article_id
		WHERE l.question_id = ANY(CAST(? AS bigint[])) ORDER BY l.question_id, a.title, a.id`,
		db.IDArray(questionIDs)).Scan(&rows).Error
	out := map[int64][]Article{}
	for _, r := range rows {
		out[r.QuestionID] = append(out[r.QuestionID], r.Article)
	}
	return out, err
}

// ClaimedSection is a section of a published article claiming a question,
// its text cut at the length asked.
type ClaimedSection struct {
	ArticleID    int64
	ArticleTitle string
	Slug         string
	Heading      string
	Text         string
}

// ClaimingSections lists the first sections (in order, at most perArticle,
// each cut at chars characters) of the first articles (by title, at most
// articles) that are published, unbinned and claim the question's topic.
func (s *Store) ClaimingSections(ctx context.Context, questionID int64, articles, perArticle, chars int) ([]ClaimedSection, error) {
	var out []ClaimedSection
	err := s.db.Conn(ctx).Raw(`SELECT a.id AS article_id, a.title AS article_title, a.slug, s.heading, s.text
		FROM (SELECT a.id, a.title, a.slug FROM library.question_links l
			JOIN library.articles a ON a.id = l.article_id AND a.status = 'published' AND a.deleted_at IS NULL
			WHERE l.question_id = @q ORDER BY a.title, a.id LIMIT @articles) a
		CROSS JOIN LATERAL (SELECT heading, left(markdown, @chars) AS text, position FROM library.sections
			WHERE article_id = a.id ORDER BY position LIMIT @per) s
		ORDER BY a.title, a.id, s.position`,
		map[string]any{"q": questionID, "articles": articles, "per": perArticle, "chars": chars}).Scan(&out).Error
	return out, err
}
