package http

import (
	"context"

	"github.com/roundsedu/rounds/modules/library/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

type articleOut struct{ Body ArticleResponse }

type idIn struct {
	ID int64 `path:"id" minimum:"1"`
}

type revisionIn struct {
	ID         int64 `path:"id" minimum:"1"`
	RevisionID int64 `path:"revision_id" minimum:"1"`
}

type slugIn struct {
	Slug string `path:"slug" minLength:"1" maxLength:"120"`
}

func article(a *app.Article, err error) (*articleOut, error) {
	if err != nil {
		return nil, err
	}
	return &articleOut{toArticle(a)}, nil
}

type listArticlesIn struct {
	httpapi.Page
	CategoryID httpapi.OptionalID `query:"category_id" minimum:"1" doc:"articles filed under this question category"`
	Q          string             `query:"q" maxLength:"200" doc:"search: the library through its sections (reranked); the editable list by title"`
	Editable   bool               `query:"editable" default:"false"`
}

func (h *handlers) listArticles(ctx context.Context, in *listArticlesIn) (*httpapi.Listing[ArticleSummary], error) {
	as, total, err := h.svc.List(ctx, auth.MustFrom(ctx), app.ListQuery{CategoryID: in.CategoryID.Ptr(), Q: in.Q,
		Editable: in.Editable, Limit: in.Limit, Offset: in.Offset})
	if err != nil {
		return nil, err
	}
	return httpapi.ListOf(as, total, toSummary), nil
}

type linkTargetsIn struct {
	Q     string `query:"q" maxLength:"200" doc:"title contains"`
	Limit int    `query:"limit" default:"8" minimum:"1" maximum:"25"`
}

type linkTargetsOut struct{ Body []ArticleLinkTarget }

func (h *handlers) linkTargets(ctx context.Context, in *linkTargetsIn) (*linkTargetsOut, error) {
	ts, err := h.svc.LinkTargets(ctx, auth.MustFrom(ctx), in.Q, in.Limit)
	if err != nil {
		return nil, err
	}
	return &linkTargetsOut{toLinkTargets(ts)}, nil
}

type recentArticlesIn struct {
	Limit int `query:"limit" default:"5" minimum:"1" maximum:"20"`
}

type recentArticlesOut struct{ Body []ArticleSummary }

func (h *handlers) recentArticles(ctx context.Context, in *recentArticlesIn) (*recentArticlesOut, error) {
	as, err := h.svc.Recent(ctx, auth.MustFrom(ctx), in.Limit)
	if err != nil {
		return nil, err
	}
	return &recentArticlesOut{toSummaries(as)}, nil
}

func (h *handlers) articleBySlug(ctx context.Context, in *slugIn) (*articleOut, error) {
	return article(h.svc.BySlug(ctx, auth.MustFrom(ctx), in.Slug))
}

type previewOut struct{ Body ArticlePreview }

func (h *handlers) preview(ctx context.Context, in *slugIn) (*previewOut, error) {
	p, err := h.svc.Preview(ctx, auth.MustFrom(ctx), in.Slug)
	if err != nil {
		return nil, err
	}
	return &previewOut{toPreview(p)}, nil
}

func (h *handlers) getArticle(ctx context.Context, in *idIn) (*articleOut, error) {
	return article(h.svc.Get(ctx, auth.MustFrom(ctx), in.ID))
}

// ArticleLinkSection is a section offered to the picker.
type ArticleLinkSection struct {
	ID      string `json:"id"`
	Heading string `json:"heading"`
}

// ArticleLinkTarget is an article offered to the picker.
type ArticleLinkTarget struct {
	ID       int64                `json:"id"`
	Title    string               `json:"title"`
	Slug     string               `json:"slug"`
	Status   string               `json:"status"`
	Sections []ArticleLinkSection `json:"sections"`
}

// ArticlePreview is a hover card.
type ArticlePreview struct {
	ID         int64  `json:"id"`
	Slug       string `json:"slug"`
	Title      string `json:"title"`
	Summary    string `json:"summary"`
	Lead       string `json:"lead" doc:"the first section's opening as plain text"`
	CategoryID *int64 `json:"category_id"`
}

type createArticleIn struct{ Body ArticleWrite }

func (h *handlers) createArticle(ctx context.Context, in *createArticleIn) (*articleOut, error) {
	b := in.Body
	return article(h.svc.Create(ctx, auth.MustFrom(ctx), app.Write{Title: b.Title, Slug: b.Slug, Summary: b.Summary,
		Sections: toSections(b.Sections), References: toReferences(b.References), CategoryID: b.CategoryID,
		Status: b.Status, Claims: b.Claims}))
}

type patchArticleIn struct {
	ID   int64 `path:"id" minimum:"1"`
	Body struct {
		Title      *string                 `json:"title,omitempty" required:"false" minLength:"1" maxLength:"300"`
		Slug       *string                 `json:"slug,omitempty" required:"false" maxLength:"120" doc:"the old slug keeps resolving"`
		Summary    *string                 `json:"summary,omitempty" required:"false" maxLength:"2000"`
		Sections   []ArticleSectionBody    `json:"sections,omitempty" required:"false" maxItems:"500" doc:"the whole list, in order"`
		References []ArticleReference      `json:"references,omitempty" required:"false" maxItems:"200"`
		CategoryID httpapi.Nullable[int64] `json:"category_id,omitempty" required:"false" doc:"null: unfiled"`
		Claims     []int64                 `json:"claimed_category_ids,omitempty" required:"false" maxItems:"100" doc:"the whole list of topic claims"`
		Note       string                  `json:"note,omitempty" required:"false" maxLength:"200" doc:"kept on the revision"`
	} `nameHint:"Patch-articles-by-idRequest"`
}

func (h *handlers) patchArticle(ctx context.Context, in *patchArticleIn) (*articleOut, error) {
	b := in.Body
	patch := app.Patch{Title: b.Title, Slug: b.Slug, Summary: b.Summary, Note: b.Note,
		CategorySet: b.CategoryID.Sent}
	if b.Sections != nil {
		secs := toSections(b.Sections)
		patch.Sections = &secs
	}
	if b.Claims != nil {
		patch.Claims = &b.Claims
	}
	if b.References != nil {
		refs := toReferences(b.References)
		patch.References = &refs
	}
	if b.CategoryID.Sent && !b.CategoryID.Null {
		patch.CategoryID = &b.CategoryID.Value
	}
	return article(h.svc.Update(ctx, auth.MustFrom(ctx), in.ID, patch))
}

type setStatusIn struct {
	ID   int64 `path:"id" minimum:"1"`
	Body struct {
		Status string `json:"status" enum:"draft,review,published,archived"`
	} `nameHint:"Put-articles-by-id-statusRequest"`
}

func (h *handlers) setStatus(ctx context.Context, in *setStatusIn) (*articleOut, error) {
	return article(h.svc.SetStatus(ctx, auth.MustFrom(ctx), in.ID, in.Body.Status))
}

type deleteArticleOut struct{ Body ArticleDeleted }

func (h *handlers) deleteArticle(ctx context.Context, in *idIn) (*deleteArticleOut, error) {
	outcome, err := h.svc.Delete(ctx, auth.MustFrom(ctx), in.ID)
	if err != nil {
		return nil, err
	}
	return &deleteArticleOut{ArticleDeleted{ID: in.ID, Outcome: outcome}}, nil
}

// ArticleDeleted says what a delete did.
type ArticleDeleted struct {
	ID      int64  `json:"id"`
	Outcome string `json:"outcome" enum:"binned,removed" doc:"binned: restorable from the bin; removed: gone, nothing to restore"`
}

type trashIn struct{ httpapi.Page }

func (h *handlers) trash(ctx context.Context, in *trashIn) (*httpapi.Listing[ArticleSummary], error) {
	as, total, err := h.svc.Trash(ctx, in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	return httpapi.ListOf(as, total, toSummary), nil
}

func (h *handlers) restoreArticle(ctx context.Context, in *idIn) (*articleOut, error) {
	return article(h.svc.Restore(ctx, auth.MustFrom(ctx), in.ID))
}

func (h *handlers) purgeArticle(ctx context.Context, in *idIn) (*struct{}, error) {
	return nil, h.svc.Purge(ctx, in.ID)
}

type revisionsIn struct {
	ID int64 `path:"id" minimum:"1"`
	httpapi.Page
}

func (h *handlers) revisions(ctx context.Context, in *revisionsIn) (*httpapi.Listing[ArticleRevision], error) {
	rs, total, err := h.svc.Revisions(ctx, auth.MustFrom(ctx), in.ID, in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	return httpapi.ListOf(rs, total, toRevisionListed), nil
}

type revisionOut struct{ Body ArticleRevision }

func (h *handlers) revision(ctx context.Context, in *revisionIn) (*revisionOut, error) {
	rev, err := h.svc.Revision(ctx, auth.MustFrom(ctx), in.ID, in.RevisionID)
	if err != nil {
		return nil, err
	}
	return &revisionOut{toRevision(rev, true)}, nil
}

func (h *handlers) restoreRevision(ctx context.Context, in *revisionIn) (*articleOut, error) {
	return article(h.svc.RestoreRevision(ctx, auth.MustFrom(ctx), in.ID, in.RevisionID))
}

func toLinkTargets(ts []app.LinkTarget) []ArticleLinkTarget {
	out := make([]ArticleLinkTarget, len(ts))
	for i := range ts {
		out[i] = ArticleLinkTarget{ID: ts[i].ID, Title: ts[i].Title, Slug: ts[i].Slug, Status: ts[i].Status,
			Sections: toLinkSections(ts[i].Sections)}
	}
	return out
}

func toLinkSections(ss []app.SectionRow) []ArticleLinkSection {
	out := make([]ArticleLinkSection, len(ss))
	for i, s := range ss {
		out[i] = ArticleLinkSection{ID: s.Key, Heading: s.Heading}
	}
	return out
}

func toPreview(p *app.Preview) ArticlePreview {
	return ArticlePreview{ID: p.ID, Slug: p.Slug, Title: p.Title, Summary: p.Summary, Lead: p.Lead, CategoryID: p.CategoryID}
}
