package app

import (
	"context"
	"errors"
	"strings"

	"github.com/roundsedu/rounds/modules/flashcards/internal/cloze"
	"github.com/roundsedu/rounds/modules/flashcards/internal/store"
	"github.com/roundsedu/rounds/modules/flashcards/internal/typein"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
)

// Card types.
const (
	Basic    = "basic"
	Reversed = "reversed"
	Cloze    = "cloze"
	Image    = "image"
	TypeIn   = "type_in"
)

// Card is a stored card.
type Card = store.Card

// NewCard is what an editor writes: front and back (for cloze the passage
// and an optional note; for type_in the question and the answer with
// alternatives separated by "|"; for image what is asked about the
// picture), an optional picture, and for image cards the occlusion mode.
type NewCard struct {
	Type      string
	Front     string
	Back      string
	PictureID *int64
	Occlusion string
}

// picture checks a picture p puts on a card through media (which decides
// who may use an asset); with no media module every picture is refused.
func (s *Service) picture(ctx context.Context, p auth.Principal, id int64) (*Picture, error) {
	if len(s.ports.Pictures) == 0 {
		return nil, apperr.Invalidf("body.picture_id", "pictures need the media module, which this service does not have yet")
	}
	return s.ports.Pictures[0].FlashcardPicture(ctx, p, id)
}

// rows turns what an editor wrote into the rows to store: two for a
// reversed card, one per deletion number for cloze, one otherwise.
func (s *Service) rows(ctx context.Context, p auth.Principal, deckID int64, in NewCard) ([]Card, error) {
	front, back := strings.TrimSpace(in.Front), strings.TrimSpace(in.Back)
	if front == "" && in.Type != Image {
		return nil, apperr.Invalidf("body.front", "front must not be blank")
	}
	if in.Type == Image && in.PictureID == nil {
		return nil, apperr.Invalidf("body.picture_id", "an image card needs a picture: it is the question side")
	}
	if in.Type != Image && in.Occlusion != "" {
		return nil, apperr.Invalidf("body.occlusion", "occlusion is for image cards")
	}
	var pic *Picture
	if in.PictureID != nil {
		var err error
		if pic, err = s.picture(ctx, p, *in.PictureID); err != nil {
			return nil, err
		}
	}
	base := Card{DeckID: deckID, CardType: in.Type, Front: front, Back: back, PictureID: in.PictureID, CreatedBy: p.UserID}
	switch in.Type {
	case Basic, Reversed:
		if back == "" {
			return nil, apperr.Invalidf("body.back", "a %s card needs a back", in.Type)
		}
		if in.Type == Basic {
			return []Card{base}, nil
		}
		other := base
		other.Front, other.Back = back, front
		return []Card{base, other}, nil
	case Cloze:
		p, err := cloze.Parse(front)
		var ce *cloze.Error
		if errors.As(err, &ce) {
			return nil, apperr.Invalidf("body.front", "%s", ce.Msg)
		}
		if err != nil {
			return nil, err
		}
		var out []Card
		for _, n := range p.Numbers() {
			c := base
			c.ClozeNumber = &n
			out = append(out, c)
		}
		return out, nil
	case TypeIn:
		if len(typein.Alternatives(back)) == 0 {
			return nil, apperr.Invalidf("body.back", "a type_in card needs an answer (alternatives separated by |)")
		}
		return []Card{base}, nil
	case Image:
		return imageRows(base, pic, in.Occlusion)
	}
	return nil, apperr.Invalidf("body.card_type", "card_type must be one of basic, reversed, cloze, image, type_in")
}

// AddCard writes a card into a deck (can_edit_deck) and gives the rows
// stored.
func (s *Service) AddCard(ctx context.Context, p auth.Principal, deckID int64, in NewCard) ([]Card, error) {
	if _, err := s.editable(ctx, p, deckID, db.NoLock); err != nil {
		return nil, err
	}
	rows, err := s.rows(ctx, p, deckID, in)
	if err != nil {
		return nil, err
	}
	err = s.db.Tx(ctx, func(ctx context.Context) error {
		// Key-share lock: the deck cannot be removed for good under the insert.
		if _, err := s.editable(ctx, p, deckID, db.ForKeyShare); err != nil {
			return err
		}
		return s.store.InsertCards(ctx, rows)
	})
	return rows, err
}

