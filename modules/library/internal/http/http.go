// Package http is the library's HTTP surface: articles, their revisions,
// slugs and previews, the bin, and the listings.
package http

import (
	"context"
	nethttp "net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/modules/library/internal/app"
	"github.com/roundsedu/rounds/modules/library/internal/store"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

var tags = []string{"articles"}

type articleOut struct{ Body ArticleResponse }

type idIn struct {
	ID int64 `path:"id" minimum:"1"`
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

// Register adds the library's operations. Every path parameter naming an
// article is {id}: the router refuses two names for one position.
func Register(r *httpapi.Router, svc *app.Service) {
	registerReads(r, svc)
	registerWrites(r, svc)
	registerBin(r, svc)
	registerRevisions(r, svc)
	registerAI(r, svc)
	registerGlossary(r, svc)
}

func registerReads(r *httpapi.Router, svc *app.Service) {
	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodGet, Path: "/articles/", Tags: tags,
		Summary: "The published library, or (editable=true) the articles you may edit, drafts included",
	}, func(ctx context.Context, in *struct {
		httpapi.Page
		CategoryID httpapi.OptionalID `query:"category_id" minimum:"1" doc:"articles filed under this question category"`
		Q          string             `query:"q" maxLength:"200" doc:"search: the library through its sections (reranked); the editable list by title"`
		Editable   bool               `query:"editable" default:"false"`
	}) (*httpapi.Listing[ArticleSummary], error) {
		as, total, err := svc.List(ctx, auth.MustFrom(ctx), app.ListQuery{CategoryID: in.CategoryID.Ptr(), Q: in.Q,
			Editable: in.Editable, Limit: in.Limit, Offset: in.Offset})
		if err != nil {
			return nil, err
		}
		return httpapi.ListOf(as, total, toSummary), nil
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodGet, Path: "/articles/link-targets", Tags: tags,
		Summary: "Articles with their sections for the cross-reference picker: published ones and the drafts you may edit (moderators and grant holders)",
		Errors:  []int{nethttp.StatusForbidden},
	}, func(ctx context.Context, in *struct {
		Q     string `query:"q" maxLength:"200" doc:"title contains"`
		Limit int    `query:"limit" default:"8" minimum:"1" maximum:"25"`
	}) (*struct{ Body []ArticleLinkTarget }, error) {
		ts, err := svc.LinkTargets(ctx, auth.MustFrom(ctx), in.Q, in.Limit)
		if err != nil {
			return nil, err
		}
		out := make([]ArticleLinkTarget, len(ts))
		for i := range ts {
			out[i] = ArticleLinkTarget{ID: ts[i].ID, Title: ts[i].Title, Slug: ts[i].Slug, Status: ts[i].Status,
				Sections: make([]ArticleLinkSection, len(ts[i].Sections))}
			for j, s := range ts[i].Sections {
				out[i].Sections[j] = ArticleLinkSection{ID: s.Key, Heading: s.Heading}
			}
		}
		return &struct{ Body []ArticleLinkTarget }{out}, nil
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodGet, Path: "/articles/recent", Tags: tags,
		Summary: "The articles you opened most recently, newest first",
	}, func(ctx context.Context, in *struct {
		Limit int `query:"limit" default:"5" minimum:"1" maximum:"20"`
	}) (*struct{ Body []ArticleSummary }, error) {
		as, err := svc.Recent(ctx, auth.MustFrom(ctx), in.Limit)
		if err != nil {
			return nil, err
		}
		return &struct{ Body []ArticleSummary }{httpapi.ListOf(as, 0, toSummary).Body}, nil
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodGet, Path: "/articles/by-slug/{slug}", Tags: tags,
		Summary: "Open an article by its current or a former slug (the answer carries the current one)",
		Errors:  []int{nethttp.StatusNotFound},
	}, func(ctx context.Context, in *slugIn) (*articleOut, error) {
		return article(svc.BySlug(ctx, auth.MustFrom(ctx), in.Slug))
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodGet, Path: "/articles/preview/{slug}", Tags: tags,
		Summary: "A cross-reference's hover card: title, summary, the first section's opening, category",
		Errors:  []int{nethttp.StatusNotFound},
	}, func(ctx context.Context, in *slugIn) (*struct{ Body ArticlePreview }, error) {
		p, err := svc.Preview(ctx, auth.MustFrom(ctx), in.Slug)
		if err != nil {
			return nil, err
		}
		return &struct{ Body ArticlePreview }{ArticlePreview{ID: p.ID, Slug: p.Slug, Title: p.Title,
			Summary: p.Summary, Lead: p.Lead, CategoryID: p.CategoryID}}, nil
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodGet, Path: "/articles/{id}", Tags: tags,
		Summary: "Open an article (recorded in your recent list)",
		Errors:  []int{nethttp.StatusNotFound},
	}, func(ctx context.Context, in *idIn) (*articleOut, error) {
		return article(svc.Get(ctx, auth.MustFrom(ctx), in.ID))
	})
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

func registerWrites(r *httpapi.Router, svc *app.Service) {
	httpapi.Register(r, auth.Mod, huma.Operation{
		Method: nethttp.MethodPost, Path: "/articles/", Tags: tags, DefaultStatus: nethttp.StatusCreated,
		Summary: "Write a new article (moderators); cross-references are checked and broken ones listed",
		Errors:  []int{nethttp.StatusConflict},
	}, func(ctx context.Context, in *struct{ Body ArticleWrite }) (*articleOut, error) {
		b := in.Body
		return article(svc.Create(ctx, auth.MustFrom(ctx), app.Write{Title: b.Title, Slug: b.Slug, Summary: b.Summary,
			Sections: toSections(b.Sections), References: toReferences(b.References), CategoryID: b.CategoryID,
			Status: b.Status, Claims: b.Claims}))
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodPatch, Path: "/articles/{id}", Tags: tags,
		Summary: "Edit an article (moderators and holders of a covering grant); the article as it was is kept as a revision first",
		Errors:  []int{nethttp.StatusForbidden, nethttp.StatusNotFound, nethttp.StatusConflict},
	}, func(ctx context.Context, in *struct {
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
		}
	}) (*articleOut, error) {
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
		return article(svc.Update(ctx, auth.MustFrom(ctx), in.ID, patch))
	})

	httpapi.Register(r, auth.Mod, huma.Operation{
		Method: nethttp.MethodPut, Path: "/articles/{id}/status", Tags: tags,
		Summary: "Move an article to another status (moderators): draft→review|published, review→draft|published, published→archived, archived→draft|published",
		Errors:  []int{nethttp.StatusNotFound, nethttp.StatusConflict},
	}, func(ctx context.Context, in *struct {
		ID   int64 `path:"id" minimum:"1"`
		Body struct {
			Status string `json:"status" enum:"draft,review,published,archived"`
		}
	}) (*articleOut, error) {
		return article(svc.SetStatus(ctx, auth.MustFrom(ctx), in.ID, in.Body.Status))
	})

	httpapi.Register(r, auth.Mod, huma.Operation{
		Method: nethttp.MethodDelete, Path: "/articles/{id}", Tags: tags,
		Summary: "Delete an article (moderators): one ever published goes to the bin, one never published is removed outright",
		Errors:  []int{nethttp.StatusNotFound, nethttp.StatusConflict},
	}, func(ctx context.Context, in *idIn) (*struct{ Body ArticleDeleted }, error) {
		outcome, err := svc.Delete(ctx, auth.MustFrom(ctx), in.ID)
		if err != nil {
			return nil, err
		}
		return &struct{ Body ArticleDeleted }{ArticleDeleted{ID: in.ID, Outcome: outcome}}, nil
	})
}

