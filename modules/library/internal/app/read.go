package app

import (
	"context"
	"strings"

	"github.com/roundsedu/rounds/modules/library/internal/store"
	"github.com/roundsedu/rounds/modules/search"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
	"github.com/roundsedu/rounds/platform/text"
)

// Limits of the spec.
const (
	RecentMax         = 20
	LinkTargetsMax    = 25
	searchPool        = 60
	previewLeadLength = 280
)

// Get opens an article by id for p and records the open.
func (s *Service) Get(ctx context.Context, p auth.Principal, id int64) (*Article, error) {
	a, err := s.store.Article(ctx, id, db.NoLock)
	return s.open(ctx, p, a, err)
}

// BySlug opens an article by its current or a former slug and records the
// open; the answer carries the current slug.
func (s *Service) BySlug(ctx context.Context, p auth.Principal, slug string) (*Article, error) {
	a, err := s.store.BySlug(ctx, slug)
	return s.open(ctx, p, a, err)
}

func (s *Service) open(ctx context.Context, p auth.Principal, a *store.Article, err error) (*Article, error) {
	a, edit, err := s.readable(ctx, p, a, err)
	if err != nil {
		return nil, err
	}
	out, err := s.withSections(ctx, a, edit)
	if err != nil {
		return nil, err
	}
	if a.DeletedAt == nil {
		err = s.db.Tx(ctx, func(ctx context.Context) error { return s.store.Opened(ctx, p.UserID, a.ID, RecentMax) })
	}
	return out, err
}

// Preview is the hover card of a cross-reference.
type Preview struct {
	ID         int64
	Slug       string
	Title      string
	Summary    string
	Lead       string // the first section's opening, as plain text
	CategoryID *int64
}

// Preview gives the hover card of the article a slug names (not recorded
// as an open).
func (s *Service) Preview(ctx context.Context, p auth.Principal, slug string) (*Preview, error) {
	a, err := s.store.BySlug(ctx, slug)
	if a, _, err = s.readable(ctx, p, a, err); err != nil {
		return nil, err
	}
	secs, err := s.store.Sections(ctx, a.ID)
	if err != nil {
		return nil, err
	}
	out := &Preview{ID: a.ID, Slug: a.Slug, Title: a.Title, Summary: a.Summary, CategoryID: a.CategoryID}
	if len(secs) > 0 {
		out.Lead = text.Clip(plainText(secs[0].HTML), previewLeadLength)
	}
	return out, nil
}

// ListQuery is what GET /articles/ asks.
type ListQuery struct {
	CategoryID *int64
	Q          string
	Editable   bool
	Limit      int
	Offset     int
}

// List is the published library, or with Editable what p may edit,
// drafts included. Q on the library ranks through the search index
// (sections, reranked) and keeps each article at its best section's rank;
// on the editable list, which holds drafts the index does not serve, it
// matches titles.
func (s *Service) List(ctx context.Context, p auth.Principal, in ListQuery) ([]store.Article, int64, error) {
	f := store.Filter{Scope: store.Published, CategoryID: in.CategoryID}
	q := strings.TrimSpace(in.Q)
	if in.Editable {
		f.Scope = store.Editable
		if err := s.reach(ctx, p, &f); err != nil {
			return nil, 0, err
		}
		f.Title = q
	} else if q != "" {
		ids, err := s.searchArticles(ctx, q)
		if err != nil {
			return nil, 0, err
		}
		f.IDs = ids
	}
	return s.store.List(ctx, f, in.Limit, in.Offset)
}

// reach fills f with what p may edit.
func (s *Service) reach(ctx context.Context, p auth.Principal, f *store.Filter) error {
	e, err := s.editorOf(ctx, p)
	if err != nil {
		return err
	}
	f.All, f.Articles = e.mod(), e.articles
	if !f.All {
		f.Categories, err = s.editableCategories(ctx, e)
	}
	return err
}

