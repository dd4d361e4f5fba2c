package attempts_test

import (
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
)

var _ = Describe("Submitting and scoring", func() {
	It("scores MCQ by option and fill-in by normalised alternatives; unanswered is wrong", func() {
		quiz, ids := cardioQuiz(quizOpts{})
		u := learner()
		a := start(u, quiz, "")
		d := submit(u, a.ID, map[int64]string{
			ids[0]: "Nitrate", // the correct option
			ids[1]: "  ms ",   // an accepted alternative, case and spaces aside
		}) // ids[2] left unanswered
		Expect(*d.Score).To(Equal(2))
		Expect(d.TotalQuestions).To(Equal(3))
		Expect(*d.Percentage).To(Equal(66.67))
		Expect(d.CompletedAt).NotTo(BeNil())
		Expect(d.AutoSubmitted).To(BeFalse())
		Expect(d.AnswersShown).To(BeTrue())
		Expect(*d.Answers[0].IsCorrect).To(BeTrue())
		Expect(*d.Answers[1].IsCorrect).To(BeTrue())
		Expect(*d.Answers[1].UserAnswer).To(Equal("  ms "))
		Expect(*d.Answers[2].IsCorrect).To(BeFalse())
		Expect(d.Answers[2].UserAnswer).To(BeNil())
		Expect(*d.Answers[2].CorrectAnswer).To(Equal("II"))
		Expect(*d.Answers[2].Explanation).To(Equal("Because II."))
	})

	It("marks a typed variant of an MCQ option and a wrong fill-in as incorrect", func() {
		quiz, ids := cardioQuiz(quizOpts{})
		u := learner()
		a := start(u, quiz, "")
		d := submit(u, a.ID, map[int64]string{ids[0]: "nitrate", ids[1]: "Aortic stenosis", ids[2]: "II"})
		Expect(*d.Score).To(Equal(1))
		Expect(*d.Answers[0].IsCorrect).To(BeFalse())
		Expect(*d.Answers[1].IsCorrect).To(BeFalse())
		Expect(*d.Answers[2].IsCorrect).To(BeTrue())
	})

	It("scores the saved progress, with answers given at submission winning", func() {
		quiz, ids := cardioQuiz(quizOpts{})
		u := learner()
		a := start(u, quiz, "")
		Expect(u.Client(h).Post("/api/v1/attempts/progress",
			save(quiz, a.ID, map[int64]string{ids[0]: "Warfarin", ids[1]: "mitral stenosis"}, nil))).To(HaveStatus(200))
		d := submit(u, a.ID, map[int64]string{ids[0]: "Nitrate"})
		Expect(*d.Score).To(Equal(2))
		Expect(*d.Answers[0].UserAnswer).To(Equal("Nitrate"))
		Expect(*d.Answers[1].UserAnswer).To(Equal("mitral stenosis"))
		// Submission clears the saved progress.
		Expect(bodyText(u.Client(h).Get(progressPath(quiz)))).To(Equal("null"))
	})

	It("does not score a second submit twice", func() {
		quiz, ids := cardioQuiz(quizOpts{})
		u := learner()
		a := start(u, quiz, "")
		first := submit(u, a.ID, map[int64]string{ids[0]: "Nitrate"})
		second := submit(u, a.ID, map[int64]string{ids[0]: "Warfarin", ids[1]: "MS", ids[2]: "II"})
		Expect(*second.Score).To(Equal(*first.Score))
		Expect(second.CompletedAt).To(Equal(first.CompletedAt))
		Expect(*second.Answers[0].UserAnswer).To(Equal("Nitrate"))

		var list []attempt
		u.Client(h).Get(fmt.Sprintf("/api/v1/attempts/?quiz_id=%d", quiz)).JSON(&list)
		Expect(list).To(HaveLen(1))
		// A new start after completion is a new attempt.
		Expect(start(u, quiz, "").ID).NotTo(Equal(a.ID))
	})

	It("refuses answers to questions outside the attempt", func() {
		quiz, _ := cardioQuiz(quizOpts{})
		u := learner()
		a := start(u, quiz, "")
		res := u.Client(h).Post(fmt.Sprintf("/api/v1/attempts/%d/submit", a.ID),
			map[string]any{"answers": map[string]string{"999999": "x"}})
		Expect(res).To(HaveError(422, "invalid_request"))
		res = u.Client(h).Post(fmt.Sprintf("/api/v1/attempts/%d/submit", a.ID),
			map[string]any{"answers": map[string]string{"first": "x"}})
		Expect(res).To(HaveError(422, "invalid_request"))
		Expect(getDetail(u, a.ID).CompletedAt).To(BeNil(), "a refused submit changes nothing")
	})

	It("refuses an over-long answer at submission", func() {
		quiz, ids := cardioQuiz(quizOpts{})
		u := learner()
		a := start(u, quiz, "")
		res := u.Client(h).Post(fmt.Sprintf("/api/v1/attempts/%d/submit", a.ID),
			map[string]any{"answers": map[string]string{fmt.Sprint(ids[1]): strings.Repeat("x", 2001)}})
		Expect(res).To(HaveError(422, "invalid_request"))
		Expect(getDetail(u, a.ID).CompletedAt).To(BeNil(), "a refused submit changes nothing")
	})

	It("lets only the owner submit", func() {
		quiz, _ := cardioQuiz(quizOpts{})
		owner, other := learner(), learner()
		a := start(owner, quiz, "")
		Expect(other.Client(h).Post(fmt.Sprintf("/api/v1/attempts/%d/submit", a.ID), nil)).
			To(HaveError(404, "not_found"))
		Expect(getDetail(owner, a.ID).CompletedAt).To(BeNil())
	})
})

