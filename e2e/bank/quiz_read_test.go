package bank_test

import (
	"fmt"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/app"
	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/modules/bank"
	"github.com/roundsedu/rounds/platform/auth"
)

// GET /quizzes/{id} serves its question list from a cache keyed by the
// quiz's content version: these try that the answer side stays exact per mode for
// every role in whatever order the variants are read, and that every
// change a reader can see shows on the next read.
var _ = Describe("Reading a quiz through its cached question list", func() {
	// answered reports whether every question of d carries its answer side,
	// failing when some do and some do not.
	answered := func(d quizDetail) bool {
		shown := 0
		for _, x := range d.Questions {
			if x["correct_answer"] != nil {
				ExpectWithOffset(1, x["explanation"]).NotTo(BeNil())
				ExpectWithOffset(1, x["figures"]).To(HaveLen(3))
				shown++
			} else {
				ExpectWithOffset(1, x["explanation"]).To(BeNil())
				ExpectWithOffset(1, x["option_explanations"]).To(BeNil())
				ExpectWithOffset(1, x["figures"]).To(ConsistOf(HaveKeyWithValue("role", "stem")))
			}
		}
		ExpectWithOffset(1, shown == 0 || shown == len(d.Questions)).To(BeTrue(), "%d of %d answered", shown, len(d.Questions))
		ExpectWithOffset(1, d.AnswersShown).To(Equal(shown > 0))
		return shown > 0
	}

	It("shows the answer side exactly per mode, for every role, in either order of reading", func() {
		a, b := create(mcq(unique("Cached a"))), create(mcq(unique("Cached b")))
		timed := quiz(unique("Cached timed"), []int64{a, b})
		learning := quiz(unique("Cached learning"), []int64{b, a}, q{"mode": "learning"})
		publish(timed)
		publish(learning)
		hidden := quiz(unique("Cached hidden"), []int64{a})
		holder := grantHolder("quiz", hidden)
		users := map[string]*User{"learner": h.NewUser(auth.RoleUser), "quiz grant holder": holder,
			"moderator": mod, "admin": admin}
		reads := []struct {
			quiz  int64
			query string
			want  bool
		}{
			{timed, "", false}, {timed, "?study=true", true}, {timed, "", false}, {timed, "?study=false", false},
			{learning, "?study=true", true}, {learning, "", true}, {learning, "?study=false", true},
		}
		for name, u := range users {
			for i, r := range reads {
				d := getQuiz(u, r.quiz, r.query)
				Expect(answered(d)).To(Equal(r.want), "%s, read %d", name, i)
				Expect(d.ID).To(Equal(r.quiz))
			}
			Expect(questionIDs(getQuiz(u, learning, ""))).To(Equal([]int64{b, a}))
		}
		Expect(answered(getQuiz(holder, hidden, ""))).To(BeFalse())
		Expect(answered(getQuiz(holder, hidden, "?study=true"))).To(BeTrue())
		Expect(users["learner"].Client(h).Get(path("/quizzes/%d", hidden))).To(HaveError(404, "not_found"))
		Expect(users["learner"].Client(h).Get(path("/quizzes/%d?study=true", hidden))).To(HaveError(404, "not_found"))
	})

	It("shows every change on the next read, and the timed read never carries answers", func() {
		cat := category(unique("Cached cat"), nil, nil)
		other := category(unique("Cached other"), nil, nil)
		a := create(mcq(unique("Cached one"), q{"question_category_id": cat}))
		b := create(mcq(unique("Cached two")))
		c := create(mcq(unique("Cached three")))
		z := quiz(unique("Cached changes"), []int64{a, b, c})
		publish(z)
		learner := h.NewUser(auth.RoleUser)
		// read reads the quiz as the learner: the timed read redacted, the
		// study one not, its count that of its list, and the stored count
		// and version (bank.quiz_contents) those of a fresh recount.
		version := int64(-1)
		read := func(query string) quizDetail {
			d := getQuiz(learner, z, query)
			ExpectWithOffset(1, answered(d)).To(Equal(query != ""), "read %q", query)
			ExpectWithOffset(1, d.QuestionsCount).To(Equal(len(d.Questions)))
			var stored struct{ Version, QuestionsCount, Live int64 }
			ExpectWithOffset(1, h.App.DB.Conn(ctxBG).Raw(`SELECT k.version, k.questions_count,
				(SELECT count(*) FROM bank.quiz_questions qq JOIN bank.questions q ON q.id = qq.question_id
				 AND q.deleted_at IS NULL WHERE qq.quiz_id = k.quiz_id) AS live
				FROM bank.quiz_contents k WHERE k.quiz_id = ?`, z).Scan(&stored).Error).To(Succeed())
			ExpectWithOffset(1, stored.QuestionsCount).To(Equal(stored.Live))
			ExpectWithOffset(1, stored.Live).To(BeEquivalentTo(d.QuestionsCount))
			version = stored.Version
			return d
		}
		// changed reads both answer sides after a write (the timed one first,
		// then the cached study one) and checks the write moved the version.
		changed := func() quizDetail {
			before := version
			d := read("")
			ExpectWithOffset(1, version).To(BeNumerically(">", before), "the write moved the content version")
			read("?study=true")
			return d
		}
		first := func(d quizDetail, key string) any { return d.Questions[0][key] }
		for _, mode := range []string{"", "?study=true"} {
			read(mode) // cached
		}

		Expect(mod.Client(h).Patch(path("/questions/%d", a), q{"question_text": "Edited stem"})).To(HaveStatus(200))
		d := changed()
		Expect(first(d, "question_text")).To(Equal("Edited stem"))
		Expect(first(d, "version")).To(BeEquivalentTo(2))
		Expect(mod.Client(h).Patch(path("/quizzes/%d/questions/%d", z, a), q{"explanation": "New why"})).
			To(HaveStatus(200))
		changed()
		Expect(first(read("?study=true"), "explanation")).To(Equal("New why"))
		Expect(first(read(""), "version")).To(BeEquivalentTo(3))

		// A difficulty rating is not an edit (the question's version stays).
		_, err := app.Lookup[*bank.Module](h.App).SetDifficulty(ctxBG, map[int64]string{a: "hard"})
		Expect(err).NotTo(HaveOccurred())
		d = changed()
		Expect(first(d, "difficulty")).To(Equal("hard"))
		Expect(first(d, "version")).To(BeEquivalentTo(3))

		renamed := unique("Renamed cat")
		Expect(mod.Client(h).Patch(path("/question-categories/%d", cat), q{"name": renamed})).To(HaveStatus(200))
		Expect(first(changed(), "question_category_name")).To(Equal(renamed))
		Expect(mod.Client(h).Patch(path("/questions/%d/category?category_id=%d", a, other), nil)).To(HaveStatus(200))
		Expect(first(changed(), "question_category_id")).To(BeEquivalentTo(other))
		// Deleting a category moves its questions (to move_to, here none).
		Expect(mod.Client(h).Delete(path("/question-categories/%d", other))).To(HaveStatus(204))
		d = changed()
		Expect(first(d, "question_category_id")).To(BeNil())
		Expect(first(d, "question_category_name")).To(BeNil())

		// No route reorders a quiz or adds to one: the links are written as a
		// tool would, as another process: this one hears of them from the
		// triggers' notifications (quiz rows it keeps), not from its own write.
		heard := func(want []int64) {
			EventuallyWithOffset(1, func() []int64 { return questionIDs(getQuiz(learner, z, "")) }).
				WithTimeout(5 * time.Second).WithPolling(5 * time.Millisecond).Should(Equal(want))
		}
		Expect(h.App.DB.Conn(ctxBG).Exec(`UPDATE bank.quiz_questions SET position = 4 - position WHERE quiz_id = ?`, z).
			Error).To(Succeed())
		heard([]int64{c, b, a})
		Expect(questionIDs(changed())).To(Equal([]int64{c, b, a}))
		added := create(mcq(unique("Cached added")))
		Expect(h.App.DB.Conn(ctxBG).Exec(`INSERT INTO bank.quiz_questions (quiz_id, question_id, position) VALUES (?, ?, 9)`,
			z, added).Error).To(Succeed())
		heard([]int64{c, b, a, added})
		d = changed()
		Expect(questionIDs(d)).To(Equal([]int64{c, b, a, added}))
		Expect(d.QuestionsCount).To(Equal(4))
		Expect(h.App.DB.Conn(ctxBG).Exec(`DELETE FROM bank.quiz_questions WHERE quiz_id = ? AND question_id = ?`, z, added).
			Error).To(Succeed())
		heard([]int64{c, b, a})
		Expect(questionIDs(changed())).To(Equal([]int64{c, b, a}))

		Expect(mod.Client(h).Delete(path("/questions/%d", a))).To(HaveStatus(204))
		d = changed()
		Expect(questionIDs(d)).To(Equal([]int64{c, b}))
		Expect(d.QuestionsCount).To(Equal(2))
		Expect(mod.Client(h).Patch(path("/questions/%d/restore", a), nil)).To(HaveStatus(200))
		d = changed()
		Expect(questionIDs(d)).To(Equal([]int64{c, b, a}))
		Expect(d.QuestionsCount).To(Equal(3))
		Expect(mod.Client(h).Delete(path("/questions/%d", c))).To(HaveStatus(204))
		changed()
		Expect(mod.Client(h).Delete(path("/questions/%d/permanent", c))).To(HaveStatus(204))
		Expect(questionIDs(read(""))).To(Equal([]int64{b, a}))
		Expect(mod.Client(h).Patch(path("/questions/%d/restore", c), nil)).To(HaveError(404, "not_found"))

		Expect(mod.Client(h).Patch(path("/quizzes/%d", z), q{"title": "Cached renamed"})).To(HaveStatus(200))
		Expect(read("").Title).To(Equal("Cached renamed"))
		Expect(mod.Client(h).Patch(fmt.Sprintf("%s/quizzes/%d/publish?published=false", api, z), nil)).To(HaveStatus(200))
		Expect(learner.Client(h).Get(path("/quizzes/%d", z))).To(HaveError(404, "not_found"))
		publish(z)

		// Removing the link of a question another quiz shares drops it here only.
		sharer := quiz(unique("Cached sharer"), []int64{b})
		Expect(mod.Client(h).Delete(path("/quizzes/%d/questions/%d", z, b))).To(HaveStatus(204))
		d = changed()
		Expect(questionIDs(d)).To(Equal([]int64{a}))
		Expect(d.QuestionsCount).To(Equal(1))
		Expect(getQuiz(mod, sharer, "").QuestionsCount).To(Equal(1))
	})

	It("moves the content version without waiting for a quiz row a quiz route holds", func() {
		// The quiz routes lock the quiz row before a question (removing one
		// from a quiz); the triggers lock bank.quiz_contents after one. A
		// trash or an edit must not wait for the quiz row, or the two orders
		// could deadlock (docs/decisions/bank.md).
		a, b := create(mcq(unique("Held one"))), create(mcq(unique("Held two")))
		z := quiz(unique("Held quiz"), []int64{a, b})
		publish(z)
		learner := h.NewUser(auth.RoleUser)
		Expect(questionIDs(getQuiz(learner, z, ""))).To(Equal([]int64{a, b}))

		holder, err := h.App.DB.StdPool().BeginTx(ctxBG, nil)
		Expect(err).NotTo(HaveOccurred())
		defer func() { _ = holder.Rollback() }()
		_, err = holder.ExecContext(ctxBG, `SELECT 1 FROM bank.quizzes WHERE id = $1 FOR UPDATE`, z)
		Expect(err).NotTo(HaveOccurred())
		Expect(mod.Client(h).Patch(path("/questions/%d", b), q{"question_text": "Held edit"})).To(HaveStatus(200))
		Expect(mod.Client(h).Delete(path("/questions/%d", a))).To(HaveStatus(204))
		Expect(holder.Rollback()).To(Succeed())

		d := getQuiz(learner, z, "")
		Expect(questionIDs(d)).To(Equal([]int64{b}))
		Expect(d.QuestionsCount).To(Equal(1))
		Expect(d.Questions[0]["question_text"]).To(Equal("Held edit"))
		Expect(d.Questions[0]["correct_answer"]).To(BeNil())
	})

	It("keeps the contract: questions is an array of QuestionBody in the OpenAPI document", func() {
		var doc struct {
			Components struct {
				Schemas map[string]struct {
					Properties map[string]struct {
						Type  any `json:"type"`
						Items struct {
							Ref string `json:"$ref"`
						} `json:"items"`
					} `json:"properties"`
				} `json:"schemas"`
			} `json:"components"`
		}
		h.Anon().Get("/api/openapi.json").JSON(&doc)
		Expect(doc.Components.Schemas).To(HaveKey("QuizDetailBody"))
		questions := doc.Components.Schemas["QuizDetailBody"].Properties["questions"]
		Expect(questions.Type).To(ConsistOf("array", "null")) // as every list (huma's nullable arrays)
		Expect(questions.Items.Ref).To(Equal("#/components/schemas/QuestionBody"))
	})
})
