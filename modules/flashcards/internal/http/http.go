// Package http is the flashcards module's HTTP surface: decks and their
// bin and sharing, cards, card links, deck grants, and studying.
package http

import (
	"context"
	"strconv"
	"time"

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
	return &deckList{Total: strconv.FormatInt(total, 10), Body: toDecks(ds)}
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

// ManualDeckInput makes a deck by hand.
type ManualDeckInput struct {
	Body struct {
		Title         string `json:"title" minLength:"1" maxLength:"200"`
		Description   string `json:"description,omitempty" required:"false" maxLength:"4000"`
		CategoryID    int64  `json:"category_id" minimum:"1" doc:"a question category"`
		IgnoreAccents bool   `json:"ignore_accents,omitempty" required:"false"`
	} `nameHint:"Post-flashcards-manualRequest"`
}

// ListDecksInput pages the decks, optionally of one category.
type ListDecksInput struct {
	httpapi.Page
	CategoryID int64 `query:"category_id" minimum:"0" doc:"only decks filed in this category"`
}

// PatchDeckInput changes a deck's fields.
type PatchDeckInput struct {
	DeckPath
	Body deckFields
}

// DeleteDeckInput bins a deck or removes it for good.
type DeleteDeckInput struct {
	DeckPath
	Permanent bool `query:"permanent" doc:"remove for good, with every card and schedule"`
}

// GrantsInput names the person whose deck grants to read.
type GrantsInput struct {
	UserID int64 `query:"user_id" required:"true" minimum:"1"`
}

// GiveGrantInput gives a deck grant.
type GiveGrantInput struct {
	Body struct {
		UserID   int64  `json:"user_id" minimum:"1"`
		Scope    string `json:"scope" enum:"deck,category"`
		TargetID int64  `json:"target_id" minimum:"1" doc:"the deck, or the category at the top of the branch"`
	} `nameHint:"Post-flashcards-grantsRequest"`
}

// RevokeGrantInput names a person's deck grant.
type RevokeGrantInput struct {
	GrantID int64 `path:"grant_id" minimum:"1"`
	UserID  int64 `query:"user_id" required:"true" minimum:"1"`
}

type deckGrantsOut struct{ Body []DeckGrantResponse }

type deckGrantOut struct{ Body DeckGrantResponse }

func toDeckGrants(gs []app.DeckGrant) []DeckGrantResponse {
	out := make([]DeckGrantResponse, len(gs))
	for i := range gs {
		out[i] = toDeckGrant(&gs[i])
	}
	return out
}

func toDecks(ds []app.Deck) []DeckResponse {
	out := make([]DeckResponse, len(ds))
	for i := range ds {
		out[i] = toDeck(&ds[i])
	}
	return out
}

// detailOf answers a service call that returns the deck as the caller sees it.
func detailOf(v *app.DeckView, err error) (*deckOut, error) {
	if err != nil {
		return nil, err
	}
	return toDetail(v), nil
}

func listOf(ds []app.Deck, total int64, err error) (*deckList, error) {
	if err != nil {
		return nil, err
	}
	return toDeckList(ds, total), nil
}

func (h *handlers) createManual(ctx context.Context, in *ManualDeckInput) (*deckOut, error) {
	b := in.Body
	return detailOf(h.svc.CreateManual(ctx, auth.MustFrom(ctx), app.DeckInput{Title: &b.Title, Description: &b.Description,
		CategoryID: &b.CategoryID, IgnoreAccents: &b.IgnoreAccents}))
}

func (h *handlers) listDecks(ctx context.Context, in *ListDecksInput) (*deckList, error) {
	return listOf(h.svc.List(ctx, auth.MustFrom(ctx), in.CategoryID, in.Limit, in.Offset))
}

func (h *handlers) trash(ctx context.Context, in *httpapi.Page) (*deckList, error) {
	return listOf(h.svc.Trash(ctx, auth.MustFrom(ctx), in.Limit, in.Offset))
}

func (h *handlers) getDeck(ctx context.Context, in *DeckPath) (*deckOut, error) {
	return detailOf(h.svc.Get(ctx, auth.MustFrom(ctx), in.DeckID))
}

func (h *handlers) patchDeck(ctx context.Context, in *PatchDeckInput) (*deckOut, error) {
	return detailOf(h.svc.Update(ctx, auth.MustFrom(ctx), in.DeckID, in.Body.input()))
}

func (h *handlers) deleteDeck(ctx context.Context, in *DeleteDeckInput) (*struct{}, error) {
	return nil, h.svc.Delete(ctx, auth.MustFrom(ctx), in.DeckID, in.Permanent)
}

func (h *handlers) restoreDeck(ctx context.Context, in *DeckPath) (*deckOut, error) {
	return detailOf(h.svc.Restore(ctx, auth.MustFrom(ctx), in.DeckID))
}

func (h *handlers) shareDeck(ctx context.Context, in *DeckPath) (*deckOut, error) {
	return detailOf(h.svc.Share(ctx, auth.MustFrom(ctx), in.DeckID))
}

func (h *handlers) unshareDeck(ctx context.Context, in *DeckPath) (*deckOut, error) {
	return detailOf(h.svc.ForceUnshare(ctx, auth.MustFrom(ctx), in.DeckID))
}

func (h *handlers) grants(ctx context.Context, in *GrantsInput) (*deckGrantsOut, error) {
	gs, err := h.svc.Grants(ctx, in.UserID)
	if err != nil {
		return nil, err
	}
	return &deckGrantsOut{toDeckGrants(gs)}, nil
}

func (h *handlers) giveGrant(ctx context.Context, in *GiveGrantInput) (*deckGrantOut, error) {
	g, err := h.svc.GiveGrant(ctx, auth.MustFrom(ctx), in.Body.UserID, in.Body.Scope, in.Body.TargetID)
	if err != nil {
		return nil, err
	}
	return &deckGrantOut{toDeckGrant(g)}, nil
}

func (h *handlers) revokeGrant(ctx context.Context, in *RevokeGrantInput) (*struct{}, error) {
	return nil, h.svc.RevokeGrant(ctx, in.UserID, in.GrantID)
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
