package bank_test

import (
	"fmt"
	"net/url"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
)

// storedType reads a question's type as the bank stored it.
func storedType(id int64) string {
	var t string
	ExpectWithOffset(1, h.App.DB.Conn(ctxBG).Raw(`SELECT question_type FROM bank.questions WHERE id = ?`, id).
		Scan(&t).Error).To(Succeed())
	return t
}

var _ = Describe("Question types in the spec's spellings", func() {
	DescribeTable("create accepts any spelling and answers and stores the canonical one",
		func(spelling, canonical string) {
			body := mcq(unique("Spelled"), q{"question_type": spelling})
			if canonical == "fill_in" {
				body = q{"question_text": unique("Spelled"), "question_type": spelling, "correct_answer": "oxygen|O2"}
			}
			res := mod.Client(h).Post(api+"/questions/create", body)
			Expect(res).To(HaveStatus(201))
			Expect(res.Map()["question_type"]).To(Equal(canonical))
			id := int64(res.Map()["id"].(float64))
			Expect(storedType(id)).To(Equal(canonical))
			Expect(mod.Client(h).Get(path("/questions/detail/%d", id)).Map()["question_type"]).To(Equal(canonical))
		},
		Entry("MCQ", "MCQ", "mcq"),
		Entry("mcq", "mcq", "mcq"),
		Entry("Mcq", "Mcq", "mcq"),
		Entry("fill_in", "fill_in", "fill_in"),
		Entry("fill-in", "fill-in", "fill_in"),
		Entry("Fill-In", "Fill-In", "fill_in"),
		Entry("FILL_IN", "FILL_IN", "fill_in"),
		Entry("non-MCQ", "non-MCQ", "fill_in"),
	)

	It("refuses a type in no spelling (422 naming question_type) and stores nothing", func() {
		text := unique("Essay")
		res := mod.Client(h).Post(api+"/questions/create", mcq(text, q{"question_type": "essay"}))
		Expect(res).To(HaveError(422, "invalid_request"))
		Expect(res.Body).To(ContainSubstring("question_type"))
		Expect(mod.Client(h).Get(api + "/questions/bank?search_mode=keyword&q=" + text).Map()["total"]).To(BeEquivalentTo(0))
	})

	It("update accepts the spec's spelling: switching MCQ to fill-in and back", func() {
		id := create(mcq(unique("Switch")))
		res := mod.Client(h).Patch(path("/questions/%d", id), q{"question_type": "fill-in", "options": []string{},
			"option_explanations": []string{}, "correct_answer": "Bravo"})
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()["question_type"]).To(Equal("fill_in"))
		Expect(storedType(id)).To(Equal("fill_in"))

		res = mod.Client(h).Patch(path("/questions/%d", id), q{"question_type": "MCQ",
			"options": []string{"Alpha", "Bravo"}, "correct_answer": "Bravo"})
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()["question_type"]).To(Equal("mcq"))
		Expect(storedType(id)).To(Equal("mcq"))
	})

	It("an update that only respells the type changes nothing (no new version)", func() {
		id := create(mcq(unique("Respell")))
		res := mod.Client(h).Patch(path("/questions/%d", id), q{"question_type": "MCQ"})
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()["version"]).To(BeEquivalentTo(1))
		Expect(mod.Client(h).Get(path("/questions/detail/%d/versions", id)).Body).To(MatchJSON(`[]`))
	})

	It("the quiz question route accepts the spec's spelling too", func() {
		id := create(mcq(unique("QuizSpelled")))
		z := quiz(unique("SpelledQuiz"), []int64{id})
		res := mod.Client(h).Patch(path("/quizzes/%d/questions/%d", z, id), q{"question_type": "Mcq",
			"options": []string{"Bravo", "Echo"}})
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()["question_type"]).To(Equal("mcq"))
		Expect(mod.Client(h).Patch(path("/quizzes/%d/questions/%d", z, id), q{"question_type": "essay"})).
			To(HaveError(400, "bad_request"))
		Expect(storedType(id)).To(Equal("mcq"))
	})

	It("filters the listing by type in any spelling; an unknown type is 422", func() {
		word := MadeUpWord()
		m := create(mcq(word + " one"))
		f := create(q{"question_text": word + " two", "question_type": "fill_in", "correct_answer": "x"})
		list := func(typ string) []int64 {
			res := mod.Client(h).Get(api + "/questions/bank?search_mode=keyword&q=" + word +
				"&question_type=" + url.QueryEscape(typ))
			ExpectWithOffset(1, res).To(HaveStatus(200))
			return ids(res)
		}
		for _, s := range []string{"MCQ", "mcq", "Mcq"} {
			Expect(list(s)).To(Equal([]int64{m}), s)
		}
		for _, s := range []string{"fill-in", "fill_in", "FILL-IN", "non-MCQ"} {
			Expect(list(s)).To(Equal([]int64{f}), s)
		}
		Expect(list("")).To(ConsistOf(m, f))

		res := mod.Client(h).Get(api + "/questions/bank/ids?q=" + word + "&question_type=Fill-In")
		Expect(res).To(HaveStatus(200))
		Expect(res.Body).To(MatchJSON(fmt.Sprintf("[%d]", f)))

		res = mod.Client(h).Get(api + "/questions/bank?question_type=essay")
		Expect(res).To(HaveError(422, "invalid_request"))
		Expect(res.Body).To(ContainSubstring("question_type"))
	})
})
