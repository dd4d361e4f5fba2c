package bank_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

// The answer side and the quiz review open through the attempts module
// (the bank's AttemptAccess port), driven here through attempts' own routes.
var _ = Describe("The answer side inside an attempt", func() {
	var learner, other *User
	var inQuiz, outside int64

	start := func(u *User, quizID int64, mode string) int64 {
		res := u.Client(h).Post(path("/attempts/start?quiz_id=%d&fresh=true&mode=%s", quizID, mode), nil)
		ExpectWithOffset(1, res).To(HaveStatus(200))
		return int64(res.Map()["id"].(float64))
	}

	BeforeEach(func() {
		learner = h.NewUser(auth.RoleUser)
		other = h.NewUser(auth.RoleUser)
		inQuiz = create(mcq(unique("Sat question")))
		outside = create(mcq(unique("Not in the attempt")))
	})

	It("opens after a timed attempt is submitted, for that attempt's questions, to its owner only", func() {
		z := quiz(unique("Timed sitting"), []int64{inQuiz})
		publish(z)
		attempt := start(learner, z, "timed")

		res := learner.Client(h).Get(path("/questions/detail/%d?attempt_id=%d", inQuiz, attempt))
		Expect(res).To(HaveError(403, "forbidden"))
		Expect(learner.Client(h).Get(path("/quizzes/%d/review", z))).To(HaveError(403, "forbidden"))

		Expect(learner.Client(h).Post(path("/attempts/%d/submit", attempt), q{"answers": q{}})).To(HaveStatus(200))

		m := learner.Client(h).Get(path("/questions/detail/%d?attempt_id=%d", inQuiz, attempt)).Map()
		Expect(m["can_edit"]).To(BeFalse())
		Expect(m["correct_answer"]).To(Equal("Bravo"))
		Expect(m["explanation"]).To(Equal("Bravo is right because of the rule."))
		Expect(m["figures"]).To(HaveLen(3))

		Expect(learner.Client(h).Get(path("/questions/detail/%d?attempt_id=%d", outside, attempt))).
			To(HaveError(403, "forbidden"))
		Expect(other.Client(h).Get(path("/questions/detail/%d?attempt_id=%d", inQuiz, attempt))).
			To(HaveError(403, "forbidden"))
		// Without the attempt id the detail stays redacted.
		Expect(learner.Client(h).Get(path("/questions/detail/%d", inQuiz)).Map()["correct_answer"]).To(BeNil())

		review := learner.Client(h).Get(path("/quizzes/%d/review", z))
		Expect(review).To(HaveStatus(200))
		Expect(review.Map()["questions"].([]any)[0].(map[string]any)["correct_answer"]).To(Equal("Bravo"))
		Expect(other.Client(h).Get(path("/quizzes/%d/review", z))).To(HaveError(403, "forbidden"))
	})

	It("opens at once in a study attempt", func() {
		z := quiz(unique("Study sitting"), []int64{inQuiz}, q{"mode": "learning"})
		publish(z)
		attempt := start(learner, z, "learning")
		m := learner.Client(h).Get(path("/questions/detail/%d?attempt_id=%d", inQuiz, attempt)).Map()
		Expect(m["correct_answer"]).To(Equal("Bravo"))
		Expect(m["can_edit"]).To(BeFalse())
	})
})
