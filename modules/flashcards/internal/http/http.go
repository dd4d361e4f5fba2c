// Package http is the flashcards module's HTTP surface: decks and their
// bin and sharing, cards, card links, deck grants, and studying.
package http

import (
	"context"
	nethttp "net/http"
	"strconv"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/modules/flashcards/internal/app"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

// DeckResponse is a deck on the wire.
type DeckResponse struct {
	ID            int64      `json:"id"`
	Title         string     `json:"title"`
	Description   string     `json:"description"`
	CategoryID    *int64     `json:"category_id"`
	UserID        int64      `json:"user_id" doc:"the owner"`
	IsShared      bool       `json:"is_shared"`
	IgnoreAccents bool       `json:"ignore_accents" doc:"type_in answers match without accents"`
	CardCount     int64      `json:"card_count"`
	DeletedAt     *time.Time `json:"deleted_at"`
	CreatedAt     time.Time  `json:"created_at"`
	UpdatedAt     time.Time  `json:"updated_at"`
}

// DeckDetail adds what the caller may do and their exam date.
type DeckDetail struct {
	DeckResponse
	CanEdit  bool    `json:"can_edit"`
	ExamDate *string `json:"exam_date" doc:"your exam date for this deck (YYYY-MM-DD)"`
}

func toDeck(d *app.Deck) DeckResponse {
	return DeckResponse{ID: d.ID, Title: d.Title, Description: d.Description, CategoryID: d.CategoryID,
		UserID: d.UserID, IsShared: d.IsShared, IgnoreAccents: d.IgnoreAccents, CardCount: d.CardCount,
		DeletedAt: d.DeletedAt, CreatedAt: d.CreatedAt, UpdatedAt: d.UpdatedAt}
}

func toDetail(v *app.DeckView) *deckOut {
	out := &deckOut{Body: DeckDetail{DeckResponse: toDeck(&v.Deck), CanEdit: v.CanEdit}}
	out.Body.ExamDate = date(v.ExamDate)
	return out
}

func date(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := t.Format(time.DateOnly)
	return &s
}

type deckOut struct{ Body DeckDetail }

type deckList struct {
	Total string `header:"X-Total-Count"`
	Body  []DeckResponse
}

func toDeckList(ds []app.Deck, total int64) *deckList {
	out := &deckList{Total: strconv.FormatInt(total, 10), Body: make([]DeckResponse, len(ds))}
	for i := range ds {
		out.Body[i] = toDeck(&ds[i])
	}
	return out
}

// DeckPath names a deck.
type DeckPath struct {
	DeckID int64 `path:"deck_id" minimum:"1"`
}

// deckFields are a deck's editable fields (all optional on update).
type deckFields struct {
	Title         *string `json:"title,omitempty" required:"false" minLength:"1" maxLength:"200"`
	Description   *string `json:"description,omitempty" required:"false" maxLength:"4000"`
	CategoryID    *int64  `json:"category_id,omitempty" required:"false" minimum:"1" doc:"a question category"`
	IgnoreAccents *bool   `json:"ignore_accents,omitempty" required:"false"`
}

func (f deckFields) input() app.DeckInput {
	return app.DeckInput{Title: f.Title, Description: f.Description, CategoryID: f.CategoryID, IgnoreAccents: f.IgnoreAccents}
}

// Register adds the flashcards operations.
func Register(r *httpapi.Router, svc *app.Service) {
	registerDecks(r, svc)
	registerCards(r, svc)
	registerStudy(r, svc)
	registerArticles(r, svc)
	chartRoutes(r, svc)
}

func registerDecks(r *httpapi.Router, svc *app.Service) {
	tags := []string{"flashcards"}
	httpapi.Register(r, auth.Mod, huma.Operation{
		Method: nethttp.MethodPost, Path: "/flashcards/manual", Tags: tags, DefaultStatus: nethttp.StatusCreated,
		Summary: "Make a deck by hand (moderators): title and category required; it starts unshared and you own it",
	}, func(ctx context.Context, in *struct {
		Body struct {
			Title         string `json:"title" minLength:"1" maxLength:"200"`
			Description   string `json:"description,omitempty" required:"false" maxLength:"4000"`
			CategoryID    int64  `json:"category_id" minimum:"1" doc:"a question category"`
			IgnoreAccents bool   `json:"ignore_accents,omitempty" required:"false"`
		}
	}) (*deckOut, error) {
		b := in.Body
		v, err := svc.CreateManual(ctx, auth.MustFrom(ctx), app.DeckInput{Title: &b.Title, Description: &b.Description,
			CategoryID: &b.CategoryID, IgnoreAccents: &b.IgnoreAccents})
		if err != nil {
			return nil, err
		}
		return toDetail(v), nil
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodGet, Path: "/flashcards", Tags: tags,
		Summary: "Decks you may study: shared ones, your own and those your grants reach (moderators: all), newest first",
	}, func(ctx context.Context, in *struct {
		httpapi.Page
		CategoryID int64 `query:"category_id" minimum:"0" doc:"only decks filed in this category"`
	}) (*deckList, error) {
		ds, total, err := svc.List(ctx, auth.MustFrom(ctx), in.CategoryID, in.Limit, in.Offset)
		if err != nil {
			return nil, err
		}
		return toDeckList(ds, total), nil
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodGet, Path: "/flashcards/trash", Tags: tags,
		Summary: "Binned decks: moderators get them all, everyone else an empty list",
	}, func(ctx context.Context, in *struct{ httpapi.Page }) (*deckList, error) {
		ds, total, err := svc.Trash(ctx, auth.MustFrom(ctx), in.Limit, in.Offset)
		if err != nil {
			return nil, err
		}
		return toDeckList(ds, total), nil
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodGet, Path: "/flashcards/{deck_id}", Tags: tags,
		Summary: "A deck you may study, with its card count, whether you may edit it and your exam date",
		Errors:  []int{nethttp.StatusNotFound},
	}, func(ctx context.Context, in *DeckPath) (*deckOut, error) {
		v, err := svc.Get(ctx, auth.MustFrom(ctx), in.DeckID)
		if err != nil {
			return nil, err
		}
		return toDetail(v), nil
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodPatch, Path: "/flashcards/{deck_id}", Tags: tags,
		Summary: "Change a deck's title, description, category or accent rule (moderator, owner or grant holder)",
		Errors:  []int{nethttp.StatusForbidden, nethttp.StatusNotFound},
	}, func(ctx context.Context, in *struct {
		DeckPath
		Body deckFields
	}) (*deckOut, error) {
		v, err := svc.Update(ctx, auth.MustFrom(ctx), in.DeckID, in.Body.input())
		if err != nil {
			return nil, err
		}
		return toDetail(v), nil
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodDelete, Path: "/flashcards/{deck_id}", Tags: tags, DefaultStatus: nethttp.StatusNoContent,
		Summary: "Bin a deck (can_edit_deck), or with permanent=true remove it for good (moderator or owner)",
		Errors:  []int{nethttp.StatusForbidden, nethttp.StatusNotFound, nethttp.StatusConflict},
	}, func(ctx context.Context, in *struct {
		DeckPath
		Permanent bool `query:"permanent" doc:"remove for good, with every card and schedule"`
	}) (*struct{}, error) {
		return nil, svc.Delete(ctx, auth.MustFrom(ctx), in.DeckID, in.Permanent)
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodPost, Path: "/flashcards/{deck_id}/restore", Tags: tags,
		Summary: "Take a deck out of the bin (can_edit_deck)",
		Errors:  []int{nethttp.StatusForbidden, nethttp.StatusNotFound, nethttp.StatusConflict},
	}, func(ctx context.Context, in *DeckPath) (*deckOut, error) {
		v, err := svc.Restore(ctx, auth.MustFrom(ctx), in.DeckID)
		if err != nil {
			return nil, err
		}
		return toDetail(v), nil
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodPut, Path: "/flashcards/{deck_id}/share", Tags: tags,
		Summary: "Share a deck site-wide (can_edit_deck)",
		Errors:  []int{nethttp.StatusForbidden, nethttp.StatusNotFound},
	}, func(ctx context.Context, in *DeckPath) (*deckOut, error) {
		v, err := svc.Share(ctx, auth.MustFrom(ctx), in.DeckID)
		if err != nil {
			return nil, err
		}
		return toDetail(v), nil
	})

	httpapi.Register(r, auth.Admin, huma.Operation{
		Method: nethttp.MethodDelete, Path: "/flashcards/{deck_id}/share", Tags: tags,
		Summary: "Force-unshare a deck (admins)",
		Errors:  []int{nethttp.StatusNotFound},
	}, func(ctx context.Context, in *DeckPath) (*deckOut, error) {
		v, err := svc.ForceUnshare(ctx, auth.MustFrom(ctx), in.DeckID)
		if err != nil {
			return nil, err
		}
		return toDetail(v), nil
	})

	httpapi.Register(r, auth.Mod, huma.Operation{
		Method: nethttp.MethodGet, Path: "/flashcards/grants", Tags: tags,
		Summary: "A person's deck grants and the live decks each reaches now (moderators)",
		Errors:  []int{nethttp.StatusNotFound},
	}, func(ctx context.Context, in *struct {
		UserID int64 `query:"user_id" required:"true" minimum:"1"`
	}) (*struct{ Body []DeckGrantResponse }, error) {
		gs, err := svc.Grants(ctx, in.UserID)
		if err != nil {
			return nil, err
		}
		out := make([]DeckGrantResponse, len(gs))
		for i := range gs {
			out[i] = toDeckGrant(&gs[i])
		}
		return &struct{ Body []DeckGrantResponse }{out}, nil
	})

	httpapi.Register(r, auth.Mod, huma.Operation{
		Method: nethttp.MethodPost, Path: "/flashcards/grants", Tags: tags, DefaultStatus: nethttp.StatusCreated,
		Summary: "Give a learner a deck grant: one deck, or a category branch of decks (moderators; edit, never delete)",
		Description: "The same grant as POST /access/{user_id}/grants with kind deck: never to yourself, only to " +
			"learners; the deck or category must exist. The answer lists the live decks it reaches now.",
		Errors: []int{nethttp.StatusBadRequest, nethttp.StatusNotFound, nethttp.StatusConflict},
	}, func(ctx context.Context, in *struct {
		Body struct {
			UserID   int64  `json:"user_id" minimum:"1"`
			Scope    string `json:"scope" enum:"deck,category"`
			TargetID int64  `json:"target_id" minimum:"1" doc:"the deck, or the category at the top of the branch"`
		}
	}) (*struct{ Body DeckGrantResponse }, error) {
		g, err := svc.GiveGrant(ctx, auth.MustFrom(ctx), in.Body.UserID, in.Body.Scope, in.Body.TargetID)
		if err != nil {
			return nil, err
		}
		return &struct{ Body DeckGrantResponse }{toDeckGrant(g)}, nil
	})

	httpapi.Register(r, auth.Mod, huma.Operation{
		Method: nethttp.MethodDelete, Path: "/flashcards/grants/{grant_id}", Tags: tags, DefaultStatus: nethttp.StatusNoContent,
		Summary: "Revoke a person's deck grant (moderators)",
		Errors:  []int{nethttp.StatusNotFound},
	}, func(ctx context.Context, in *struct {
		GrantID int64 `path:"grant_id" minimum:"1"`
		UserID  int64 `query:"user_id" required:"true" minimum:"1"`
	}) (*struct{}, error) {
		return nil, svc.RevokeGrant(ctx, in.UserID, in.GrantID)
	})
}

func toDeckGrant(g *app.DeckGrant) DeckGrantResponse {
	return DeckGrantResponse{ID: g.ID, UserID: g.UserID, Scope: g.Scope, TargetID: g.TargetID,
		GrantedBy: g.GrantedBy, CreatedAt: g.CreatedAt, DeckIDs: g.DeckIDs}
}

// DeckGrantResponse is a deck grant with what it reaches now.
type DeckGrantResponse struct {
	ID        int64     `json:"id"`
	UserID    int64     `json:"user_id"`
	Scope     string    `json:"scope" enum:"deck,category"`
	TargetID  int64     `json:"target_id" doc:"the deck, or the category at the top of the branch"`
	GrantedBy int64     `json:"granted_by"`
	CreatedAt time.Time `json:"created_at"`
	DeckIDs   []int64   `json:"deck_ids" doc:"live decks the grant reaches against the tree now"`
}

func parseDate(field, s string) (*time.Time, error) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return nil, apperr.Invalidf(field, "%q is not a date (YYYY-MM-DD)", s)
	}
	return &t, nil
}
