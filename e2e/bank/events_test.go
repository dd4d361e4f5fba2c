package bank_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/modules/bank"
)

// eventWait is generous: delivery waits for the oldest open transaction on
// the Postgres cluster, which other suites on a shared machine may hold.
const eventWait = 30 * time.Second

func changesOf(id int64) []bank.Change {
	out := []bank.Change{}
	for _, e := range feed.of(id) {
		out = append(out, e.Change)
	}
	return out
}

var _ = Describe("Question change events", func() {
	It("publishes created, updated, deleted, restored and purged in order, with what search needs", func() {
		cat := category(unique("EventCat"), nil, nil)
		id := create(mcq("Event stem", q{"question_category_id": cat}))
		Expect(mod.Client(h).Patch(path("/questions/%d", id), q{"question_text": "Event stem two"})).To(HaveStatus(200))
		Expect(mod.Client(h).Delete(path("/questions/%d", id))).To(HaveStatus(204))
		Expect(mod.Client(h).Patch(path("/questions/%d/restore", id), nil)).To(HaveStatus(200))
		Expect(mod.Client(h).Delete(path("/questions/%d", id))).To(HaveStatus(204))
		Expect(mod.Client(h).Delete(path("/questions/%d/permanent", id))).To(HaveStatus(204))

		Eventually(func() []bank.Change { return changesOf(id) }).WithTimeout(eventWait).Should(Equal([]bank.Change{
			bank.QuestionCreated, bank.QuestionUpdated, bank.QuestionDeleted, bank.QuestionRestored,
			bank.QuestionDeleted, bank.QuestionPurged}))
		evs := feed.of(id)
		Expect(evs[0].Text).To(Equal("Event stem"))
		Expect(evs[0].Options).To(Equal([]string{"Alpha", "Bravo", "Charlie", "Delta"}))
		Expect(evs[0].Explanation).To(Equal("Bravo is right because of the rule."))
		Expect(*evs[0].CategoryID).To(Equal(cat))
		Expect(evs[0].Live).To(BeTrue())
		Expect(evs[1].Text).To(Equal("Event stem two"))
		Expect(evs[2].Live).To(BeFalse())
		Expect(evs[3].Live).To(BeTrue())
		Expect(evs[5].Live).To(BeFalse())
		Expect(evs[5].Text).To(BeEmpty())
		for i := 1; i < len(evs); i++ {
			Expect(evs[i].Version).To(BeNumerically(">", evs[i-1].Version))
			Expect(evs[i].At).NotTo(BeZero())
		}
	})

	It("publishes an update when a question is refiled, singly, in bulk or by a category delete", func() {
		from := category(unique("EvFrom"), nil, nil)
		to := category(unique("EvTo"), nil, nil)
		a := create(mcq(unique("ev a"), q{"question_category_id": from}))
		b := create(mcq(unique("ev b"), q{"question_category_id": from}))
		Expect(mod.Client(h).Patch(path("/questions/%d/category?category_id=%d", a, to), nil)).To(HaveStatus(200))
		Expect(mod.Client(h).Post(api+"/questions/bulk-category", q{"question_ids": []int64{b}, "category_id": to})).
			To(HaveStatus(200))
		Expect(mod.Client(h).Delete(path("/question-categories/%d", to))).To(HaveStatus(204))
		Eventually(func() []bank.Change { return changesOf(a) }).WithTimeout(eventWait).Should(Equal([]bank.Change{
			bank.QuestionCreated, bank.QuestionUpdated, bank.QuestionUpdated}))
		Eventually(func() []bank.Change { return changesOf(b) }).WithTimeout(eventWait).Should(HaveLen(3))
		evs := feed.of(a)
		Expect(*evs[1].CategoryID).To(Equal(to))
		Expect(evs[2].CategoryID).To(BeNil())
	})

	It("publishes nothing when the write is refused or changes nothing", func() {
		id := create(mcq(unique("Quiet")))
		Expect(mod.Client(h).Patch(path("/questions/%d", id), q{"correct_answer": "Zulu"})).To(HaveError(422, "invalid_request"))
		Expect(mod.Client(h).Patch(path("/questions/%d", id), q{"correct_answer": "Bravo"})).To(HaveStatus(200))
		Expect(mod.Client(h).Patch(path("/questions/%d/restore", id), nil)).To(HaveError(400, "bad_request"))
		Eventually(func() []bank.Change { return changesOf(id) }).WithTimeout(eventWait).Should(Equal([]bank.Change{bank.QuestionCreated}))
		Consistently(func() []bank.Change { return changesOf(id) }, "500ms").Should(HaveLen(1))
	})

	It("publishes each question created by a quiz question removal that trashes it", func() {
		id := create(mcq(unique("Removed via quiz")))
		z := quiz(unique("Removal quiz"), []int64{id})
		Expect(mod.Client(h).Delete(path("/quizzes/%d/questions/%d", z, id))).To(HaveStatus(204))
		Eventually(func() []bank.Change { return changesOf(id) }).WithTimeout(eventWait).Should(Equal([]bank.Change{
			bank.QuestionCreated, bank.QuestionDeleted}))
	})
})
