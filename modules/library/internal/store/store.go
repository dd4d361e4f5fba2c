// Package store is the library's persistence: gorm rows of schema
// "library" and the queries the service runs. Nothing here decides who may
// do what.
package store

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/platform/db"
)

// Reference is one entry of an article's reference list.
type Reference struct {
	Citation string `json:"citation"`
	URL      string `json:"url,omitempty"`
}

// SectionSnap is a section as a revision keeps it.
type SectionSnap struct {
	ID       string `json:"id"`
	Heading  string `json:"heading"`
	Markdown string `json:"markdown"`
}

// Article is a row of library.articles.
type Article struct {
	ID            int64 `gorm:"primaryKey"`
	Title         string
	Slug          string
	Summary       string
	References    db.JSONList[Reference] `gorm:"column:references_json"`
	CategoryID    *int64
	Status        string
	EverPublished bool
	Version       int64
	CreatedBy     int64
	UpdatedBy     int64
	CreatedAt     time.Time
	UpdatedAt     time.Time
	DeletedAt     *time.Time
}

// TableName places the row in the module's schema.
func (Article) TableName() string { return "library.articles" }

// Live reports whether readers may find the article.
func (a *Article) Live() bool { return a.Status == "published" && a.DeletedAt == nil }

// Section is a row of library.sections: Key is the stable id authors and
// cross-references use, ID the number the search index uses.
type Section struct {
	ID        int64 `gorm:"primaryKey"`
	ArticleID int64
	Key       string
	Position  int
	Heading   string
	Markdown  string
	HTML      string `gorm:"column:html"`
}

// TableName places the row in the module's schema.
func (Section) TableName() string { return "library.sections" }

// Revision is a row of library.revisions: the article as it was before a
// change.
type Revision struct {
	ID         int64 `gorm:"primaryKey"`
	ArticleID  int64
	Title      string
	Summary    string
	Content    string
	Sections   db.JSONList[SectionSnap]
	References db.JSONList[Reference] `gorm:"column:references_json"`
	CategoryID *int64
	Status     string
	Note       string
	CreatedBy  int64
	CreatedAt  time.Time
}

// TableName places the row in the module's schema.
func (Revision) TableName() string { return "library.revisions" }

// Store reads and writes the library schema.
type Store struct{ db *db.DB }

// New makes the store.
func New(d *db.DB) *Store { return &Store{db: d} }

// Article loads one article (binned ones too); lock guards a write.
func (s *Store) Article(ctx context.Context, id int64, lock db.Lock) (*Article, error) {
	var a Article
	if err := s.db.Locking(ctx, lock).Where("id = ?", id).Take(&a).Error; err != nil {
		return nil, err
	}
	return &a, nil
}

// BySlug finds the article a slug names now or named before (binned ones
// too).
func (s *Store) BySlug(ctx context.Context, slug string) (*Article, error) {
	var a Article
	err := s.db.Conn(ctx).Raw(`SELECT a.* FROM library.articles a WHERE a.slug = ?
		UNION ALL
		SELECT a.* FROM library.articles a JOIN library.slug_history h ON h.article_id = a.id WHERE h.slug = ?
		LIMIT 1`, slug, slug).Scan(&a).Error
	if err == nil && a.ID == 0 {
		err = db.ErrNotFound
	}
	return &a, err
}

// SlugOwner says which article holds slug, current or historical (0: free).
func (s *Store) SlugOwner(ctx context.Context, slug string) (int64, error) {
	var id int64
	err := s.db.Conn(ctx).Raw(`SELECT coalesce((SELECT id FROM library.articles WHERE slug = ?),
		(SELECT article_id FROM library.slug_history WHERE slug = ?), 0)`, slug, slug).Scan(&id).Error
	return id, err
}

// LockSlugs serialises slug changes for the rest of the transaction, so a
// slug is never current for one article and historical for another.
func (s *Store) LockSlugs(ctx context.Context) error {
	return s.db.Conn(ctx).Exec(`SELECT pg_advisory_xact_lock(hashtext('library.slugs'))`).Error
}