// searchArticles ranks articles by their sections' hybrid search, best
// first (an empty, non-nil list when nothing matches).
func (s *Service) searchArticles(ctx context.Context, q string) ([]int64, error) {
	hits, err := s.ports.Search.Hybrid(ctx, search.KindArticle, q, searchPool, true)
	if err != nil {
		return nil, err
	}
	secIDs := make([]int64, len(hits))
	for i, h := range hits {
		secIDs[i] = h.ID
	}
	owner, err := s.store.ArticlesOfSections(ctx, secIDs)
	if err != nil {
		return nil, err
	}
	ids, seen := []int64{}, map[int64]bool{}
	for _, id := range secIDs {
		if a, ok := owner[id]; ok && !seen[a] {
			seen[a] = true
			ids = append(ids, a)
		}
	}
	return ids, nil
}

// LinkTarget is an article offered to the cross-reference picker.
type LinkTarget struct {
	store.Article
	Sections []store.Section
}

// LinkTargets offers the cross-reference picker the published articles
// and the drafts p may edit, with their sections; only those who may
// write an article (moderators and grant holders) use it.
func (s *Service) LinkTargets(ctx context.Context, p auth.Principal, q string, limit int) ([]LinkTarget, error) {
	e, err := s.editorOf(ctx, p)
	if err != nil {
		return nil, err
	}
	if !e.mod() && !e.hasGrants() {
		return nil, apperr.Forbiddenf("the cross-reference picker is for those who may write articles")
	}
	f := store.Filter{Scope: store.PublishedOrEditable, Title: strings.TrimSpace(q)}
	if err := s.reach(ctx, p, &f); err != nil {
		return nil, err
	}
	as, _, err := s.store.List(ctx, f, limit, 0)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, len(as))
	for i := range as {
		ids[i] = as[i].ID
	}
	secs, err := s.store.SectionsOf(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]LinkTarget, len(as))
	for i := range as {
		out[i] = LinkTarget{Article: as[i], Sections: secs[as[i].ID]}
	}
	return out, nil
}

// Recent lists the articles p opened most recently that p may still read,
// newest first.
func (s *Service) Recent(ctx context.Context, p auth.Principal, limit int) ([]store.Article, error) {
	as, err := s.store.Recent(ctx, p.UserID)
	if err != nil {
		return nil, err
	}
	e, err := s.editorOf(ctx, p)
	if err != nil {
		return nil, err
	}
	out := make([]store.Article, 0, limit)
	for i := range as {
		if len(out) == limit {
			break
		}
		ok := as[i].Status == StatusPublished
		if !ok {
			if ok, err = s.canEdit(ctx, e, &as[i]); err != nil {
				return nil, err
			}
		}
		if ok {
			out = append(out, as[i])
		}
	}
	return out, nil
}

// PublicCounts offers the landing page the number of published articles.
func (s *Service) PublicCounts(ctx context.Context) (map[string]int64, error) {
	n, err := s.store.PublishedCount(ctx)
	return map[string]int64{"articles": n}, err
}

// FeedbackTitle checks p may read an article being reported and gives its
// title.
func (s *Service) FeedbackTitle(ctx context.Context, p auth.Principal, id int64) (string, error) {
	a, err := s.store.Article(ctx, id, db.NoLock)
	if a, _, err = s.readable(ctx, p, a, err); err != nil {
		return "", err
	}
	return a.Title, nil
}

// ReachableSections tells search which of the sections p may find (their
// article is published, or p may edit it) and which p may edit.
func (s *Service) ReachableSections(ctx context.Context, p auth.Principal, ids []int64) (visible, editable map[int64]bool, err error) {
	owner, err := s.store.ArticlesOfSections(ctx, ids)
	if err != nil {
		return nil, nil, err
	}
	e, err := s.editorOf(ctx, p)
	if err != nil {
		return nil, nil, err
	}
	visible, editable = map[int64]bool{}, map[int64]bool{}
	decided := map[int64][2]bool{}
	for _, sec := range ids {
		aid, ok := owner[sec]
		if !ok {
			continue
		}
		d, seen := decided[aid]
		if !seen {
			a, err := s.store.Article(ctx, aid, db.NoLock)
			if err != nil {
				return nil, nil, err
			}
			edit, err := s.canEdit(ctx, e, a)
			if err != nil {
				return nil, nil, err
			}
			d = [2]bool{a.DeletedAt == nil && (a.Status == StatusPublished || edit), a.DeletedAt == nil && edit}
			decided[aid] = d
		}
		visible[sec], editable[sec] = d[0], d[1]
	}
	return visible, editable, nil
}
