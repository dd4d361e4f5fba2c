package http

import (
	"time"

	"github.com/roundsedu/rounds/modules/library/internal/app"
)

// ArticleSectionBody is a section as an author writes it.
type ArticleSectionBody struct {
	ID       string `json:"id,omitempty" required:"false" maxLength:"64" doc:"stable id: send it back to keep the section (and links to it); leave it out for a new section and one is made from the heading"`
	Heading  string `json:"heading" minLength:"1" maxLength:"200"`
	Markdown string `json:"markdown" maxLength:"100000" doc:"markdown; raw HTML is dropped; [[slug]], [[slug#section]] and [[slug#section|label]] link other articles"`
}

// ArticleReference is one entry of the reference list.
type ArticleReference struct {
	Citation string `json:"citation" minLength:"1" maxLength:"1000"`
	URL      string `json:"url,omitempty" required:"false" maxLength:"2000" doc:"http or https"`
}

// ArticleWrite is the body of POST /articles/.
type ArticleWrite struct {
	Title      string               `json:"title" minLength:"1" maxLength:"300"`
	Slug       string               `json:"slug,omitempty" required:"false" maxLength:"120" doc:"leave it out to make one from the title"`
	Summary    string               `json:"summary,omitempty" required:"false" maxLength:"2000"`
	Sections   []ArticleSectionBody `json:"sections,omitempty" required:"false" maxItems:"500" doc:"in reading order"`
	References []ArticleReference   `json:"references,omitempty" required:"false" maxItems:"200"`
	CategoryID *int64               `json:"category_id,omitempty" required:"false" nullable:"true" doc:"a question category; its branch's grant holders may edit the article"`
	Status     string               `json:"status,omitempty" required:"false" enum:"draft,review,published" doc:"default draft"`
	Claims     []int64              `json:"claimed_category_ids,omitempty" required:"false" maxItems:"100" doc:"topic claims: questions filed in these categories link to the article once it is published"`
}

func toSections(in []ArticleSectionBody) []app.Section {
	out := make([]app.Section, len(in))
	for i, s := range in {
		out[i] = app.Section{ID: s.ID, Heading: s.Heading, Markdown: s.Markdown}
	}
	return out
}

func toReferences(in []ArticleReference) []app.Reference {
	out := make([]app.Reference, len(in))
	for i, r := range in {
		out[i] = app.Reference(r)
	}
	return out
}

// ArticleSection is a section with its rendered HTML.
type ArticleSection struct {
	ID       string `json:"id"`
	Heading  string `json:"heading"`
	Markdown string `json:"markdown"`
	HTML     string `json:"html" doc:"rendered on save; safe to insert"`
}

// ArticleLink is a cross-reference found on save.
type ArticleLink struct {
	Section string `json:"section" doc:"id of the section it is in"`
	Target  string `json:"target" doc:"as written: slug or slug#section"`
	Reason  string `json:"reason,omitempty" doc:"why it is broken"`
}

// ArticleResponse is an article on the wire.
type ArticleResponse struct {
	ID            int64              `json:"id"`
	Title         string             `json:"title"`
	Slug          string             `json:"slug"`
	FormerSlugs   []string           `json:"former_slugs" doc:"still resolve through by-slug"`
	Summary       string             `json:"summary"`
	Status        string             `json:"status" enum:"draft,review,published,archived"`
	CategoryID    *int64             `json:"category_id"`
	Sections      []ArticleSection   `json:"sections"`
	References    []ArticleReference `json:"references"`
	Claims        []int64            `json:"claimed_category_ids" doc:"topic claims"`
	CanEdit       bool               `json:"can_edit"`
	EverPublished bool               `json:"ever_published" doc:"a delete bins it (restorable) rather than removing it"`
	Links         []ArticleLink      `json:"links,omitempty" doc:"on writes: cross-references resolved"`
	BrokenLinks   []ArticleLink      `json:"broken_links,omitempty" doc:"on writes: cross-references whose target is missing (kept as written)"`
	CreatedAt     time.Time          `json:"created_at"`
	UpdatedAt     time.Time          `json:"updated_at"`
	DeletedAt     *time.Time         `json:"deleted_at"`
}

