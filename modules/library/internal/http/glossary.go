package http

import (
	"context"
	nethttp "net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/modules/library/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

// GlossaryTerm is a term on the wire.
type GlossaryTerm struct {
	ID         int64     `json:"id"`
	Term       string    `json:"term"`
	Definition string    `json:"definition"`
	ArticleID  *int64    `json:"article_id"`
	SectionID  *string   `json:"section_id"`
	UpdatedAt  time.Time `json:"updated_at"`
}

func toTerm(t *app.Term) GlossaryTerm {
	return GlossaryTerm{ID: t.ID, Term: t.Term, Definition: t.Definition, ArticleID: t.ArticleID,
		SectionID: t.SectionKey, UpdatedAt: t.UpdatedAt}
}

// GlossaryAnnotation is a term found in a text.
type GlossaryAnnotation struct {
	Start       int     `json:"start" doc:"offset in characters (code points) of the text sent"`
	End         int     `json:"end" doc:"exclusive"`
	Text        string  `json:"text" doc:"as it appears in the text"`
	TermID      int64   `json:"term_id"`
	Term        string  `json:"term"`
	Definition  string  `json:"definition"`
	ArticleSlug *string `json:"article_slug,omitempty" doc:"the explaining article, when readers may open it"`
	SectionID   *string `json:"section_id,omitempty"`
}

type termOut struct{ Body GlossaryTerm }

func term(t *app.Term, err error) (*termOut, error) {
	if err != nil {
		return nil, err
	}
	return &termOut{toTerm(t)}, nil
}

func registerGlossary(r *httpapi.Router, svc *app.Service) {
	tags := []string{"glossary"}
	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodGet, Path: "/glossary/", Tags: tags,
		Summary: "The glossary, alphabetically; q searches terms and definitions",
	}, func(ctx context.Context, in *struct {
		httpapi.Page
		Q string `query:"q" maxLength:"200"`
	}) (*httpapi.Listing[GlossaryTerm], error) {
		ts, total, err := svc.Terms(ctx, in.Q, in.Limit, in.Offset)
		if err != nil {
			return nil, err
		}
		return httpapi.ListOf(ts, total, toTerm), nil
	})

	httpapi.Register(r, auth.Mod, huma.Operation{
		Method: nethttp.MethodPost, Path: "/glossary/", Tags: tags, DefaultStatus: nethttp.StatusCreated,
		Summary: "Add a term (moderators)", Errors: []int{nethttp.StatusConflict},
	}, func(ctx context.Context, in *struct {
		Body struct {
			Term       string  `json:"term" minLength:"1" maxLength:"120"`
			Definition string  `json:"definition" minLength:"1" maxLength:"1000"`
			ArticleID  *int64  `json:"article_id,omitempty" required:"false" nullable:"true" minimum:"1"`
			SectionID  *string `json:"section_id,omitempty" required:"false" nullable:"true" maxLength:"64"`
		}
	}) (*termOut, error) {
		b := in.Body
		return term(svc.CreateTerm(ctx, auth.MustFrom(ctx), app.TermWrite{Term: &b.Term, Definition: &b.Definition,
			LinkSet: true, ArticleID: b.ArticleID, SectionID: b.SectionID}))
	})

	httpapi.Register(r, auth.Mod, huma.Operation{
		Method: nethttp.MethodPatch, Path: "/glossary/{term_id}", Tags: tags,
		Summary: "Edit a term (moderators); article_id null unlinks it",
		Errors:  []int{nethttp.StatusNotFound, nethttp.StatusConflict},
	}, func(ctx context.Context, in *struct {
		ID   int64 `path:"term_id" minimum:"1"`
		Body struct {
			Term       *string                  `json:"term,omitempty" required:"false" minLength:"1" maxLength:"120"`
			Definition *string                  `json:"definition,omitempty" required:"false" minLength:"1" maxLength:"1000"`
			ArticleID  httpapi.Nullable[int64]  `json:"article_id,omitempty" required:"false"`
			SectionID  httpapi.Nullable[string] `json:"section_id,omitempty" required:"false" maxLength:"64"`
		}
	}) (*termOut, error) {
		b := in.Body
		w := app.TermWrite{Term: b.Term, Definition: b.Definition, LinkSet: b.ArticleID.Sent || b.SectionID.Sent}
		if b.ArticleID.Sent && !b.ArticleID.Null {
			w.ArticleID = &b.ArticleID.Value
		}
		if b.SectionID.Sent && !b.SectionID.Null {
			w.SectionID = &b.SectionID.Value
		}
		return term(svc.UpdateTerm(ctx, in.ID, w))
	})

	httpapi.Register(r, auth.Mod, huma.Operation{
		Method: nethttp.MethodDelete, Path: "/glossary/{term_id}", Tags: tags, DefaultStatus: nethttp.StatusNoContent,
		Summary: "Remove a term (moderators)", Errors: []int{nethttp.StatusNotFound},
	}, func(ctx context.Context, in *struct {
		ID int64 `path:"term_id" minimum:"1"`
	}) (*struct{}, error) {
		return nil, svc.DeleteTerm(ctx, in.ID)
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodPost, Path: "/glossary/annotate", Tags: tags,
		Summary: "The glossary's terms found in a text (a question or an article), for hover definitions",
	}, func(ctx context.Context, in *struct {
		Body struct {
			Text string `json:"text" maxLength:"20000"`
		}
	}) (*struct{ Body []GlossaryAnnotation }, error) {
		found, err := svc.Annotate(ctx, in.Body.Text)
		if err != nil {
			return nil, err
		}
		out := make([]GlossaryAnnotation, len(found))
		for i, a := range found {
			out[i] = GlossaryAnnotation{Start: a.Start, End: a.End, Text: a.Text, TermID: a.Term.ID, Term: a.Term.Term,
				Definition: a.Term.Definition}
			if a.ArticleSlug != "" {
				slug := a.ArticleSlug
				out[i].ArticleSlug, out[i].SectionID = &slug, a.Term.SectionKey
			}
		}
		return &struct{ Body []GlossaryAnnotation }{out}, nil
	})
}