// RetireSlug moves an article's old slug into its history; taking back one
// of its own old slugs removes it from there.
func (s *Store) RetireSlug(ctx context.Context, articleID int64, old, next string) error {
	conn := s.db.Conn(ctx)
	if err := conn.Exec(`DELETE FROM library.slug_history WHERE slug = ? AND article_id = ?`, next, articleID).Error; err != nil {
		return err
	}
	return conn.Exec(`INSERT INTO library.slug_history (slug, article_id) VALUES (?, ?)
		ON CONFLICT (slug) DO NOTHING`, old, articleID).Error
}

// SlugHistory lists an article's former slugs, newest first.
func (s *Store) SlugHistory(ctx context.Context, articleID int64) ([]string, error) {
	var out []string
	err := s.db.Conn(ctx).Raw(`SELECT slug FROM library.slug_history WHERE article_id = ?
		ORDER BY retired_at DESC, slug`, articleID).Scan(&out).Error
	return out, err
}

// Insert stores a new article; the database sets id and times.
func (s *Store) Insert(ctx context.Context, a *Article) error {
	return s.db.Conn(ctx).Create(a).Error
}

// Save writes every field of an article and bumps its version.
func (s *Store) Save(ctx context.Context, a *Article) error {
	a.Version++
	return s.db.Conn(ctx).Raw(`UPDATE library.articles SET title = ?, slug = ?, summary = ?, references_json = ?,
		category_id = ?, status = ?, ever_published = ?, version = ?, updated_by = ?, updated_at = now(), deleted_at = ?
		WHERE id = ? RETURNING *`, a.Title, a.Slug, a.Summary, a.References, a.CategoryID, a.Status,
		a.EverPublished, a.Version, a.UpdatedBy, a.DeletedAt, a.ID).Scan(a).Error
}

// Delete removes an article with its sections, revisions and history.
func (s *Store) Delete(ctx context.Context, id int64) error {
	return s.db.Conn(ctx).Exec(`DELETE FROM library.articles WHERE id = ?`, id).Error
}

// Sections lists an article's sections in order.
func (s *Store) Sections(ctx context.Context, articleID int64) ([]Section, error) {
	var out []Section
	err := s.db.Conn(ctx).Where("article_id = ?", articleID).Order("position").Find(&out).Error
	return out, err
}

// SectionsOf lists the sections of many articles, by article, in order.
func (s *Store) SectionsOf(ctx context.Context, articleIDs []int64) (map[int64][]Section, error) {
	var rows []Section
	err := s.db.Conn(ctx).Where("article_id = ANY(CAST(? AS bigint[]))", db.IDArray(articleIDs)).
		Order("article_id, position").Find(&rows).Error
	out := map[int64][]Section{}
	for _, r := range rows {
		out[r.ArticleID] = append(out[r.ArticleID], r)
	}
	return out, err
}

// ReplaceSections makes secs the article's sections: rows with the same key
// are updated in place (keeping their index id), new keys inserted, the
// rest deleted. It fills the ids and returns the ids of deleted rows.
func (s *Store) ReplaceSections(ctx context.Context, articleID int64, secs []Section) (removed []int64, err error) {
	conn := s.db.Conn(ctx)
	keys := make([]string, len(secs))
	for i := range secs {
		keys[i] = secs[i].Key
	}
	if err := conn.Raw(`DELETE FROM library.sections WHERE article_id = ? AND NOT (key = ANY(CAST(? AS text[])))
		RETURNING id`, articleID, textArray(keys)).Scan(&removed).Error; err != nil {
		return nil, err
	}
	for i := range secs {
		sec := &secs[i]
		sec.ArticleID, sec.Position = articleID, i
		if err := conn.Raw(`INSERT INTO library.sections (article_id, key, position, heading, markdown, html)
			VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (article_id, key) DO UPDATE SET position = EXCLUDED.position, heading = EXCLUDED.heading,
				markdown = EXCLUDED.markdown, html = EXCLUDED.html
			RETURNING id`, articleID, sec.Key, i, sec.Heading, sec.Markdown, sec.HTML).Scan(&sec.ID).Error; err != nil {
			return nil, err
		}
	}
	return removed, nil
}