var _ = Describe("Timed and study modes", func() {
	It("hides a running timed attempt's answer side and shows it after submission", func() {
		quiz, ids := cardioQuiz(quizOpts{limit: 30})
		u := learner()
		a := start(u, quiz, "")
		d := getDetail(u, a.ID)
		Expect(d.AnswersShown).To(BeFalse())
		for _, ans := range d.Answers {
			Expect(ans.QuestionText).NotTo(BeEmpty())
			Expect(ans.CorrectAnswer).To(BeNil())
			Expect(ans.Explanation).To(BeNil())
			Expect(ans.IsCorrect).To(BeNil())
		}
		// The bank refuses the answer side inside this attempt until it is submitted.
		detailPath := fmt.Sprintf("/api/v1/questions/detail/%d?attempt_id=%d", ids[0], a.ID)
		Expect(u.Client(h).Get(detailPath)).To(HaveError(403, "forbidden"))

		submit(u, a.ID, map[int64]string{ids[0]: "Nitrate"})
		d = getDetail(u, a.ID)
		Expect(d.AnswersShown).To(BeTrue())
		Expect(*d.Answers[0].CorrectAnswer).To(Equal("Nitrate"))
		res := u.Client(h).Get(detailPath)
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()["correct_answer"]).To(Equal("Nitrate"))
		// The quiz review opens to a learner with a completed attempt.
		Expect(u.Client(h).Get(fmt.Sprintf("/api/v1/quizzes/%d/review", quiz))).To(HaveStatus(200))
	})

	It("shows a study attempt's answer side at once, and only inside the caller's own attempt", func() {
		quiz, ids := cardioQuiz(quizOpts{mode: "learning"})
		u, other := learner(), learner()
		a := start(u, quiz, "")
		Expect(a.Mode).To(Equal("learning"))
		d := getDetail(u, a.ID)
		Expect(d.AnswersShown).To(BeTrue())
		Expect(*d.Answers[1].CorrectAnswer).To(Equal("Mitral stenosis|MS"))
		Expect(d.Answers[1].IsCorrect).To(BeNil(), "nothing is graded before submission")

		Expect(u.Client(h).Get(fmt.Sprintf("/api/v1/questions/detail/%d?attempt_id=%d", ids[1], a.ID))).To(HaveStatus(200))
		// Someone else's attempt authorises nothing; neither does no attempt.
		Expect(other.Client(h).Get(fmt.Sprintf("/api/v1/questions/detail/%d?attempt_id=%d", ids[1], a.ID))).
			To(HaveError(403, "forbidden"))
		// A question outside the attempt stays closed.
		outside := createQuestion(mcq("Outside?", "Yes", "Yes", "No"))
		Expect(u.Client(h).Get(fmt.Sprintf("/api/v1/questions/detail/%d?attempt_id=%d", outside, a.ID))).
			To(HaveError(403, "forbidden"))
		// The review needs a completed attempt.
		Expect(u.Client(h).Get(fmt.Sprintf("/api/v1/quizzes/%d/review", quiz))).To(HaveError(403, "forbidden"))
	})
})

