package app

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/gosimple/slug"

	"github.com/roundsedu/rounds/modules/library/internal/store"
	"github.com/roundsedu/rounds/modules/search"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
	"github.com/roundsedu/rounds/platform/events"
)

// Section is a section as an author writes it: ID is its stable key,
// empty for a new section (one is made from the heading).
type Section = store.SectionSnap

// Reference is one entry of an article's reference list.
type Reference = store.Reference

// Write is ArticleWrite: a whole article as POST /articles/ takes it.
type Write struct {
	Title      string
	Slug       string // empty: made from the title
	Summary    string
	Sections   []Section
	References []Reference
	CategoryID *int64
	Status     string // empty: draft
	// Claims are the question categories the article covers: questions
	// filed there link to it once it is published.
	Claims []int64
}

// Patch is an ordinary edit: nil fields stay as they are.
type Patch struct {
	Title, Slug, Summary *string
	Sections             *[]Section
	References           *[]Reference
	CategorySet          bool
	CategoryID           *int64
	Claims               *[]int64
	Note                 string
}

// Article is an article as the service gives it.
type Article struct {
	store.Article
	Sections    []store.Section
	SlugHistory []string
	Claims      []int64
	CanEdit     bool
	// Links and Broken are the cross-references found on the save that
	// produced this answer (empty on reads).
	Links  []Link
	Broken []BrokenLink
}

// Article statuses.
const (
	StatusDraft     = "draft"
	StatusReview    = "review"
	StatusPublished = "published"
	StatusArchived  = "archived"
)