// ArticleDeleted says what a delete did.
type ArticleDeleted struct {
	ID      int64  `json:"id"`
	Outcome string `json:"outcome" enum:"binned,removed" doc:"binned: restorable from the bin; removed: gone, nothing to restore"`
}

func registerBin(r *httpapi.Router, svc *app.Service) {
	httpapi.Register(r, auth.Mod, huma.Operation{
		Method: nethttp.MethodGet, Path: "/articles/trash", Tags: tags,
		Summary: "The bin: deleted articles that had been published, most recently binned first (moderators)",
	}, func(ctx context.Context, in *struct{ httpapi.Page }) (*httpapi.Listing[ArticleSummary], error) {
		as, total, err := svc.Trash(ctx, in.Limit, in.Offset)
		if err != nil {
			return nil, err
		}
		return httpapi.ListOf(as, total, toSummary), nil
	})

	httpapi.Register(r, auth.Mod, huma.Operation{
		Method: nethttp.MethodPost, Path: "/articles/{id}/restore", Tags: tags,
		Summary: "Take an article out of the bin in the status it went in with (moderators)",
		Errors:  []int{nethttp.StatusBadRequest, nethttp.StatusNotFound},
	}, func(ctx context.Context, in *idIn) (*articleOut, error) {
		return article(svc.Restore(ctx, auth.MustFrom(ctx), in.ID))
	})

	httpapi.Register(r, auth.Mod, huma.Operation{
		Method: nethttp.MethodDelete, Path: "/articles/trash/{id}", Tags: tags, DefaultStatus: nethttp.StatusNoContent,
		Summary: "Remove a binned article for good (moderators)",
		Errors:  []int{nethttp.StatusBadRequest, nethttp.StatusNotFound},
	}, func(ctx context.Context, in *idIn) (*struct{}, error) {
		return nil, svc.Purge(ctx, in.ID)
	})
}

