package bank_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

var _ = Describe("Timestamps", func() {
	// dbNow is the database's clock: every bank timestamp comes from it.
	dbNow := func() time.Time {
		var t time.Time
		ExpectWithOffset(1, h.App.DB.Conn(ctxBG).Raw(`SELECT clock_timestamp()`).Scan(&t).Error).To(Succeed())
		return t
	}
	stored := func(query string, id int64) time.Time {
		var t time.Time
		ExpectWithOffset(1, h.App.DB.Conn(ctxBG).Raw(query, id).Scan(&t).Error).To(Succeed())
		return t
	}
	answered := func(res *Response, key string) time.Time {
		t, err := time.Parse(time.RFC3339Nano, res.Map()[key].(string))
		ExpectWithOffset(1, err).NotTo(HaveOccurred())
		return t
	}

	It("are set by the database on every row the bank creates, trashes or restores, and answered as stored", func() {
		before := dbNow()
		cat := category(unique("StampCat"), nil, nil)
		res := mod.Client(h).Post(api+"/questions/create", mcq(unique("Stamped"), q{"question_category_id": cat}))
		Expect(res).To(HaveStatus(201))
		id := int64(res.Map()["id"].(float64))
		questionAt := answered(res, "created_at")
		Expect(mod.Client(h).Patch(path("/questions/%d", id), q{"question_text": unique("Restamped")})).To(HaveStatus(200))
		z := quiz(unique("StampQuiz"), []int64{id})
		publish(z) // a learner reaches it to favourite it
		qc := mod.Client(h).Post(api+"/categories/", q{"name": unique("StampQuizCat")})
		Expect(qc).To(HaveStatus(201))
		fav := h.NewUser(auth.RoleUser).Client(h).Post(api+"/favorites", q{"question_id": id})
		Expect(fav).To(HaveStatus(201))
		Expect(mod.Client(h).Delete(path("/quizzes/%d", z))).To(HaveStatus(204))
		Expect(mod.Client(h).Delete(path("/questions/%d", id))).To(HaveStatus(204))
		after := dbNow()

		within := And(BeTemporally(">=", before), BeTemporally("<=", after))
		Expect(stored(`SELECT created_at FROM bank.question_categories WHERE id = ?`, cat)).To(within)
		Expect(stored(`SELECT updated_at FROM bank.question_categories WHERE id = ?`, cat)).To(within)
		Expect(stored(`SELECT created_at FROM bank.questions WHERE id = ?`, id)).To(And(within, BeTemporally("==", questionAt)))
		Expect(stored(`SELECT updated_at FROM bank.questions WHERE id = ?`, id)).To(within)
		Expect(stored(`SELECT deleted_at FROM bank.questions WHERE id = ?`, id)).To(within)
		Expect(stored(`SELECT max(created_at) FROM bank.question_versions WHERE question_id = ?`, id)).To(within)
		Expect(stored(`SELECT created_at FROM bank.quizzes WHERE id = ?`, z)).To(within)
		Expect(stored(`SELECT deleted_at FROM bank.quizzes WHERE id = ?`, z)).To(within)
		Expect(stored(`SELECT created_at FROM bank.quiz_categories WHERE id = ?`, int64(qc.Map()["id"].(float64)))).To(within)
		favID := int64(fav.Map()["id"].(float64))
		Expect(stored(`SELECT created_at FROM bank.favorites WHERE id = ?`, favID)).
			To(And(within, BeTemporally("==", answered(fav, "created_at"))))

		// The trash answers the database's deletion time; a restore clears it.
		trashed := mod.Client(h).Get(path("/questions/detail/%d", id))
		Expect(answered(trashed, "deleted_at")).To(BeTemporally("==", stored(`SELECT deleted_at FROM bank.questions WHERE id = ?`, id)))
		restored := mod.Client(h).Patch(path("/questions/%d/restore", id), nil)
		Expect(restored).To(HaveStatus(200))
		Expect(restored.Map()["deleted_at"]).To(BeNil())
		Expect(answered(restored, "updated_at")).To(BeTemporally(">=", after))
	})

	It("a zero time can never be stored", func() {
		err := h.App.DB.Conn(ctxBG).Exec(`INSERT INTO bank.quiz_categories (name, created_at) VALUES (?, '0001-01-01')`,
			unique("ZeroCat")).Error
		Expect(err).To(MatchError(ContainSubstring("quiz_categories_times_set")))
	})
})
