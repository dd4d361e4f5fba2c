package bank_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

// The bank's reach policy (issue 33): a learner picking question ids by
// hand gets, for every id they do not reach, exactly what an id that does
// not exist gets, and nothing of its answer key.
var _ = Describe("The reach policy, tried with hand-picked ids", Ordered, func() {
	var hp HandPicked
	var learner *User
	BeforeAll(func() {
		hp = h.HandPick(mod)
		learner = h.NewUser(auth.RoleUser)
	})

	stored := func(sql string, args ...any) int64 {
		var n int64
		ExpectWithOffset(1, h.App.DB.Conn(ctxBG).Raw(sql, args...).Scan(&n).Error).To(Succeed())
		return n
	}

	It("lets a learner favourite only what they reach: any other id answers as a missing one and stores nothing", func() {
		c := learner.Client(h)
		missing := c.Post(api+"/favorites", q{"question_id": hp.Missing})
		Expect(missing).To(HaveError(404, "not_found"))
		for name, id := range hp.Unreached() {
			res := c.Post(api+"/favorites", q{"question_id": id})
			Expect(res).To(AnswerAlike(missing), name)
			Expect(res).To(ShowNoneOf(hp.Secrets()), name)
		}
		Expect(stored(`SELECT count(*) FROM bank.favorites WHERE user_id = ?`, learner.ID)).To(BeZero())
		Expect(c.Get(api + "/favorites").List()).To(BeEmpty())

		Expect(c.Post(api+"/favorites", q{"question_id": hp.Open.ID})).To(HaveStatus(201))
		Expect(hp.Holder.Client(h).Post(api+"/favorites", q{"question_id": hp.Ungranted.ID})).To(HaveStatus(201),
			"a grant reaches what it covers")
		Expect(mod.Client(h).Post(api+"/favorites", q{"question_id": hp.Unpublished.ID})).To(HaveStatus(201),
			"a moderator reaches the whole bank")
		Expect(mod.Client(h).Post(api+"/favorites", q{"question_id": hp.Binned.ID})).To(HaveError(404, "not_found"),
			"but nothing in the trash")
	})

	It("closes the walk favourite, saved test, study attempt: no id the learner does not reach gets into a test", func() {
		c := learner.Client(h)
		for _, id := range hp.Unreached() {
			c.Post(api+"/favorites", q{"question_id": id}) // refused above; were it taken, it must still reach nothing
		}
		missing := c.Post(api+"/saved-tests", q{"title": "Walk", "mode": "learning", "question_ids": []int64{hp.Missing}})
		Expect(missing).To(HaveError(409, "conflict"))
		for name, id := range hp.Unreached() {
			res := c.Post(api+"/saved-tests", q{"title": "Walk", "mode": "learning", "question_ids": []int64{id}})
			Expect(res).To(AnswerAlike(missing), name)
			Expect(res).To(ShowNoneOf(hp.Secrets()), name)
		}
		Expect(stored(`SELECT count(*) FROM bank.saved_tests WHERE user_id = ?`, learner.ID)).To(BeZero())

		ask := []int64{hp.Unpublished.ID, hp.Ungranted.ID, hp.Open.ID, hp.Binned.ID, hp.Withdrawn.ID, hp.Missing}
		res := c.Post(api+"/saved-tests", q{"title": "Walk", "mode": "learning", "question_ids": ask})
		Expect(res).To(HaveStatus(201))
		Expect(res.Map()["questions_count"]).To(BeNumerically("==", 1))
		test := int64(res.Map()["id"].(float64))
		Expect(questionIDs(getQuiz(learner, test, "?study=true"))).To(Equal([]int64{hp.Open.ID}))
		Expect(c.Get(path("/quizzes/%d?study=true", test))).To(ShowNoneOf(hp.Secrets()))
		a := c.Post(path("/attempts/start?quiz_id=%d", test), nil)
		Expect(a).To(HaveStatus(200))
		Expect(c.Get(path("/attempts/%d", int64(a.Map()["id"].(float64))))).To(ShowNoneOf(hp.Secrets()))
	})

	It("keeps listing a favourite whose question left the learner's reach, and lets it reach nothing", func() {
		c := learner.Client(h)
		k := h.NewAnswerKey(mod, nil)
		z := quiz(unique("Reach withdrawn "), []int64{k.ID})
		publish(z)
		Expect(c.Post(api+"/favorites", q{"question_id": k.ID})).To(HaveStatus(201))
		Expect(mod.Client(h).Patch(path("/quizzes/%d/publish?published=false", z), nil)).To(HaveStatus(200))

		Expect(c.Get(api + "/favorites").List()).To(ContainElement(BeNumerically("==", k.ID)))
		Expect(c.Post(api+"/favorites", q{"question_id": k.ID})).To(AnswerAlike(c.Post(api+"/favorites",
			q{"question_id": hp.Missing})), "marking it again asks for reach again")
		missing := c.Post(api+"/saved-tests", q{"title": "Fav", "mode": "learning", "question_ids": []int64{hp.Missing}})
		res := c.Post(api+"/saved-tests", q{"title": "Fav", "mode": "learning", "question_ids": []int64{k.ID}})
		Expect(res).To(AnswerAlike(missing))
		Expect(res).To(ShowNoneOf(append([]string{k.Answer}, k.Secrets...)))
		listed := c.Get(api + "/questions/bank?favorites_only=true")
		Expect(listed.Map()["questions"]).To(ContainElement(And(HaveKeyWithValue("id", BeNumerically("==", k.ID)),
			HaveKeyWithValue("correct_answer", BeNil()))), "the listing shows a favourite's stem side only")
		Expect(listed).To(ShowNoneOf(k.Secrets))
	})

	It("keeps the detail's spec: stem and options to anyone, the answer side refused outside an attempt", func() {
		c := learner.Client(h)
		for _, k := range []AnswerKey{hp.Unpublished, hp.Ungranted, hp.Withdrawn} {
			res := c.Get(path("/questions/detail/%d", k.ID))
			Expect(res).To(HaveStatus(200))
			Expect(res.Map()).To(And(HaveKeyWithValue("correct_answer", BeNil()), HaveKeyWithValue("can_edit", false)))
			Expect(res).To(ShowNoneOf(k.Secrets))
			Expect(c.Get(path("/questions/detail/%d?attempt_id=1", k.ID))).To(HaveError(403, "forbidden"))
		}
		Expect(c.Get(path("/questions/detail/%d", hp.Binned.ID))).To(HaveError(404, "not_found"))
	})

	It("answers a learner on the editors' routes 403 where they reach the question, and as missing where they do not", func() {
		c := learner.Client(h)
		routes := []struct {
			method, path string
			body         any
		}{
			{"GET", "/questions/detail/%d/versions", nil},
			{"POST", "/questions/detail/%d/versions/1/restore", nil},
			{"PATCH", "/questions/%d", q{"explanation": "mine now"}},
		}
		for _, r := range routes {
			at := func(id int64) *Response { return c.Do(r.method, path(r.path, id), r.body) }
			Expect(at(hp.Open.ID)).To(HaveError(403, "forbidden"))
			missing := at(hp.Missing)
			Expect(missing).To(HaveError(404, "not_found"))
			for name, id := range hp.Unreached() {
				res := at(id)
				Expect(res).To(AnswerAlike(missing), name)
				Expect(res).To(ShowNoneOf(hp.Secrets()), name)
			}
		}
		Expect(hp.Holder.Client(h).Get(path("/questions/detail/%d/versions", hp.Ungranted.ID))).To(HaveStatus(200))
	})
})