// Cards lists a deck's cards (anyone who may study it).
func (s *Service) Cards(ctx context.Context, p auth.Principal, deckID int64, limit, offset int) ([]Card, int64, error) {
	if _, err := s.deck(ctx, p, deckID, db.NoLock); err != nil {
		return nil, 0, err
	}
	return s.store.Cards(ctx, deckID, limit, offset)
}

// card loads a card of a deck the caller may see.
func (s *Service) card(ctx context.Context, p auth.Principal, id int64, lock db.Lock) (*Card, access, error) {
	c, err := s.store.Card(ctx, id)
	if db.IsNotFound(err) {
		return nil, access{}, apperr.NotFoundf("card %d not found", id)
	}
	if err != nil {
		return nil, access{}, err
	}
	a, err := s.deck(ctx, p, c.DeckID, lock)
	if apperr.Is(err, apperr.NotFound) {
		return nil, access{}, apperr.NotFoundf("card %d not found", id)
	}
	return c, a, err
}

// DeleteCard removes a card for good (can_edit_deck); half of a reversed
// pair takes the other half with it. It gives how many rows went.
func (s *Service) DeleteCard(ctx context.Context, p auth.Principal, id int64) (int64, error) {
	var n int64
	err := s.db.Tx(ctx, func(ctx context.Context) error {
		c, a, err := s.card(ctx, p, id, db.ForKeyShare)
		if err != nil {
			return err
		}
		if !a.canEdit {
			return apperr.Forbiddenf("only a moderator, the deck's owner or a grant holder may delete cards of deck %d", c.DeckID)
		}
		n, err = s.store.DeleteCard(ctx, c)
		return err
	})
	return n, err
}

// LinkQuestion links a card to a bank question the caller reaches (the
// bank's reach policy; one they do not reach is refused as one that does
// not exist), or with nil unlinks it. The route admits moderators only: a
// deck grant does not reach links.
func (s *Service) LinkQuestion(ctx context.Context, p auth.Principal, cardID int64, questionID *int64) (*Card, error) {
	if questionID != nil {
		err := s.ports.Bank.RequireQuestions(ctx, p, *questionID)
		if apperr.Is(err, apperr.NotFound) {
			return nil, apperr.Invalidf("body.question_id", "no such question")
		}
		if err != nil {
			return nil, err
		}
	}
	return s.link(ctx, p, cardID, map[string]any{"question_id": questionID})
}

// article checks an article (and section) through the library; with no
// library module every article link is refused.
func (s *Service) article(ctx context.Context, articleID int64, sectionID *int64) error {
	if len(s.ports.Articles) == 0 {
		return apperr.Invalidf("body.article_id", "article links need the library module, which this service does not have yet")
	}
	return s.ports.Articles[0].FlashcardArticle(ctx, articleID, sectionID)
}

// LinkArticle links a card to an article and optional section, or with
// nil unlinks it (moderators only). Linking a card links its deck to the
// article too (the deck's first article becomes its source); unlinking
// leaves the deck's link, which records where cards came from.
func (s *Service) LinkArticle(ctx context.Context, p auth.Principal, cardID int64, articleID, sectionID *int64) (*Card, error) {
	if articleID != nil {
		if err := s.article(ctx, *articleID, sectionID); err != nil {
			return nil, err
		}
	} else {
		sectionID = nil
	}
	return s.link(ctx, p, cardID, map[string]any{"article_id": articleID, "section_id": sectionID})
}

// link sets a card's link fields under the deck's row lock (the deck's
// article links are written alongside).
func (s *Service) link(ctx context.Context, p auth.Principal, cardID int64, fields map[string]any) (*Card, error) {
	var out *Card
	err := s.db.Tx(ctx, func(ctx context.Context) error {
		c, _, err := s.card(ctx, p, cardID, db.ForUpdate)
		if err != nil {
			return err
		}
		if err := s.store.SetLink(ctx, cardID, fields); err != nil {
			return err
		}
		if a, ok := fields["article_id"].(*int64); ok && a != nil {
			if err := s.store.LinkArticle(ctx, c.DeckID, *a, false); err != nil {
				return err
			}
		}
		out, err = s.store.Card(ctx, cardID)
		return err
	})
	return out, err
}