var _ = Describe("History as sat", func() {
	It("keeps an attempt's questions as they were when bank edits come later", func() {
		quiz, ids := cardioQuiz(quizOpts{})
		u := learner()
		a := start(u, quiz, "")
		before := getDetail(u, a.ID)

		res := mod.Client(h).Patch(fmt.Sprintf("/api/v1/questions/%d", ids[0]), map[string]any{
			"question_text": "Rewritten stem", "options": []string{"A", "B"}, "correct_answer": "B",
			"explanation": "Rewritten."})
		Expect(res).To(HaveStatus(200))

		d := submit(u, a.ID, map[int64]string{ids[0]: "Nitrate"})
		Expect(d.Answers[0].QuestionText).To(Equal(before.Answers[0].QuestionText))
		Expect(d.Answers[0].Options).To(Equal([]string{"Nitrate", "Warfarin", "Insulin"}))
		Expect(*d.Answers[0].CorrectAnswer).To(Equal("Nitrate"))
		Expect(*d.Answers[0].IsCorrect).To(BeTrue(), "scored against the question as sat")
		Expect(d.Answers[0].Version).To(Equal(before.Answers[0].Version))

		// A new attempt sits the question as it is now.
		b := start(u, quiz, "")
		nd := getDetail(u, b.ID)
		Expect(nd.Answers[0].QuestionText).To(Equal("Rewritten stem"))
		Expect(nd.Answers[0].Version).To(BeNumerically(">", before.Answers[0].Version))
		// And the old one still reads as sat.
		Expect(getDetail(u, a.ID).Answers[0].QuestionText).To(Equal(before.Answers[0].QuestionText))
	})

	It("keeps the flagged questions with the attempt, refusing one outside it", func() {
		quiz, ids := cardioQuiz(quizOpts{})
		u := learner()
		a := start(u, quiz, "")
		path := fmt.Sprintf("/api/v1/attempts/%d/submit", a.ID)
		res := u.Client(h).Post(path, map[string]any{"flagged": []int64{ids[0], 999999}})
		Expect(res).To(HaveError(422, "invalid_request"))
		Expect(res.Map()["error"].(map[string]any)["message"]).To(ContainSubstring("question 999999 is not in this attempt"))
		Expect(getDetail(u, a.ID).CompletedAt).To(BeNil(), "a refused submit changes nothing")

		res = u.Client(h).Post(path, map[string]any{"answers": map[string]string{fmt.Sprint(ids[0]): "Nitrate"},
			"flagged": []int64{ids[0], ids[2]}})
		Expect(res).To(HaveStatus(200))
		var flags []bool
		for _, x := range getDetail(u, a.ID).Answers {
			flags = append(flags, x.Flagged)
		}
		Expect(flags).To(Equal([]bool{true, false, true}))
		var stored []bool
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT flagged FROM attempts.answers WHERE attempt_id = ? ORDER BY position`,
			a.ID).Scan(&stored).Error).To(Succeed())
		Expect(stored).To(Equal(flags))

		By("a second submit changes no flag")
		Expect(u.Client(h).Post(path, map[string]any{"flagged": []int64{ids[1]}})).To(HaveStatus(200))
		Expect(getDetail(u, a.ID).Answers[1].Flagged).To(BeFalse())
	})
})
