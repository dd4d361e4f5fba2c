package flashcards_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/contract"
)

// Issue 33: linking a card to a question asks the bank's reach policy
// (the route is moderators': they reach every live question).
var _ = Describe("Card links to hand-picked question ids", func() {
	It("link only a question the caller reaches: a binned one answers as a missing one and links nothing", func() {
		hp := h.HandPick(mod)
		d := deck(mod, "Linked by hand", category(0))
		card := cardIDs(addCard(mod, d, cardBody{CardType: "basic", Front: "Q", Back: new("A")}))[0]
		link := func(id int64) *Response {
			return mod.Client(h).Put(fmt.Sprintf("%s/flashcards/cards/%d/question", api, card), questionLink{QuestionId: id})
		}
		missing := link(hp.Missing)
		Expect(missing).To(HaveError(422, "invalid_request"))
		Expect(link(hp.Binned.ID)).To(And(AnswerAlike(missing), ShowNoneOf(hp.Secrets())))
		var stored *int64
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT question_id FROM flashcards.cards WHERE id = ?`, card).Scan(&stored).Error).To(Succeed())
		Expect(stored).To(BeNil())
		res := link(hp.Unpublished.ID)
		Expect(res).To(HaveStatus(200), "a moderator reaches the whole live bank")
		Expect(Body[contract.FlashcardResponse](res).QuestionId).To(HaveValue(Equal(hp.Unpublished.ID)))
	})
})