var (
	keyPattern  = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,63}$`)
	slugPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
)

// MaxSlug is the longest slug.
const MaxSlug = 120

// checkText refuses NUL bytes, which Postgres text cannot hold.
func checkText(field, v string) error {
	if strings.IndexByte(v, 0) >= 0 {
		return apperr.Invalidf(field, "%s must not contain NUL bytes", field)
	}
	return nil
}

func (s *Service) checkTitle(t string) (string, error) {
	t = strings.TrimSpace(t)
	if t == "" {
		return "", apperr.Invalidf("title", "title must not be blank")
	}
	return t, checkText("title", t)
}

func checkSlug(v string) error {
	if len(v) > MaxSlug || !slugPattern.MatchString(v) {
		return apperr.Invalidf("slug", "slug must be lower-case letters, digits and single hyphens, at most %d characters", MaxSlug)
	}
	return nil
}

// checkSections validates what an author sent and makes the rows, giving
// new sections a key from their heading unique within the article.
func (s *Service) checkSections(in []Section) ([]store.Section, error) {
	if len(in) > s.cfg.MaxSections {
		return nil, apperr.Invalidf("sections", "an article has at most %d sections", s.cfg.MaxSections)
	}
	taken := map[string]bool{}
	for i, sec := range in {
		if sec.ID == "" {
			continue
		}
		field := fmt.Sprintf("sections[%d].id", i)
		if !keyPattern.MatchString(sec.ID) {
			return nil, apperr.Invalidf(field, "a section id is lower-case letters, digits and hyphens, at most 64")
		}
		if taken[sec.ID] {
			return nil, apperr.Invalidf(field, "section id %q is used twice", sec.ID)
		}
		taken[sec.ID] = true
	}
	out := make([]store.Section, len(in))
	for i, sec := range in {
		heading := strings.TrimSpace(sec.Heading)
		if heading == "" {
			return nil, apperr.Invalidf(fmt.Sprintf("sections[%d].heading", i), "a section needs a heading")
		}
		if err := s.checkMarkdown(fmt.Sprintf("sections[%d].markdown", i), sec.Markdown); err != nil {
			return nil, err
		}
		for f, v := range map[string]string{"heading": heading, "markdown": sec.Markdown} {
			if err := checkText(fmt.Sprintf("sections[%d].%s", i, f), v); err != nil {
				return nil, err
			}
		}
		key := sec.ID
		if key == "" {
			key = uniqueKey(heading, taken)
			taken[key] = true
		}
		out[i] = store.Section{Key: key, Heading: heading, Markdown: sec.Markdown}
	}
	return out, nil
}

// Bounds on markdown structure: the renderer's time grows with the square
// of block-quote depth and of unclosed link openings, so a hostile section
// of a few thousand characters could hold a request for seconds.
const (
	maxQuoteDepth = 8
	maxLinkMarks  = 1000
)

// checkMarkdown bounds a section's markdown before it is rendered.
func (s *Service) checkMarkdown(field, md string) error {
	if len([]rune(md)) > s.cfg.MaxSectionChars {
		return apperr.Invalidf(field, "a section holds at most %d characters", s.cfg.MaxSectionChars)
	}
	if strings.Count(md, "](") > maxLinkMarks || strings.Count(md, "[") > 5*maxLinkMarks {
		return apperr.Invalidf(field, "a section holds at most %d links", maxLinkMarks)
	}
	for _, line := range strings.Split(md, "\n") {
		depth := 0
		for _, r := range line {
			if r == '>' {
				depth++
			} else if r != ' ' && r != '\t' {
				break
			}
		}
		if depth > maxQuoteDepth {
			return apperr.Invalidf(field, "block quotes nest at most %d deep", maxQuoteDepth)
		}
	}
	return nil
}

// uniqueKey makes a section key from a heading: its slug, cut to 48
// characters, with -2, -3... when taken.
func uniqueKey(heading string, taken map[string]bool) string {
	base := strings.Trim(clipBytes(slug.Make(heading), 48), "-")
	if base == "" {
		base = "section"
	}
	key := base
	for n := 2; taken[key]; n++ {
		key = fmt.Sprintf("%s-%d", base, n)
	}
	return key
}

func clipBytes(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

func checkReferences(in []Reference) ([]Reference, error) {
	out := make([]Reference, len(in))
	for i, r := range in {
		r.Citation, r.URL = strings.TrimSpace(r.Citation), strings.TrimSpace(r.URL)
		if r.Citation == "" {
			return nil, apperr.Invalidf(fmt.Sprintf("references[%d].citation", i), "a reference needs a citation")
		}
		if err := checkText(fmt.Sprintf("references[%d].citation", i), r.Citation); err != nil {
			return nil, err
		}
		if r.URL != "" {
			u, err := url.Parse(r.URL)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return nil, apperr.Invalidf(fmt.Sprintf("references[%d].url", i), "a reference url must be an http or https address")
			}
		}
		out[i] = r
	}
	return out, nil
}

func (s *Service) checkCategory(ctx context.Context, id *int64) error {
	if id == nil {
		return nil
	}
	return s.ports.Categories.CheckCategory(ctx, "category_id", *id)
}

// freeSlug checks a slug an author chose is not another article's, now or
// before. Call under LockSlugs.
func (s *Service) freeSlug(ctx context.Context, v string, self int64) error {
	owner, err := s.store.SlugOwner(ctx, v)
	if err != nil {
		return err
	}
	if owner != 0 && owner != self {
		return apperr.Conflictf("slug %q belongs to another article", v)
	}
	return nil
}

// slugFor makes a unique slug from a title. Call under LockSlugs.
func (s *Service) slugFor(ctx context.Context, title string) (string, error) {
	base := strings.Trim(clipBytes(slug.Make(title), MaxSlug-6), "-")
	if base == "" {
		base = "article"
	}
	v := base
	for n := 2; ; n++ {
		owner, err := s.store.SlugOwner(ctx, v)
		if err != nil || owner == 0 {
			return v, err
		}
		v = fmt.Sprintf("%s-%d", base, n)
	}
}

// Create stores a new article (moderators; the route checks the role).
func (s *Service) Create(ctx context.Context, p auth.Principal, w Write) (*Article, error) {
	title, err := s.checkTitle(w.Title)
	if err != nil {
		return nil, err
	}
	if w.Slug != "" {
		if err := checkSlug(w.Slug); err != nil {
			return nil, err
		}
	}
	if err := checkText("summary", w.Summary); err != nil {
		return nil, err
	}
	secs, err := s.checkSections(w.Sections)
	if err != nil {
		return nil, err
	}
	refs, err := checkReferences(w.References)
	if err != nil {
		return nil, err
	}
	if w.Status == "" {
		w.Status = StatusDraft
	}
	if w.Status == StatusArchived {
		return nil, apperr.Invalidf("status", "a new article starts as draft, review or published")
	}
	if err := s.checkCategory(ctx, w.CategoryID); err != nil {
		return nil, err
	}
	if err := s.checkClaims(ctx, w.Claims); err != nil {
		return nil, err
	}
	out := &Article{CanEdit: true, Claims: w.Claims}
	err = s.db.Tx(ctx, func(ctx context.Context) error {
		if err := s.store.LockSlugs(ctx); err != nil {
			return err
		}
		sl := w.Slug
		if sl == "" {
			sl, err = s.slugFor(ctx, title)
		} else {
			err = s.freeSlug(ctx, sl, 0)
		}
		if err != nil {
			return err
		}
		a := &store.Article{Title: title, Slug: sl, Summary: strings.TrimSpace(w.Summary), References: refs,
			CategoryID: w.CategoryID, Status: w.Status, EverPublished: w.Status == StatusPublished, Version: 1,
			CreatedBy: p.UserID, UpdatedBy: p.UserID}
		if err := s.store.Insert(ctx, a); err != nil {
			return err
		}
		out.Article = *a
		if err := s.store.SetClaims(ctx, a.ID, w.Claims); err != nil {
			return err
		}
		return s.writeSections(ctx, out, secs)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// writeSections renders secs (cross-references resolved against the
// library as it is, the article itself included; in a published article
// only against published ones), stores them as the article's sections
// with their figure rows and updates the index.
func (s *Service) writeSections(ctx context.Context, out *Article, secs []store.Section) error {
	targets, err := s.store.Targets(ctx, xrefSlugs(secs))
	if err != nil {
		return err
	}
	self := &store.Target{ArticleID: out.ID, Slug: out.Slug, Title: out.Title, Status: out.Status, Keys: map[string]string{}}
	for _, sec := range secs {
		self.Keys[sec.Key] = sec.Heading
	}
	for k, t := range targets {
		if t.ArticleID == out.ID {
			targets[k] = self
		}
	}
	targets[out.Slug] = self
	if out.Links, out.Broken, err = renderSections(secs, targets, out.Status == StatusPublished); err != nil {
		return err
	}
	removed, err := s.store.ReplaceSections(ctx, out.ID, secs)
	if err != nil {
		return err
	}
	if err := s.reconcileFigures(ctx, out.ID, secs); err != nil {
		return err
	}
	out.Sections = secs
	return s.reindex(ctx, &out.Article, secs, removed)
}

// reindex tells search the article's sections as they are now (removed
// sections are purged) and applies its topic claims to its question links:
// every write of an article ends here.
func (s *Service) reindex(ctx context.Context, a *store.Article, secs []store.Section, removed []int64) error {
	if err := s.store.RelinkArticle(ctx, a.ID); err != nil {
		return err
	}
	now := time.Now().UTC()
	for _, sec := range secs {
		if err := events.Publish(ctx, s.bus, search.TopicIndexChanged, search.IndexChanged{Kind: search.KindArticle, ID: sec.ID,
			Version: a.Version, Live: a.Live(), Title: a.Title + " — " + sec.Heading,
			Body: plainText(sec.HTML), At: now}); err != nil {
			return err
		}
	}
	for _, id := range removed {
		if err := events.Publish(ctx, s.bus, search.TopicIndexChanged, search.IndexChanged{Kind: search.KindArticle, ID: id,
			Version: a.Version, Purged: true, At: now}); err != nil {
			return err
		}
	}
	return nil
}

// snapshot writes the revision that keeps a as it is before a change.
func (s *Service) snapshot(ctx context.Context, a *store.Article, secs []store.Section, by int64, note string) error {
	snaps := make([]store.SectionSnap, len(secs))
	var content strings.Builder
	for i, sec := range secs {
		snaps[i] = store.SectionSnap{ID: sec.Key, Heading: sec.Heading, Markdown: sec.Markdown}
		fmt.Fprintf(&content, "## %s\n\n%s\n\n", sec.Heading, sec.Markdown)
	}
	return s.store.InsertRevision(ctx, &store.Revision{ArticleID: a.ID, Title: a.Title, Summary: a.Summary,
		Content: strings.TrimSpace(content.String()), Sections: snaps, References: a.References,
		CategoryID: a.CategoryID, Status: a.Status, Note: note, CreatedBy: by})
}

// editable loads an article under a row lock for an edit by p: 404 when p
// may not even read it, 403 when p reads but may not edit, 409 while it
// is in the bin.
func (s *Service) editable(ctx context.Context, p auth.Principal, id int64) (*store.Article, *editor, error) {
	a, err := s.store.Article(ctx, id, db.ForUpdate)
	if db.IsNotFound(err) {
		return nil, nil, notFound()
	}
	if err != nil {
		return nil, nil, err
	}
	e, err := s.editorOf(ctx, p)
	if err != nil {
		return nil, nil, err
	}
	ok, err := s.canEdit(ctx, e, a)
	switch {
	case err != nil:
		return nil, nil, err
	case !ok && a.Live():
		return nil, nil, apperr.Forbiddenf("you may read this article but not edit it")
	case !ok || (a.DeletedAt != nil && !p.IsModerator()):
		return nil, nil, notFound()
	case a.DeletedAt != nil:
		return nil, nil, apperr.Conflictf("article %d is in the bin; restore it first", id)
	}
	return a, e, nil
}

// Update is an ordinary edit (can_edit_article). The article as it was is
// kept as a revision first, with the editor's note.
func (s *Service) Update(ctx context.Context, p auth.Principal, id int64, in Patch) (*Article, error) {
	var title string
	var err error
	if in.Title != nil {
		if title, err = s.checkTitle(*in.Title); err != nil {
			return nil, err
		}
	}
	if in.Slug != nil {
		if err := checkSlug(*in.Slug); err != nil {
			return nil, err
		}
	}
	if in.Summary != nil {
		if err := checkText("summary", *in.Summary); err != nil {
			return nil, err
		}
	}
	if err := checkText("note", in.Note); err != nil {
		return nil, err
	}
	var secs []store.Section
	if in.Sections != nil {
		if secs, err = s.checkSections(*in.Sections); err != nil {
			return nil, err
		}
	}
	var refs []Reference
	if in.References != nil {
		if refs, err = checkReferences(*in.References); err != nil {
			return nil, err
		}
	}
	if in.CategorySet {
		if err := s.checkCategory(ctx, in.CategoryID); err != nil {
			return nil, err
		}
	}
	if in.Claims != nil {
		if err := s.checkClaims(ctx, *in.Claims); err != nil {
			return nil, err
		}
	}
	out := &Article{CanEdit: true}
	err = s.db.Tx(ctx, func(ctx context.Context) error {
		a, e, err := s.editable(ctx, p, id)
		if err != nil {
			return err
		}
		if in.CategorySet && !e.mod() {
			// A grant holder files only into their own branches, so an
			// edit never moves an article out of their reach by accident.
			ok := in.CategoryID != nil
			if ok {
				if ok, err = s.inBranches(ctx, e, *in.CategoryID); err != nil {
					return err
				}
			}
			if !ok {
				return apperr.Forbiddenf("you may file articles only under the categories your grants cover")
			}
		}
		cur, err := s.store.Sections(ctx, a.ID)
		if err != nil {
			return err
		}
		if err := s.snapshot(ctx, a, cur, p.UserID, strings.TrimSpace(in.Note)); err != nil {
			return err
		}
		if in.Title != nil {
			a.Title = title
		}
		if in.Summary != nil {
			a.Summary = strings.TrimSpace(*in.Summary)
		}
		if in.References != nil {
			a.References = refs
		}
		if in.CategorySet {
			a.CategoryID = in.CategoryID
		}
		if in.Slug != nil && *in.Slug != a.Slug {
			if err := s.changeSlug(ctx, a, *in.Slug); err != nil {
				return err
			}
		}
		if in.Sections == nil {
			secs = cur // rendered again: targets may have appeared or gone
		}
		a.UpdatedBy = p.UserID
		if err := s.store.Save(ctx, a); err != nil {
			return err
		}
		if in.Claims != nil {
			if err := s.store.SetClaims(ctx, a.ID, *in.Claims); err != nil {
				return err
			}
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

// changeSlug gives a a new slug, keeping the old one resolving.
func (s *Service) changeSlug(ctx context.Context, a *store.Article, next string) error {
	if err := s.store.LockSlugs(ctx); err != nil {
		return err
	}
	if err := s.freeSlug(ctx, next, a.ID); err != nil {
		return err
	}
	if err := s.store.RetireSlug(ctx, a.ID, a.Slug, next); err != nil {
		return err
	}
	a.Slug = next
	return nil
}
