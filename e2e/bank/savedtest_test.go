package bank_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/app"
	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/modules/bank"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
)

var _ = Describe("Saved tests", func() {
	var m *bank.Module
	BeforeEach(func() { m = app.Lookup[*bank.Module](h.App) })

	// stored reads a saved test as the bank keeps it.
	type storedQuiz struct {
		UserID           int64
		Mode             string
		TimeLimitMinutes *int
		IsPublished      bool
		Owner            *int64
	}
	stored := func(quiz int64) (storedQuiz, []int64) {
		var z storedQuiz
		conn := h.App.DB.Conn(ctxBG)
		ExpectWithOffset(1, conn.Raw(`SELECT z.user_id, z.mode, z.time_limit_minutes, z.is_published, s.user_id AS owner
			FROM bank.quizzes z LEFT JOIN bank.saved_tests s ON s.quiz_id = z.id WHERE z.id = ?`, quiz).Scan(&z).Error).To(Succeed())
		var qs []int64
		ExpectWithOffset(1, conn.Raw(`SELECT question_id FROM bank.quiz_questions WHERE quiz_id = ? ORDER BY position`, quiz).
			Scan(&qs).Error).To(Succeed())
		return z, qs
	}

	It("builds an unpublished quiz of the questions the learner may see, in order, that only they (and moderators) sit", func() {
		learner, other := h.NewUser(auth.RoleUser), h.NewUser(auth.RoleUser)
		inQuiz := []int64{create(mcq(unique("Saved open "))), create(mcq(unique("Saved open ")))}
		publish(quiz(unique("Saved source "), inQuiz))
		hidden := create(mcq(unique("Saved hidden ")))
		fav := create(mcq(unique("Saved favourite ")))
		withdrawn := quiz(unique("Saved withdrawn "), []int64{fav})
		publish(withdrawn)
		Expect(learner.Client(h).Post(api+"/favorites", q{"question_id": fav})).To(HaveStatus(201))
		Expect(mod.Client(h).Patch(path("/quizzes/%d/publish?published=false", withdrawn), nil)).To(HaveStatus(200))
		trashed := create(mcq(unique("Saved trashed ")))
		publish(quiz(unique("Saved source "), []int64{trashed}))
		Expect(mod.Client(h).Delete(path("/questions/%d", trashed))).To(HaveStatus(204))

		ask := []int64{inQuiz[1], hidden, fav, trashed, inQuiz[0], inQuiz[1]}
		id, err := m.BuildSavedTest(ctxBG, principalOf(learner), "Renal: week 1", bank.ModeTimed, 12, ask)
		Expect(err).NotTo(HaveOccurred())
		z, qs := stored(id)
		Expect(qs).To(Equal([]int64{inQuiz[1], inQuiz[0]}),
			"hidden, trashed and repeated questions are left out, and a favourite reaches nothing")
		Expect(z.UserID).To(Equal(learner.ID))
		Expect(z.Owner).To(HaveValue(Equal(learner.ID)))
		Expect(z.Mode).To(Equal("timed"))
		Expect(z.TimeLimitMinutes).To(HaveValue(Equal(12)))
		Expect(z.IsPublished).To(BeFalse())

		// The owner sits it; another learner cannot reach it at all.
		res := learner.Client(h).Post(path("/attempts/start?quiz_id=%d", id), nil)
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()["total_questions"]).To(BeNumerically("==", 2))
		Expect(other.Client(h).Post(path("/attempts/start?quiz_id=%d", id), nil)).To(HaveError(404, "not_found"))
		Expect(other.Client(h).Get(path("/quizzes/%d", id))).To(HaveError(404, "not_found"))
		Expect(learner.Client(h).Get(api + "/quizzes/").List()).NotTo(ContainElement(HaveKeyWithValue("id", BeNumerically("==", id))))
		Expect(mod.Client(h).Get(api+"/quizzes/").List()).NotTo(ContainElement(HaveKeyWithValue("id", BeNumerically("==", id))),
			"a learner's saved test is not one of the moderators' quizzes")
		Expect(mod.Client(h).Post(path("/attempts/start?quiz_id=%d", id), nil)).To(HaveStatus(200))

		// A learning test without a limit.
		id2, err := m.BuildSavedTest(ctxBG, principalOf(learner), "Renal: week 1", bank.ModeLearning, 0, inQuiz)
		Expect(err).NotTo(HaveOccurred())
		z, qs = stored(id2)
		Expect(z.Mode).To(Equal("learning"))
		Expect(z.TimeLimitMinutes).To(BeNil())
		Expect(qs).To(Equal(inQuiz))

		// A moderator reaches the whole bank.
		id3, err := m.BuildSavedTest(ctxBG, principalOf(mod), "Mine", bank.ModeLearning, 0, []int64{hidden})
		Expect(err).NotTo(HaveOccurred())
		_, qs = stored(id3)
		Expect(qs).To(Equal([]int64{hidden}))
	})

	It("refuses when none of the questions is open to the learner, and refuses a bad mode, title or limit", func() {
		learner := h.NewUser(auth.RoleUser)
		hidden := create(mcq(unique("Saved hidden ")))
		_, err := m.BuildSavedTest(ctxBG, principalOf(learner), "Nothing", bank.ModeLearning, 0, []int64{hidden, 999999999})
		Expect(apperr.Is(err, apperr.Conflict)).To(BeTrue(), fmt.Sprint(err))
		var n int64
		Expect(h.App.DB.Conn(ctxBG).Raw(`SELECT count(*) FROM bank.saved_tests WHERE user_id = ?`, learner.ID).Scan(&n).Error).To(Succeed())
		Expect(n).To(BeZero())

		for _, c := range []struct {
			title, mode string
			limit       int
			field       string
		}{{"  ", bank.ModeLearning, 0, "title"}, {"T", "sideways", 0, "mode"}, {"T", bank.ModeTimed, -1, "time_limit_minutes"}} {
			_, err := m.BuildSavedTest(ctxBG, principalOf(learner), c.title, c.mode, c.limit, []int64{hidden})
			var ae *apperr.Error
			Expect(err).To(BeAssignableToTypeOf(ae))
			ae = err.(*apperr.Error)
			Expect(ae.Code).To(Equal(apperr.Invalid))
			Expect(ae.Fields).To(ContainElement(HaveField("Field", c.field)))
		}
	})
})

func principalOf(u *User) auth.Principal { return auth.Principal{UserID: u.ID, Role: u.Role} }
