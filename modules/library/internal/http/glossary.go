package http

import (
	"context"
	"time"

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

type termsIn struct {
	httpapi.Page
	Q string `query:"q" maxLength:"200"`
}

func (h *handlers) terms(ctx context.Context, in *termsIn) (*httpapi.Listing[GlossaryTerm], error) {
	ts, total, err := h.svc.Terms(ctx, in.Q, in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	return httpapi.ListOf(ts, total, toTerm), nil
}

type createTermIn struct {
	Body struct {
		Term       string  `json:"term" minLength:"1" maxLength:"120"`
		Definition string  `json:"definition" minLength:"1" maxLength:"1000"`
		ArticleID  *int64  `json:"article_id,omitempty" required:"false" nullable:"true" minimum:"1"`
		SectionID  *string `json:"section_id,omitempty" required:"false" nullable:"true" maxLength:"64"`
	} `nameHint:"Post-glossaryRequest"`
}

func (h *handlers) createTerm(ctx context.Context, in *createTermIn) (*termOut, error) {
	b := in.Body
	return term(h.svc.CreateTerm(ctx, auth.MustFrom(ctx), app.TermWrite{Term: &b.Term, Definition: &b.Definition,
		LinkSet: true, ArticleID: b.ArticleID, SectionID: b.SectionID}))
}

type patchTermIn struct {
	ID   int64 `path:"term_id" minimum:"1"`
	Body struct {
		Term       *string                  `json:"term,omitempty" required:"false" minLength:"1" maxLength:"120"`
		Definition *string                  `json:"definition,omitempty" required:"false" minLength:"1" maxLength:"1000"`
		ArticleID  httpapi.Nullable[int64]  `json:"article_id,omitempty" required:"false"`
		SectionID  httpapi.Nullable[string] `json:"section_id,omitempty" required:"false" maxLength:"64"`
	} `nameHint:"Patch-glossary-by-term-idRequest"`
}

func (h *handlers) patchTerm(ctx context.Context, in *patchTermIn) (*termOut, error) {
	b := in.Body
	w := app.TermWrite{Term: b.Term, Definition: b.Definition, LinkSet: b.ArticleID.Sent || b.SectionID.Sent}
	if b.ArticleID.Sent && !b.ArticleID.Null {
		w.ArticleID = &b.ArticleID.Value
	}
	if b.SectionID.Sent && !b.SectionID.Null {
		w.SectionID = &b.SectionID.Value
	}
	return term(h.svc.UpdateTerm(ctx, in.ID, w))
}

type deleteTermIn struct {
	ID int64 `path:"term_id" minimum:"1"`
}

func (h *handlers) deleteTerm(ctx context.Context, in *deleteTermIn) (*struct{}, error) {
	return nil, h.svc.DeleteTerm(ctx, in.ID)
}

type annotateIn struct {
	Body struct {
		Text string `json:"text" maxLength:"20000"`
	} `nameHint:"Post-glossary-annotateRequest"`
}

type annotateOut struct{ Body []GlossaryAnnotation }

func (h *handlers) annotate(ctx context.Context, in *annotateIn) (*annotateOut, error) {
	found, err := h.svc.Annotate(ctx, in.Body.Text)
	if err != nil {
		return nil, err
	}
	return &annotateOut{toAnnotations(found)}, nil
}

func toAnnotations(found []app.Annotation) []GlossaryAnnotation {
	out := make([]GlossaryAnnotation, len(found))
	for i := range found {
		out[i] = toAnnotation(&found[i])
	}
	return out
}

// toAnnotation links the term's article (and section) only where the
// article can be opened by its slug.
func toAnnotation(a *app.Annotation) GlossaryAnnotation {
	g := GlossaryAnnotation{Start: a.Start, End: a.End, Text: a.Text, TermID: a.Term.ID, Term: a.Term.Term,
		Definition: a.Term.Definition}
	if a.ArticleSlug != "" {
		slug := a.ArticleSlug
		g.ArticleSlug, g.SectionID = &slug, a.Term.SectionKey
	}
	return g
}
