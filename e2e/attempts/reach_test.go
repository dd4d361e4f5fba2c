package attempts_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
)

// Issue 33: the question ids a learner picks by hand, and the mode they
// pick for a saved test.
var _ = Describe("Questions named by hand", Ordered, func() {
	var hp HandPicked
	BeforeAll(func() { hp = h.HandPick(mod) })

	count := func(sql string, args ...any) int64 {
		var n int64
		ExpectWithOffset(1, h.App.DB.Conn(ctxb).Raw(sql, args...).Scan(&n).Error).To(Succeed())
		return n
	}

	It("go into a learner's collections and notes only when the learner reaches them; others answer as missing ones", func() {
		u, other := learner(), learner()
		c := u.Client(h)
		coll := c.Post("/api/v1/collections", map[string]any{"name": "By hand"}).ID()
		into := func(id int64) *Response {
			return c.Put(fmt.Sprintf("/api/v1/collections/%d/questions/%d", coll, id), nil)
		}
		note := func(id int64) *Response {
			return c.Put(fmt.Sprintf("/api/v1/notes/%d", id), map[string]any{"body": "remember this"})
		}
		missingInto, missingNote := into(hp.Missing), note(hp.Missing)
		Expect(missingInto).To(HaveError(404, "not_found"))
		Expect(missingNote).To(HaveError(404, "not_found"))
		for name, id := range hp.Unreached() {
			Expect(into(id)).To(And(AnswerAlike(missingInto), ShowNoneOf(hp.Secrets())), name)
			Expect(note(id)).To(And(AnswerAlike(missingNote), ShowNoneOf(hp.Secrets())), name)
		}
		Expect(count(`SELECT count(*) FROM attempts.collection_questions WHERE collection_id = ?`, coll)).To(BeZero())
		Expect(count(`SELECT count(*) FROM attempts.notes WHERE user_id = ?`, u.ID)).To(BeZero())

		Expect(into(hp.Open.ID)).To(HaveStatus(204))
		Expect(note(hp.Open.ID)).To(HaveStatus(200))
		Expect(c.Get(fmt.Sprintf("/api/v1/collections/%d", coll)).Map()["question_ids"]).To(Equal([]any{float64(hp.Open.ID)}))

		// Another learner's collection is no collection of theirs.
		theirs := other.Client(h).Post("/api/v1/collections", map[string]any{"name": "Theirs"}).ID()
		Expect(c.Put(fmt.Sprintf("/api/v1/collections/%d/questions/%d", theirs, hp.Open.ID), nil)).
			To(AnswerAlike(c.Put(fmt.Sprintf("/api/v1/collections/%d/questions/%d", hp.Missing, hp.Open.ID), nil)))
		Expect(count(`SELECT count(*) FROM attempts.collection_questions WHERE collection_id = ?`, theirs)).To(BeZero())

		// Routes on the learner's own rows answer every id they hold nothing on alike.
		for _, route := range []struct{ method, path string }{
			{"GET", "/api/v1/notes/%d"},
			{"DELETE", "/api/v1/notes/%d"},
			{"DELETE", fmt.Sprintf("/api/v1/collections/%d/questions/", coll) + "%d"},
			{"DELETE", "/api/v1/attempts/reminders/%d"},
		} {
			missing := c.Do(route.method, fmt.Sprintf(route.path, hp.Missing), nil)
			Expect(missing).To(HaveError(404, "not_found"))
			for name, id := range hp.Unreached() {
				Expect(c.Do(route.method, fmt.Sprintf(route.path, id), nil)).To(AnswerAlike(missing), route.method+" "+name)
			}
		}
	})

	It("answered inside an attempt that did not sit them are refused alike, whether the bank has them or not", func() {
		u := learner()
		c := u.Client(h)
		quiz := createQuiz("Answered by hand", quizOpts{}, hp.Open.ID)
		a := start(u, quiz, "")
		answer := func(path string, id int64, body map[string]any) *Response {
			body["answers"] = map[string]string{fmt.Sprint(hp.Open.ID): hp.Open.Answer, fmt.Sprint(id): "a guess"}
			return c.Post(path, body)
		}
		for _, route := range []struct {
			path string
			body func() map[string]any
		}{
			{"/api/v1/attempts/progress", func() map[string]any { return map[string]any{"quiz_id": quiz, "attempt_id": a.ID} }},
			{fmt.Sprintf("/api/v1/attempts/%d/submit", a.ID), func() map[string]any { return map[string]any{} }},
		} {
			missing := answer(route.path, hp.Missing, route.body())
			Expect(missing).To(HaveError(422, "invalid_request"))
			for name, id := range hp.Unreached() {
				Expect(answer(route.path, id, route.body())).To(And(AnswerAlike(missing), ShowNoneOf(hp.Secrets())), name)
			}
		}
		Expect(count(`SELECT count(*) FROM attempts.attempts WHERE id = ? AND completed_at IS NULL`, a.ID)).To(BeEquivalentTo(1))
	})

	It("sit a saved test only in the mode it was built in: a timed paper never opens as a study session", func() {
		u := learner()
		c := u.Client(h)
		build := func(mode string) int64 {
			res := c.Post("/api/v1/saved-tests", map[string]any{"title": "Paper", "mode": mode, "question_ids": []int64{hp.Open.ID}})
			ExpectWithOffset(1, res).To(HaveStatus(201))
			return res.ID()
		}
		attempts := func(quiz int64) int64 {
			return count(`SELECT count(*) FROM attempts.attempts WHERE user_id = ? AND quiz_id = ?`, u.ID, quiz)
		}
		key := append([]string{hp.Open.Answer}, hp.Open.Secrets...)

		paper := build("timed")
		res := c.Post(fmt.Sprintf("/api/v1/attempts/start?quiz_id=%d&mode=learning", paper), nil)
		Expect(res).To(HaveError(422, "invalid_request"))
		Expect(res).To(ShowNoneOf(key))
		Expect(attempts(paper)).To(BeZero())
		a := start(u, paper, "")
		Expect(a.Mode).To(Equal("timed"))
		Expect(start(u, paper, "&mode=timed").ID).To(Equal(a.ID), "its own mode, asked for, resumes it")
		d := c.Get(fmt.Sprintf("/api/v1/attempts/%d", a.ID))
		Expect(d).To(ShowNoneOf(hp.Open.Secrets))
		Expect(d.Map()["answers"]).To(ConsistOf(HaveKeyWithValue("correct_answer", BeNil())))

		drill := build("learning")
		Expect(c.Post(fmt.Sprintf("/api/v1/attempts/start?quiz_id=%d&mode=timed", drill), nil)).To(HaveError(422, "invalid_request"))
		Expect(attempts(drill)).To(BeZero())
		Expect(start(u, drill, "").Mode).To(Equal("learning"))

		// A published quiz is still studied in either mode (GET /quizzes/{id}?study=true shows it anyway).
		quiz := createQuiz("Studied any way", quizOpts{}, createQuestion(mcq("Either way?", "Yes", "Yes", "No")))
		Expect(start(u, quiz, "&mode=learning").Mode).To(Equal("learning"))
	})
})
