// Package flashcards_test drives decks, cards and studying end to end,
// each role signed in through the real SSO flow.
package flashcards_test

import (
	"context"
	"fmt"
	"testing"

	. "github.com/onsi/gomega"
	. "github.com/onsi/gomega/gstruct"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/contract"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/config"
)

func TestFlashcards(t *testing.T) { RunSuite(t, "Flashcards") }

const api = "/api/v1"

var (
	h           *Harness
	admin, mod  *User
	ctxb        = context.Background()
	categorySeq int
)

var _ = Suite(&h, func() { admin, mod = h.NewUser(auth.RoleAdmin), h.NewUser(auth.RoleModerator) },
	WithConfig(func(c *config.Config) { c.Set("flashcards.reviews_per_day", 5) }))

// category makes a question category, under parent when it is not 0.
func category(parent int64) int64 {
	categorySeq++
	body := contract.CreateQuestionCategoryInputBody{Name: fmt.Sprintf("Topic %d", categorySeq)}
	if parent != 0 {
		body.ParentId = &parent
	}
	res := mod.Client(h).Post(api+"/question-categories/", body)
	ExpectWithOffset(1, res).To(HaveStatus(201))
	return res.ID()
}

// deck makes an unshared deck as u (a moderator) in category cat.
func deck(u *User, title string, cat int64) int64 {
	res := u.Client(h).Post(api+"/flashcards/manual", contract.PostFlashcardsManualRequest{Title: title, CategoryId: cat})
	ExpectWithOffset(1, res).To(HaveStatus(201))
	return Body[contract.DeckDetail](res).Id
}

func deckPath(d int64, rest string) string { return fmt.Sprintf("%s/flashcards/%d%s", api, d, rest) }

// cardBody adds a card, cardType is its card_type (the contract names an
// inline request body after its operation).
type (
	cardBody = contract.PostFlashcardsDecksByDeckIdCardsRequest
	cardType = contract.PostFlashcardsDecksByDeckIdCardsRequestCardType
)

// questionLink links a card to a bank question.
type questionLink = contract.PutFlashcardsCardsByCardIdQuestionRequest

func addCard(u *User, d int64, body cardBody) *Response {
	return u.Client(h).Post(fmt.Sprintf("%s/flashcards/decks/%d/cards", api, d), body)
}

// added is the answer to adding a card: the rows it stored. The contract
// names it AddedOutBody, after the handler's anonymous output body.
func added(res *Response) (count int64, cards []contract.FlashcardResponse) {
	b := Body[contract.AddedOutBody](res)
	return b.Count, Items(b.Cards)
}

// cardIDs are the ids of the cards an add stored.
func cardIDs(res *Response) []int64 {
	ExpectWithOffset(1, res).To(HaveStatus(201))
	_, cards := added(res)
	out := make([]int64, len(cards))
	for i, c := range cards {
		out[i] = c.Id
	}
	return out
}

// deckIDs are the ids of a list of decks (GET /flashcards, /flashcards/trash).
func deckIDs(res *Response) []int64 {
	ExpectWithOffset(1, res).To(HaveStatus(200))
	var out []int64
	for _, d := range Body[[]contract.DeckResponse](res) {
		out = append(out, d.Id)
	}
	return out
}

// grant gives learner a deck grant (scope deck or category) through identity.
func grant(learner *User, scope contract.GiveGrantInputBodyScope, target int64) {
	res := mod.Client(h).Post(fmt.Sprintf("%s/access/%d/grants", api, learner.ID),
		contract.GiveGrantInputBody{Kind: "deck", Scope: &scope, TargetId: target})
	ExpectWithOffset(1, res).To(HaveStatus(201))
	ExpectWithOffset(1, Body[contract.GrantResponse](res)).To(MatchFields(IgnoreExtras, Fields{"UserId": Equal(learner.ID),
		"Kind": BeEquivalentTo("deck"), "Scope": HaveValue(BeEquivalentTo(scope)), "TargetId": Equal(target)}))
}

type deckRow struct {
	IsShared  bool
	Deleted   bool
	UserID    int64
	Title     string
	CardCount int64
}

func storedDeck(d int64) (deckRow, bool) {
	var rows []deckRow
	Expect(h.App.DB.Conn(ctxb).Raw(`SELECT is_shared, deleted_at IS NOT NULL AS deleted, user_id, title,
		(SELECT count(*) FROM flashcards.cards WHERE deck_id = d.id) AS card_count
		FROM flashcards.decks d WHERE id = ?`, d).Scan(&rows).Error).To(Succeed())
	if len(rows) == 0 {
		return deckRow{}, false
	}
	return rows[0], true
}
