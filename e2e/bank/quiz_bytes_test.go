package bank_test

import (
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/app"
	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/modules/bank"
	"github.com/roundsedu/rounds/platform/auth"
)

// GET /quizzes/{id} writes its answer as bytes (the quiz's fields, then the
// cached question list) instead of through huma's encoder; these hold it
// to the typed routes that share its shape (the shuffle and the review),
// to the document, and to who may read a learner's saved test.
var _ = Describe("The quiz detail served as bytes", func() {
	// byID indexes a detail's questions by id.
	byID := func(d quizDetail) map[int64]map[string]any {
		out := map[int64]map[string]any{}
		for _, x := range d.Questions {
			out[int64(x["id"].(float64))] = x
		}
		return out
	}

	It("answers what the typed routes answer, for each answer side", func() {
		ids := []int64{create(mcq(unique("Bytes <a> & \"b\""))), create(mcq(unique("Bytes two"))),
			create(q{"question_text": unique("Bytes fill "), "question_type": "fill_in", "correct_answer": "x|y"})}
		z := quiz(unique("Bytes <quiz> & co"), ids)
		publish(z)
		learner := h.NewUser(auth.RoleUser)

		res := learner.Client(h).Get(path("/quizzes/%d", z))
		Expect(res).To(HaveStatus(200))
		Expect(res.Header.Get("Content-Type")).To(Equal("application/json"))
		Expect(res.Header.Get("Content-Length")).To(Equal(strconv.Itoa(len(res.Body))))
		var timed quizDetail
		res.JSON(&timed)
		Expect(questionIDs(timed)).To(Equal(ids))

		// The shuffle is the typed timed shape (in another order).
		var shuffled quizDetail
		s := learner.Client(h).Post(path("/quizzes/%d/shuffle?shuffle_options=false", z), nil)
		Expect(s).To(HaveStatus(200))
		s.JSON(&shuffled)
		Expect(byID(timed)).To(Equal(byID(shuffled)))
		Expect(timed.Title).To(Equal(shuffled.Title))
		Expect(timed.AnswersShown).To(BeFalse())
		for _, x := range timed.Questions {
			Expect(x["correct_answer"]).To(BeNil())
		}

		// The review is the typed shape with the answer side (a moderator's).
		var study, review quizDetail
		mod.Client(h).Get(path("/quizzes/%d?study=true", z)).JSON(&study)
		r := mod.Client(h).Get(path("/quizzes/%d/review", z))
		Expect(r).To(HaveStatus(200))
		r.JSON(&review)
		Expect(study.AnswersShown).To(BeTrue())
		Expect(byID(study)).To(Equal(byID(review)))
		Expect(byID(study)[ids[0]]["correct_answer"]).To(Equal("Bravo"))

		var all map[string]any
		res.JSON(&all)
		var fromReview map[string]any
		r.JSON(&fromReview)
		for _, k := range []string{"questions", "answers_shown"} {
			delete(all, k)
			delete(fromReview, k)
		}
		Expect(all).To(HaveKeyWithValue("title", ContainSubstring("<quiz> & co")))
		Expect(all).To(Equal(fromReview), "the quiz's own fields")
	})

	It("declares the 200 as QuizDetailBody, as the shuffle does", func() {
		type op struct {
			Responses map[string]struct {
				Content map[string]struct {
					Schema struct {
						Ref string `json:"$ref"`
					} `json:"schema"`
				} `json:"content"`
			} `json:"responses"`
		}
		var doc struct {
			Paths map[string]map[string]op `json:"paths"`
		}
		h.Anon().Get("/api/openapi.json").JSON(&doc)
		schema := func(p, method string) string {
			return doc.Paths["/api/v1"+p][method].Responses["200"].Content["application/json"].Schema.Ref
		}
		Expect(schema("/quizzes/{quiz_id}", "get")).To(Equal("#/components/schemas/QuizDetailBody"))
		Expect(schema("/quizzes/{quiz_id}/shuffle", "post")).To(Equal(schema("/quizzes/{quiz_id}", "get")))
	})

	It("opens a learner's saved test to them, with its own mode's answer side, and to nobody else", func() {
		m := app.Lookup[*bank.Module](h.App)
		learner, other := h.NewUser(auth.RoleUser), h.NewUser(auth.RoleUser)
		ids := []int64{create(mcq(unique("Saved read a"))), create(mcq(unique("Saved read b")))}
		publish(quiz(unique("Saved read source"), ids))
		timedTest, err := m.BuildSavedTest(ctxBG, principalOf(learner), "Exam paper", bank.ModeTimed, 10, ids)
		Expect(err).NotTo(HaveOccurred())
		learningTest, err := m.BuildSavedTest(ctxBG, principalOf(learner), "Block", bank.ModeLearning, 0, ids)
		Expect(err).NotTo(HaveOccurred())

		for _, query := range []string{"", "?study=true"} {
			d := getQuiz(learner, timedTest, query)
			Expect(questionIDs(d)).To(Equal(ids))
			Expect(d.Mode).To(Equal("timed"))
			Expect(d.AnswersShown).To(BeFalse(), "study does not open a timed saved test's answers (%q)", query)
			for _, x := range d.Questions {
				Expect(x["correct_answer"]).To(BeNil())
				Expect(x["explanation"]).To(BeNil())
			}
			l := getQuiz(learner, learningTest, query)
			Expect(l.AnswersShown).To(BeTrue())
			Expect(byID(l)[ids[1]]["correct_answer"]).To(Equal("Bravo"))

			Expect(other.Client(h).Get(path("/quizzes/%d%s", timedTest, query))).To(HaveError(404, "not_found"))
			Expect(other.Client(h).Get(path("/quizzes/%d%s", learningTest, query))).To(HaveError(404, "not_found"))
		}
		// Moderators open it as any quiz (study forces the answers in).
		Expect(getQuiz(mod, timedTest, "?study=true").AnswersShown).To(BeTrue())
		Expect(getQuiz(mod, timedTest, "").AnswersShown).To(BeFalse())

		// The same bytes come from the cache whoever read them first.
		Expect(byID(getQuiz(learner, timedTest, ""))).To(Equal(byID(getQuiz(mod, timedTest, ""))))

		// In the trash it is gone for its learner too.
		Expect(mod.Client(h).Delete(path("/quizzes/%d", learningTest))).To(HaveStatus(204))
		Expect(learner.Client(h).Get(path("/quizzes/%d", learningTest))).To(HaveError(404, "not_found"))
	})
})