func registerRevisions(r *httpapi.Router, svc *app.Service) {
	type revisionIn struct {
		ID         int64 `path:"id" minimum:"1"`
		RevisionID int64 `path:"revision_id" minimum:"1"`
	}
	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodGet, Path: "/articles/{id}/revisions", Tags: tags,
		Summary: "An article's revisions, newest first (its editors)",
		Errors:  []int{nethttp.StatusForbidden, nethttp.StatusNotFound},
	}, func(ctx context.Context, in *struct {
		ID int64 `path:"id" minimum:"1"`
		httpapi.Page
	}) (*httpapi.Listing[ArticleRevision], error) {
		rs, total, err := svc.Revisions(ctx, auth.MustFrom(ctx), in.ID, in.Limit, in.Offset)
		if err != nil {
			return nil, err
		}
		return httpapi.ListOf(rs, total, func(r *store.Revision) ArticleRevision { return toRevision(r, false) }), nil
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodGet, Path: "/articles/{id}/revisions/{revision_id}", Tags: tags,
		Summary: "One revision: the article as it was before a change (its editors)",
		Errors:  []int{nethttp.StatusForbidden, nethttp.StatusNotFound},
	}, func(ctx context.Context, in *revisionIn) (*struct{ Body ArticleRevision }, error) {
		rev, err := svc.Revision(ctx, auth.MustFrom(ctx), in.ID, in.RevisionID)
		if err != nil {
			return nil, err
		}
		return &struct{ Body ArticleRevision }{toRevision(rev, true)}, nil
	})

	httpapi.Register(r, auth.Mod, huma.Operation{
		Method: nethttp.MethodPost, Path: "/articles/{id}/revisions/{revision_id}/restore", Tags: tags,
		Summary: "Put a revision's content back (moderators); the current state is kept first as a revision",
		Errors:  []int{nethttp.StatusNotFound, nethttp.StatusConflict},
	}, func(ctx context.Context, in *revisionIn) (*articleOut, error) {
		return article(svc.RestoreRevision(ctx, auth.MustFrom(ctx), in.ID, in.RevisionID))
	})
}
