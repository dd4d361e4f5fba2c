package http

import (
	"context"
	"strconv"
	"time"

	"github.com/roundsedu/rounds/modules/flashcards/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

// FlashcardResponse is a stored card on the wire.
type FlashcardResponse struct {
	ID          int64     `json:"id"`
	DeckID      int64     `json:"deck_id"`
	CardType    string    `json:"card_type"`
	Front       string    `json:"front"`
	Back        string    `json:"back"`
	ClozeNumber *int      `json:"cloze_number" doc:"which deletion this cloze card hides"`
	PairID      *int64    `json:"pair_id" doc:"the two rows of a reversed card share it"`
	PictureID   *int64    `json:"picture_id"`
	Mask        *app.Mask `json:"mask" doc:"image occlusion: the overlay shape the question side hides"`
	QuestionID  *int64    `json:"question_id"`
	ArticleID   *int64    `json:"article_id"`
	SectionID   *int64    `json:"section_id"`
	CreatedAt   time.Time `json:"created_at"`
}

func toCard(c *app.Card) FlashcardResponse {
	return FlashcardResponse{ID: c.ID, DeckID: c.DeckID, CardType: c.CardType, Front: c.Front, Back: c.Back,
		ClozeNumber: c.ClozeNumber, PairID: c.PairID, PictureID: c.PictureID, Mask: c.Mask, QuestionID: c.QuestionID,
		ArticleID: c.ArticleID, SectionID: c.SectionID, CreatedAt: c.CreatedAt}
}

func toCards(cs []app.Card) []FlashcardResponse {
	out := make([]FlashcardResponse, len(cs))
	for i := range cs {
		out[i] = toCard(&cs[i])
	}
	return out
}

// CardPath names a card.
type CardPath struct {
	CardID int64 `path:"card_id" minimum:"1"`
}

type cardOut struct{ Body FlashcardResponse }

type cardList struct {
	Total string `header:"X-Total-Count"`
	Body  []FlashcardResponse
}

type addedOut struct {
	Body struct {
		Count int                 `json:"count" doc:"cards stored: 2 for reversed, one per deletion number for cloze"`
		Cards []FlashcardResponse `json:"cards"`
	}
}

type deletedOut struct {
	Body struct {
		Deleted int64 `json:"deleted" doc:"rows removed: 2 for a reversed pair"`
	}
}

// AddCardInput adds a card to a deck.
type AddCardInput struct {
	DeckPath
	Body struct {
		CardType  string `json:"card_type" enum:"basic,reversed,cloze,image,type_in"`
		Front     string `json:"front" maxLength:"20000" doc:"the question; for cloze the passage with {{c1::answer::hint}} markers"`
		Back      string `json:"back,omitempty" required:"false" maxLength:"20000" doc:"the answer; for cloze an optional note; for type_in alternatives separated by |"`
		PictureID *int64 `json:"picture_id,omitempty" required:"false" minimum:"1" doc:"a media asset: the question side of an image card, else the answer side"`
		Occlusion string `json:"occlusion,omitempty" required:"false" enum:"each,none" doc:"image cards: each (default with an overlay) makes a card per overlay shape hiding it, answered by its label; none one card of the whole picture"`
	} `nameHint:"Post-flashcards-decks-by-deck-id-cardsRequest"`
}

// DeckCardsInput pages a deck's cards.
type DeckCardsInput struct {
	DeckPath
	httpapi.Page
}

// LinkQuestionInput links a card to a bank question.
type LinkQuestionInput struct {
	CardPath
	Body struct {
		QuestionID int64 `json:"question_id" minimum:"1"`
	} `nameHint:"Put-flashcards-cards-by-card-id-questionRequest"`
}

// LinkArticleInput links a card to an article and optional section.
type LinkArticleInput struct {
	CardPath
	Body struct {
		ArticleID int64  `json:"article_id" minimum:"1"`
		SectionID *int64 `json:"section_id,omitempty" required:"false" minimum:"1"`
	} `nameHint:"Put-flashcards-cards-by-card-id-articleRequest"`
}

func (h *handlers) addCard(ctx context.Context, in *AddCardInput) (*addedOut, error) {
	b := in.Body
	cs, err := h.svc.AddCard(ctx, auth.MustFrom(ctx), in.DeckID, app.NewCard{Type: b.CardType, Front: b.Front,
		Back: b.Back, PictureID: b.PictureID, Occlusion: b.Occlusion})
	if err != nil {
		return nil, err
	}
	out := &addedOut{}
	out.Body.Count, out.Body.Cards = len(cs), toCards(cs)
	return out, nil
}

func (h *handlers) deckCards(ctx context.Context, in *DeckCardsInput) (*cardList, error) {
	cs, total, err := h.svc.Cards(ctx, auth.MustFrom(ctx), in.DeckID, in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	return &cardList{strconv.FormatInt(total, 10), toCards(cs)}, nil
}

func (h *handlers) deleteCard(ctx context.Context, in *CardPath) (*deletedOut, error) {
	n, err := h.svc.DeleteCard(ctx, auth.MustFrom(ctx), in.CardID)
	if err != nil {
		return nil, err
	}
	out := &deletedOut{}
	out.Body.Deleted = n
	return out, nil
}

func (h *handlers) linkQuestion(ctx context.Context, in *LinkQuestionInput) (*cardOut, error) {
	return cardResult(h.svc.LinkQuestion(ctx, auth.MustFrom(ctx), in.CardID, &in.Body.QuestionID))
}

func (h *handlers) unlinkQuestion(ctx context.Context, in *CardPath) (*cardOut, error) {
	return cardResult(h.svc.LinkQuestion(ctx, auth.MustFrom(ctx), in.CardID, nil))
}

func (h *handlers) linkArticle(ctx context.Context, in *LinkArticleInput) (*cardOut, error) {
	return cardResult(h.svc.LinkArticle(ctx, auth.MustFrom(ctx), in.CardID, &in.Body.ArticleID, in.Body.SectionID))
}

func (h *handlers) unlinkArticle(ctx context.Context, in *CardPath) (*cardOut, error) {
	return cardResult(h.svc.LinkArticle(ctx, auth.MustFrom(ctx), in.CardID, nil, nil))
}

func cardResult(c *app.Card, err error) (*cardOut, error) {
	if err != nil {
		return nil, err
	}
	return &cardOut{toCard(c)}, nil
}