// SectionIDs lists the index ids of an article's sections.
func (s *Store) SectionIDs(ctx context.Context, articleID int64) ([]int64, error) {
	var out []int64
	err := s.db.Conn(ctx).Raw(`SELECT id FROM library.sections WHERE article_id = ? ORDER BY position`, articleID).
		Scan(&out).Error
	return out, err
}

// InsertRevision stores a snapshot.
func (s *Store) InsertRevision(ctx context.Context, r *Revision) error {
	return s.db.Conn(ctx).Create(r).Error
}

// Revisions lists an article's revisions, newest first, with their total.
func (s *Store) Revisions(ctx context.Context, articleID int64, limit, offset int) ([]Revision, int64, error) {
	q := s.db.Conn(ctx).Model(&Revision{}).Where("article_id = ?", articleID)
	var total int64
	if err := q.Count(&total).Error; err != nil {
		return nil, 0, err
	}
	var out []Revision
	err := q.Order("id DESC").Limit(limit).Offset(offset).Find(&out).Error
	return out, total, err
}

// Revision loads one revision of an article.
func (s *Store) Revision(ctx context.Context, articleID, id int64) (*Revision, error) {
	var r Revision
	if err := s.db.Conn(ctx).Where("article_id = ? AND id = ?", articleID, id).Take(&r).Error; err != nil {
		return nil, err
	}
	return &r, nil
}

// Target is what a cross-reference may point at: an article (by its
// current or a former slug) and its section keys.
type Target struct {
	ArticleID int64
	Slug      string // current
	Title     string
	Status    string
	Keys      map[string]string // key -> heading
}

// Targets resolves slugs (current or former) to live, unbinned articles
// with their section keys; unknown slugs are absent.
func (s *Store) Targets(ctx context.Context, slugs []string) (map[string]*Target, error) {
	var rows []struct {
		Asked, Slug, Title, Status, Key, Heading string
		ArticleID                                int64
	}
	err := s.db.Conn(ctx).Raw(`WITH asked AS (SELECT unnest(CAST(? AS text[])) AS slug),
		found AS (
			SELECT asked.slug AS asked, a.id FROM asked JOIN library.articles a ON a.slug = asked.slug
			UNION ALL
			SELECT asked.slug, h.article_id FROM asked JOIN library.slug_history h ON h.slug = asked.slug)
		SELECT f.asked, a.slug, a.title, a.status, a.id AS article_id, coalesce(s.key, '') AS key,
			coalesce(s.heading, '') AS heading
		FROM found f JOIN library.articles a ON a.id = f.id AND a.deleted_at IS NULL
		LEFT JOIN library.sections s ON s.article_id = a.id`, textArray(slugs)).Scan(&rows).Error
	out := map[string]*Target{}
	for _, r := range rows {
		t := out[r.Asked]
		if t == nil {
			t = &Target{ArticleID: r.ArticleID, Slug: r.Slug, Title: r.Title, Status: r.Status, Keys: map[string]string{}}
			out[r.Asked] = t
		}
		if r.Key != "" {
			t.Keys[r.Key] = r.Heading
		}
	}
	return out, err
}

// textArray renders strings as a Postgres text[] literal bound as one
// parameter.
func textArray(ss []string) string {
	b := []byte{'{'}
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		for _, r := range []byte(s) {
			if r == '"' || r == '\\' {
				b = append(b, '\\')
			}
			b = append(b, r)
		}
		b = append(b, '"')
	}
	return string(append(b, '}'))
}