func toArticle(a *app.Article) ArticleResponse {
	out := ArticleResponse{ID: a.ID, Title: a.Title, Slug: a.Slug, FormerSlugs: a.SlugHistory, Summary: a.Summary,
		Status: a.Status, CategoryID: a.CategoryID, Sections: make([]ArticleSection, len(a.Sections)),
		References: make([]ArticleReference, len(a.References)), CanEdit: a.CanEdit, EverPublished: a.EverPublished,
		CreatedAt: a.CreatedAt, UpdatedAt: a.UpdatedAt, DeletedAt: a.DeletedAt}
	if out.FormerSlugs == nil {
		out.FormerSlugs = []string{}
	}
	if out.Claims = a.Claims; out.Claims == nil {
		out.Claims = []int64{}
	}
	for i, s := range a.Sections {
		out.Sections[i] = ArticleSection{ID: s.Key, Heading: s.Heading, Markdown: s.Markdown, HTML: s.HTML}
	}
	for i, r := range a.References {
		out.References[i] = ArticleReference(r)
	}
	for _, l := range a.Links {
		out.Links = append(out.Links, ArticleLink{Section: l.Section, Target: l.Target})
	}
	for _, l := range a.Broken {
		out.BrokenLinks = append(out.BrokenLinks, ArticleLink{Section: l.Section, Target: l.Target, Reason: l.Reason})
	}
	return out
}

// ArticleSummary is an article in a listing.
type ArticleSummary struct {
	ID         int64      `json:"id"`
	Title      string     `json:"title"`
	Slug       string     `json:"slug"`
	Summary    string     `json:"summary"`
	Status     string     `json:"status"`
	CategoryID *int64     `json:"category_id"`
	UpdatedAt  time.Time  `json:"updated_at"`
	DeletedAt  *time.Time `json:"deleted_at,omitempty"`
}

func toSummary(a *app.ArticleRow) ArticleSummary {
	return ArticleSummary{ID: a.ID, Title: a.Title, Slug: a.Slug, Summary: a.Summary, Status: a.Status,
		CategoryID: a.CategoryID, UpdatedAt: a.UpdatedAt, DeletedAt: a.DeletedAt}
}

// ArticleRevision is one revision: the article as it was before a change.
type ArticleRevision struct {
	ID         int64                `json:"id"`
	ArticleID  int64                `json:"article_id"`
	Title      string               `json:"title"`
	Summary    string               `json:"summary"`
	Content    string               `json:"content,omitempty" doc:"the sections as one markdown text (one revision only)"`
	Sections   []ArticleSectionBody `json:"sections,omitempty" doc:"one revision only"`
	References []ArticleReference   `json:"references,omitempty" doc:"one revision only"`
	CategoryID *int64               `json:"category_id"`
	Status     string               `json:"status"`
	Note       string               `json:"note"`
	CreatedBy  int64                `json:"created_by"`
	CreatedAt  time.Time            `json:"created_at"`
}

func toSummaries(as []app.ArticleRow) []ArticleSummary {
	out := make([]ArticleSummary, len(as))
	for i := range as {
		out[i] = toSummary(&as[i])
	}
	return out
}

// toRevisionListed is a revision as a listing shows it (without its content).
func toRevisionListed(r *app.Revision) ArticleRevision { return toRevision(r, false) }

func toRevision(r *app.Revision, full bool) ArticleRevision {
	out := ArticleRevision{ID: r.ID, ArticleID: r.ArticleID, Title: r.Title, Summary: r.Summary,
		CategoryID: r.CategoryID, Status: r.Status, Note: r.Note, CreatedBy: r.CreatedBy, CreatedAt: r.CreatedAt}
	if full {
		out.Content = r.Content
		out.Sections = make([]ArticleSectionBody, len(r.Sections))
		for i, s := range r.Sections {
			out.Sections[i] = ArticleSectionBody(s)
		}
		out.References = make([]ArticleReference, len(r.References))
		for i, ref := range r.References {
			out.References[i] = ArticleReference(ref)
		}
	}
	return out
}
