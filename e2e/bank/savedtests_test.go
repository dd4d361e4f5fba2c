package bank_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

var _ = Describe("POST /saved-tests", func() {
	It("lets a learner build a test of the questions open to them, that only they open", func() {
		learner, other := h.NewUser(auth.RoleUser), h.NewUser(auth.RoleUser)
		favs := []int64{createOpen(mcq(unique("Own test open "))), createOpen(mcq(unique("Own test open ")))}
		hidden := create(mcq(unique("Own test hidden ")))

		res := learner.Client(h).Post(api+"/saved-tests",
			q{"title": "  My renal drill ", "mode": "learning", "question_ids": []int64{favs[1], hidden, favs[0]}})
		Expect(res).To(HaveStatus(201))
		var body struct {
			ID             int64  `json:"id"`
			Title          string `json:"title"`
			QuestionsCount int    `json:"questions_count"`
			Mode           string `json:"mode"`
		}
		res.JSON(&body)
		Expect(body.ID).NotTo(BeZero())
		Expect(body.Title).To(Equal("My renal drill"))
		Expect(body.QuestionsCount).To(Equal(2), "the hidden question is left out")
		Expect(body.Mode).To(Equal("learning"))

		Expect(questionIDs(getQuiz(learner, body.ID, ""))).To(Equal([]int64{favs[1], favs[0]}))
		Expect(other.Client(h).Get(path("/quizzes/%d", body.ID))).To(HaveError(404, "not_found"))
		Expect(quizIDs(other.Client(h).Get(api + "/quizzes/"))).NotTo(ContainElement(body.ID))

		var row struct {
			UserID      int64
			IsPublished bool
			Mode        string
			Owner       int64
		}
		Expect(h.App.DB.Conn(ctxBG).Raw(`SELECT z.user_id, z.is_published, z.mode, s.user_id AS owner
			FROM bank.quizzes z JOIN bank.saved_tests s ON s.quiz_id = z.id WHERE z.id = ?`, body.ID).
			Scan(&row).Error).To(Succeed())
		Expect(row).To(Equal(struct {
			UserID      int64
			IsPublished bool
			Mode        string
			Owner       int64
		}{learner.ID, false, "learning", learner.ID}))
	})

	It("defaults to timed and keeps the time limit", func() {
		learner := h.NewUser(auth.RoleUser)
		fav := createOpen(mcq(unique("Own test timed ")))
		res := learner.Client(h).Post(api+"/saved-tests", q{"title": "Timed", "time_limit_minutes": 7, "question_ids": []int64{fav}})
		Expect(res).To(HaveStatus(201))
		Expect(res.Map()["mode"]).To(Equal("timed"))
		var limit *int
		Expect(h.App.DB.Conn(ctxBG).Raw(`SELECT time_limit_minutes FROM bank.quizzes WHERE id = ?`, res.Map()["id"]).
			Scan(&limit).Error).To(Succeed())
		Expect(limit).To(HaveValue(Equal(7)))
	})

	It("answers 409 when none of the questions is open to the learner, and files nothing", func() {
		learner := h.NewUser(auth.RoleUser)
		hidden := create(mcq(unique("Own test closed ")))
		Expect(learner.Client(h).Post(api+"/saved-tests", q{"title": "Nothing", "question_ids": []int64{hidden, 987654321}})).
			To(HaveError(409, "conflict"))
		var n int64
		Expect(h.App.DB.Conn(ctxBG).Raw(`SELECT count(*) FROM bank.saved_tests WHERE user_id = ?`, learner.ID).
			Scan(&n).Error).To(Succeed())
		Expect(n).To(BeZero())
	})

	DescribeTable("refuses a malformed body with 422 in the envelope",
		func(body func() q) {
			learner := h.NewUser(auth.RoleUser)
			Expect(learner.Client(h).Post(api+"/saved-tests", body())).To(HaveError(422, "invalid_request"))
		},
		Entry("bad mode", func() q { return q{"title": "x", "mode": "exam", "question_ids": []int64{1}} }),
		Entry("empty title", func() q { return q{"title": "", "question_ids": []int64{1}} }),
		Entry("blank title", func() q { return q{"title": "   ", "question_ids": []int64{1}} }),
		Entry("no ids", func() q { return q{"title": "x", "question_ids": []int64{}} }),
		Entry("ids missing", func() q { return q{"title": "x"} }),
		Entry("too many ids", func() q {
			ids := make([]int64, 201)
			for i := range ids {
				ids[i] = int64(i + 1)
			}
			return q{"title": "x", "question_ids": ids}
		}),
		Entry("zero time limit", func() q { return q{"title": "x", "time_limit_minutes": 0, "question_ids": []int64{1}} }),
	)
})
