package attempts_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/roundsedu/rounds/app"
	"github.com/roundsedu/rounds/modules/attempts"
)

// The facade other modules call (media for attempt_id on /uploads) is
// asked here directly on the running app; the bank's use of it is tested
// through /questions/detail in submit_test.go.
var _ = Describe("The attempts facade", func() {
	It("opens stem pictures inside the caller's own attempt, answer-side media and questions only once it is opened", func() {
		withImage := createQuestion(q{"question_text": "Which rhythm?", "question_type": "mcq",
			"options": []string{"AF", "Flutter"}, "correct_answer": "AF",
			"explanation_image_path": "figures/ecg-af-annotated.png", "image_path": "figures/ecg-af.png"})
		plain := createQuestion(mcq("Plain?", "Yes", "Yes", "No"))
		quiz := createQuiz("Media quiz", quizOpts{limit: 10}, withImage, plain)
		u, other := learner(), learner()
		a := start(u, quiz, "")
		f := app.Lookup[*attempts.Module](h.App)

		ok, err := f.AuthorizesMedia(ctxb, u.ID, a.ID, "figures/ecg-af-annotated.png")
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeFalse(), "a running timed attempt opens no answer-side file")
		ok, err = f.AuthorizesMedia(ctxb, u.ID, a.ID, "figures/ecg-af.png")
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeTrue(), "but shows the question's own picture")
		ok, _ = f.AuthorizesMedia(ctxb, other.ID, a.ID, "figures/ecg-af.png")
		Expect(ok).To(BeFalse(), "to the one sitting it")
		qs, err := f.AuthorizedQuestions(ctxb, u.ID, a.ID)
		Expect(err).NotTo(HaveOccurred())
		Expect(qs).To(BeEmpty())

		submit(u, a.ID, nil)
		ok, _ = f.AuthorizesMedia(ctxb, u.ID, a.ID, "figures/ecg-af-annotated.png")
		Expect(ok).To(BeTrue())
		ok, _ = f.AuthorizesMedia(ctxb, u.ID, a.ID, "figures/someone-elses.png")
		Expect(ok).To(BeFalse(), "only keys the attempt sat")
		ok, _ = f.AuthorizesMedia(ctxb, other.ID, a.ID, "figures/ecg-af-annotated.png")
		Expect(ok).To(BeFalse(), "only the caller's own attempt")
		qs, _ = f.AuthorizedQuestions(ctxb, u.ID, a.ID)
		Expect(qs).To(Equal([]int64{withImage, plain}))
		qs, _ = f.AuthorizedQuestions(ctxb, other.ID, a.ID)
		Expect(qs).To(BeEmpty())

		done, err := f.HasCompletedAttempt(ctxb, u.ID, quiz)
		Expect(err).NotTo(HaveOccurred())
		Expect(done).To(BeTrue())
		done, _ = f.HasCompletedAttempt(ctxb, other.ID, quiz)
		Expect(done).To(BeFalse())
	})
})
