package app

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/roundsedu/rounds/modules/library/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
)

// Revision is one saved revision of an article.
type Revision = store.Revision

// ArticleRow is an article's stored row, without its sections.
type ArticleRow = store.Article

// SectionRow is one stored section of an article.
type SectionRow = store.Section

// Moves are the allowed status changes: review is optional on the way to
// publishing, a published article is withdrawn by archiving it, and an
// archived one comes back as a draft or straight to published.
var Moves = map[string][]string{
	StatusDraft:     {StatusReview, StatusPublished},
	StatusReview:    {StatusDraft, StatusPublished},
	StatusPublished: {StatusArchived},
	StatusArchived:  {StatusDraft, StatusPublished},
}

// locked loads an article under a row lock (binned ones too) or 404.
func (s *Service) locked(ctx context.Context, id int64) (*store.Article, error) {
	a, err := s.store.Article(ctx, id, db.ForUpdate)
	if db.IsNotFound(err) {
		return nil, notFound()
	}
	return a, err
}

// withSections finishes an answer: the article's sections and slug
// history as stored.
func (s *Service) withSections(ctx context.Context, a *store.Article, canEdit bool) (*Article, error) {
	secs, err := s.store.Sections(ctx, a.ID)
	if err != nil {
		return nil, err
	}
	hist, err := s.store.SlugHistory(ctx, a.ID)
	if err != nil {
		return nil, err
	}
	claims, err := s.store.Claims(ctx, a.ID)
	if err != nil {
		return nil, err
	}
	return &Article{Article: *a, Sections: secs, SlugHistory: hist, Claims: claims, CanEdit: canEdit}, nil
}

// SetStatus moves an article along Moves (moderators). The article as it
// was is kept as a revision noting the move.
func (s *Service) SetStatus(ctx context.Context, p auth.Principal, id int64, status string) (*Article, error) {
	var out *Article
	err := s.db.Tx(ctx, func(ctx context.Context) error {
		a, err := s.locked(ctx, id)
		if err != nil {
			return err
		}
		if a.DeletedAt != nil {
			return apperr.Conflictf("article %d is in the bin; restore it first", id)
		}
		if !slices.Contains(Moves[a.Status], status) {
			return apperr.Conflictf("a %s article can move to %s, not to %s", a.Status,
				strings.Join(Moves[a.Status], " or "), status)
		}
		secs, err := s.store.Sections(ctx, a.ID)
		if err != nil {
			return err
		}
		if err := s.snapshot(ctx, a, secs, p.UserID, fmt.Sprintf("status %s → %s", a.Status, status)); err != nil {
			return err
		}
		a.Status, a.UpdatedBy = status, p.UserID
		a.EverPublished = a.EverPublished || status == StatusPublished
		if err := s.store.Save(ctx, a); err != nil {
			return err
		}
		// Rendered again for its new readers (a draft's links to other
		// drafts are not a published article's) and reindexed.
		if err := s.writeSections(ctx, &Article{Article: *a}, secs); err != nil {
			return err
		}
		out, err = s.withSections(ctx, a, true)
		return err
	})
	return out, err
}

// Outcomes of a delete.
const (
	OutcomeBinned  = "binned"
	OutcomeRemoved = "removed"
)

// Delete bins an article that was ever published (it can be restored)
// and removes one that never was, outright (moderators).
func (s *Service) Delete(ctx context.Context, p auth.Principal, id int64) (string, error) {
	var outcome string
	err := s.db.Tx(ctx, func(ctx context.Context) error {
		a, err := s.locked(ctx, id)
		if err != nil {
			return err
		}
		if a.DeletedAt != nil {
			return apperr.Conflictf("article %d is already in the bin", id)
		}
		secs, err := s.store.Sections(ctx, a.ID)
		if err != nil {
			return err
		}
		if !a.EverPublished {
			outcome = OutcomeRemoved
			return s.remove(ctx, a, secs)
		}
		outcome = OutcomeBinned
		now := time.Now().UTC()
		a.DeletedAt, a.UpdatedBy = &now, p.UserID
		if err := s.store.Save(ctx, a); err != nil {
			return err
		}
		return s.reindex(ctx, a, secs, nil)
	})
	return outcome, err
}

// remove deletes an article for good and purges its sections from the
// index.
func (s *Service) remove(ctx context.Context, a *store.Article, secs []store.Section) error {
	if err := s.store.Delete(ctx, a.ID); err != nil {
		return err
	}
	ids := make([]int64, len(secs))
	for i, sec := range secs {
		ids[i] = sec.ID
	}
	a.Version++
	return s.reindex(ctx, a, nil, ids)
}

// Restore takes an article out of the bin in the status it went in with
// (moderators).
func (s *Service) Restore(ctx context.Context, p auth.Principal, id int64) (*Article, error) {
	var out *Article
	err := s.db.Tx(ctx, func(ctx context.Context) error {
		a, err := s.locked(ctx, id)
		if err != nil {
			return err
		}
		if a.DeletedAt == nil {
			return apperr.BadRequestf("article %d is not in the bin", id)
		}
		a.DeletedAt, a.UpdatedBy = nil, p.UserID
		if err := s.store.Save(ctx, a); err != nil {
			return err
		}
		if out, err = s.withSections(ctx, a, true); err != nil {
			return err
		}
		return s.reindex(ctx, a, out.Sections, nil)
	})
	return out, err
}

// Purge removes a binned article for good (moderators).
func (s *Service) Purge(ctx context.Context, id int64) error {
	return s.db.Tx(ctx, func(ctx context.Context) error {
		a, err := s.locked(ctx, id)
		if err != nil {
			return err
		}
		if a.DeletedAt == nil {
			return apperr.BadRequestf("article %d is not in the bin; delete it first", id)
		}
		secs, err := s.store.Sections(ctx, a.ID)
		if err != nil {
			return err
		}
		return s.remove(ctx, a, secs)
	})
}

// Trash lists the binned articles (only once-published ones are ever
// binned), most recently binned first.
func (s *Service) Trash(ctx context.Context, limit, offset int) ([]store.Article, int64, error) {
	return s.store.Trash(ctx, limit, offset)
}

// Revisions lists an article's revisions, newest first (its editors).
func (s *Service) Revisions(ctx context.Context, p auth.Principal, id int64, limit, offset int) ([]store.Revision, int64, error) {
	if err := s.mayEdit(ctx, p, id); err != nil {
		return nil, 0, err
	}
	return s.store.Revisions(ctx, id, limit, offset)
}

// Revision is one revision of an article (its editors).
func (s *Service) Revision(ctx context.Context, p auth.Principal, id, revisionID int64) (*store.Revision, error) {
	if err := s.mayEdit(ctx, p, id); err != nil {
		return nil, err
	}
	r, err := s.store.Revision(ctx, id, revisionID)
	if db.IsNotFound(err) {
		return nil, apperr.NotFoundf("article %d has no revision %d", id, revisionID)
	}
	return r, err
}

// mayEdit answers like editable without a lock and lets moderators read
// a binned article's history.
func (s *Service) mayEdit(ctx context.Context, p auth.Principal, id int64) error {
	a, err := s.store.Article(ctx, id, db.NoLock)
	_, edit, err := s.readable(ctx, p, a, err)
	if err != nil {
		return err
	}
	if !edit {
		return apperr.Forbiddenf("only the article's editors read its revisions")
	}
	return nil
}

// RestoreRevision puts a revision's content back (moderators): the current
// state is kept first as a revision noted "before restoring #id", then the
// title, summary, sections, references and category are the revision's;
// the status and slug stay as they are.
func (s *Service) RestoreRevision(ctx context.Context, p auth.Principal, id, revisionID int64) (*Article, error) {
	out := &Article{CanEdit: true}
	err := s.db.Tx(ctx, func(ctx context.Context) error {
		a, err := s.locked(ctx, id)
		if err != nil {
			return err
		}
		if a.DeletedAt != nil {
			return apperr.Conflictf("article %d is in the bin; restore it first", id)
		}
		r, err := s.store.Revision(ctx, id, revisionID)
		if db.IsNotFound(err) {
			return apperr.NotFoundf("article %d has no revision %d", id, revisionID)
		}
		if err != nil {
			return err
		}
		cur, err := s.store.Sections(ctx, a.ID)
		if err != nil {
			return err
		}
		if err := s.snapshot(ctx, a, cur, p.UserID, fmt.Sprintf("before restoring #%d", revisionID)); err != nil {
			return err
		}
		a.Title, a.Summary, a.References, a.CategoryID, a.UpdatedBy = r.Title, r.Summary, r.References, r.CategoryID, p.UserID
		secs := make([]store.Section, len(r.Sections))
		for i, sec := range r.Sections {
			secs[i] = store.Section{Key: sec.ID, Heading: sec.Heading, Markdown: sec.Markdown}
		}
		if err := s.store.Save(ctx, a); err != nil {
			return err
		}
		if out.Claims, err = s.store.Claims(ctx, a.ID); err != nil {
			return err
		}
		out.Article = *a
		return s.writeSections(ctx, out, secs)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
