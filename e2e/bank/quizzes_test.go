package bank_test

import (
	"fmt"
	"net/url"
	"slices"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/app"
	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/modules/bank"
	"github.com/roundsedu/rounds/platform/auth"
)

type quizDetail struct {
	ID               int64            `json:"id"`
	Title            string           `json:"title"`
	Mode             string           `json:"mode"`
	TimeLimitMinutes *int             `json:"time_limit_minutes"`
	IsPublished      int              `json:"is_published"`
	QuestionsCount   int              `json:"questions_count"`
	AnswersShown     bool             `json:"answers_shown"`
	Questions        []map[string]any `json:"questions"`
}

func getQuiz(u *User, id int64, query string) quizDetail {
	res := u.Client(h).Get(path("/quizzes/%d%s", id, query))
	ExpectWithOffset(1, res).To(HaveStatus(200))
	var d quizDetail
	res.JSON(&d)
	return d
}

func questionIDs(d quizDetail) []int64 {
	out := []int64{}
	for _, x := range d.Questions {
		out = append(out, int64(x["id"].(float64)))
	}
	return out
}

func quizIDs(res *Response) []int64 {
	out := []int64{}
	for _, x := range res.List() {
		out = append(out, int64(x.(map[string]any)["id"].(float64)))
	}
	return out
}

var _ = Describe("Making quizzes from the bank", func() {
	It("creates an unpublished quiz referencing questions in order (moderators), 201", func() {
		a, b, c := create(mcq(unique("FB a"))), create(mcq(unique("FB b"))), create(mcq(unique("FB c")))
		res := mod.Client(h).Post(api+"/questions/from-bank", q{"title": "  Cardio mix  ", "question_ids": []int64{c, a, b, a},
			"mode": "learning", "time_limit_minutes": 30})
		Expect(res).To(HaveStatus(201))
		m := res.Map()
		Expect(m).To(HaveKeyWithValue("title", "Cardio mix"))
		Expect(m).To(HaveKeyWithValue("questions_count", BeEquivalentTo(3)))
		d := getQuiz(mod, int64(m["id"].(float64)), "")
		Expect(questionIDs(d)).To(Equal([]int64{c, a, b}))
		Expect(d.Mode).To(Equal("learning"))
		Expect(*d.TimeLimitMinutes).To(Equal(30))
		Expect(d.IsPublished).To(Equal(0))
	})

	It("refuses missing or trashed questions (422) and creates nothing", func() {
		live := create(mcq(unique("FB live")))
		gone := create(mcq(unique("FB gone")))
		Expect(mod.Client(h).Delete(path("/questions/%d", gone))).To(HaveStatus(204))
		before := len(mod.Client(h).Get(api + "/quizzes/").List())
		res := mod.Client(h).Post(api+"/questions/from-bank", q{"title": "Bad", "question_ids": []int64{live, gone, 987654321}})
		Expect(res).To(HaveError(422, "invalid_request"))
		Expect(res.Body).To(ContainSubstring(fmt.Sprint(gone)))
		Expect(res.Body).To(ContainSubstring("987654321"))
		Expect(mod.Client(h).Get(api + "/quizzes/").List()).To(HaveLen(before))
	})

	DescribeTable("refuses a bad body (422)", func(body q) {
		Expect(mod.Client(h).Post(api+"/questions/from-bank", body)).To(HaveError(422, "invalid_request"))
	},
		Entry("no title", q{"question_ids": []int64{1}}),
		Entry("blank title", q{"title": "   ", "question_ids": []int64{1}}),
		Entry("no questions", q{"title": "x", "question_ids": []int64{}}),
		Entry("bad mode", q{"title": "x", "question_ids": []int64{1}, "mode": "exam"}),
		Entry("zero time limit", q{"title": "x", "question_ids": []int64{1}, "time_limit_minutes": 0}),
		Entry("unknown quiz category", q{"title": "x", "question_ids": []int64{1}, "category_id": 987654}),
	)

	It("takes at most 500 question ids (422)", func() {
		id := create(mcq(unique("FB many")))
		many := make([]int64, 501)
		for i := range many {
			many[i] = id // kept once if it were accepted
		}
		Expect(mod.Client(h).Post(api+"/questions/from-bank", q{"title": "x", "question_ids": many})).
			To(HaveError(422, "invalid_request"))
		Expect(mod.Client(h).Post(api+"/questions/from-bank", q{"title": "x", "question_ids": many[:500]})).
			To(HaveStatus(201))
	})

	It("is refused to learners and grant holders (403)", func() {
		id := create(mcq(unique("FB x")))
		for _, u := range []*User{h.NewUser(auth.RoleUser), grantHolder("quiz", quiz(unique("g"), []int64{id}))} {
			Expect(u.Client(h).Post(api+"/questions/from-bank", q{"title": "x", "question_ids": []int64{id}})).
				To(HaveError(403, "forbidden"))
		}
	})
})

var _ = Describe("Reading quizzes", func() {
	var timed, learning, unpublished int64
	var qa, qb int64
	var learner *User

	BeforeEach(func() {
		qa = create(mcq(unique("Read a")))
		qb = create(mcq(unique("Read b")))
		timed = quiz(unique("Timed quiz"), []int64{qa, qb})
		learning = quiz(unique("Learning quiz"), []int64{qa}, q{"mode": "learning"})
		unpublished = quiz(unique("Hidden quiz"), []int64{qb})
		publish(timed)
		publish(learning)
		learner = h.NewUser(auth.RoleUser)
	})

	It("lists published quizzes to learners and every live quiz to moderators", func() {
		Expect(quizIDs(learner.Client(h).Get(api + "/quizzes/"))).To(And(ContainElements(timed, learning),
			Not(ContainElement(unpublished))))
		Expect(quizIDs(mod.Client(h).Get(api + "/quizzes/"))).To(ContainElements(timed, learning, unpublished))
		Expect(mod.Client(h).Get(api + "/quizzes/?limit=501")).To(HaveError(422, "invalid_request"))
		Expect(mod.Client(h).Get(api + "/quizzes/trash?limit=501")).To(HaveError(422, "invalid_request"))
		z := mod.Client(h).Get(api + "/quizzes/?limit=500").List()
		for _, x := range z {
			m := x.(map[string]any)
			if int64(m["id"].(float64)) == timed {
				Expect(m).To(HaveKeyWithValue("questions_count", BeEquivalentTo(2)))
				Expect(m).To(HaveKeyWithValue("is_published", BeEquivalentTo(1)))
				Expect(m).To(HaveKeyWithValue("user_id", BeEquivalentTo(mod.ID)))
				Expect(m).To(HaveKey("section_id"))
				Expect(m).To(HaveKey("created_at"))
			}
		}
	})

	It("hides answers in a timed quiz, shows them in a learning quiz, and study=true forces them in", func() {
		d := getQuiz(learner, timed, "")
		Expect(d.AnswersShown).To(BeFalse())
		Expect(d.Questions).To(HaveLen(2))
		Expect(d.Questions[0]["correct_answer"]).To(BeNil())
		Expect(d.Questions[0]["explanation"]).To(BeNil())
		Expect(d.Questions[0]["figures"]).To(ConsistOf(HaveKeyWithValue("role", "stem")))

		l := getQuiz(learner, learning, "")
		Expect(l.AnswersShown).To(BeTrue())
		Expect(l.Questions[0]["correct_answer"]).To(Equal("Bravo"))
		Expect(l.Questions[0]["figures"]).To(HaveLen(3))

		s := getQuiz(learner, timed, "?study=true")
		Expect(s.AnswersShown).To(BeTrue())
		Expect(s.Questions[1]["explanation"]).To(Equal("Bravo is right because of the rule."))
	})

	It("answers 404 to a learner for an unpublished quiz, but lets a quiz grant holder open it", func() {
		Expect(learner.Client(h).Get(path("/quizzes/%d", unpublished))).To(HaveError(404, "not_found"))
		holder := grantHolder("quiz", unpublished)
		Expect(getQuiz(holder, unpublished, "").Questions).To(HaveLen(1))
		Expect(getQuiz(mod, unpublished, "").Questions).To(HaveLen(1))
	})

	It("skips trashed questions and counts only live ones", func() {
		Expect(mod.Client(h).Delete(path("/questions/%d", qa))).To(HaveStatus(204))
		d := getQuiz(learner, timed, "")
		Expect(questionIDs(d)).To(Equal([]int64{qb}))
		Expect(d.QuestionsCount).To(Equal(1))
	})

	It("shuffles without storing anything", func() {
		ids := []int64{}
		for i := 0; i < 6; i++ {
			ids = append(ids, create(mcq(unique("Shuffle"))))
		}
		z := quiz(unique("Shuffled"), ids)
		publish(z)
		orders := map[string]bool{}
		optionOrders := map[string]bool{}
		for i := 0; i < 15; i++ {
			res := learner.Client(h).Post(path("/quizzes/%d/shuffle", z), nil)
			Expect(res).To(HaveStatus(200))
			var d quizDetail
			res.JSON(&d)
			Expect(d.AnswersShown).To(BeFalse())
			Expect(d.Questions[0]["correct_answer"]).To(BeNil())
			got := questionIDs(d)
			Expect(got).To(ConsistOf(ids))
			orders[fmt.Sprint(got)] = true
			optionOrders[fmt.Sprint(d.Questions[0]["options"])] = true
		}
		Expect(len(orders)).To(BeNumerically(">", 1))
		Expect(len(optionOrders)).To(BeNumerically(">", 1))
		Expect(questionIDs(getQuiz(mod, z, ""))).To(Equal(ids))

		res := learner.Client(h).Post(path("/quizzes/%d/shuffle?shuffle_options=false", z), nil)
		var d quizDetail
		res.JSON(&d)
		for _, x := range d.Questions {
			Expect(x["options"]).To(Equal([]any{"Alpha", "Bravo", "Charlie", "Delta"}))
		}
		Expect(learner.Client(h).Post(path("/quizzes/%d/shuffle", unpublished), nil)).To(HaveError(404, "not_found"))
	})

	It("opens the review to moderators, and to nobody else without a completed attempt (403; 404 for a quiz they may not open)", func() {
		d := getQuiz(mod, timed, "/review")
		Expect(d.AnswersShown).To(BeTrue())
		Expect(d.Questions[0]["correct_answer"]).To(Equal("Bravo"))
		Expect(getQuiz(admin, timed, "/review").Questions).To(HaveLen(2))
		Expect(learner.Client(h).Get(path("/quizzes/%d/review", timed))).To(HaveError(403, "forbidden"))
		Expect(grantHolder("quiz", timed).Client(h).Get(path("/quizzes/%d/review", timed))).To(HaveError(403, "forbidden"))
		Expect(mod.Client(h).Get(path("/quizzes/%d/review", 987654321))).To(HaveError(404, "not_found"))
		absent := learner.Client(h).Get(path("/quizzes/%d/review", 987654321))
		Expect(absent).To(HaveError(404, "not_found"))
		Expect(learner.Client(h).Get(path("/quizzes/%d/review", unpublished)).Body).To(MatchJSON(absent.Body))
	})
})

var _ = Describe("A quiz's questions", func() {
	var shared, exclusive, z, other int64

	BeforeEach(func() {
		shared = create(mcq(unique("Shared question")))
		exclusive = create(mcq(unique("Exclusive question")))
		z = quiz(unique("Editor quiz"), []int64{shared, exclusive})
		other = quiz(unique("Other quiz"), []int64{shared})
	})

	It("lists them with answers for moderators", func() {
		list := mod.Client(h).Get(path("/quizzes/%d/questions", z)).List()
		Expect(list).To(HaveLen(2))
		first := list[0].(map[string]any)
		Expect(first).To(HaveKeyWithValue("id", BeEquivalentTo(shared)))
		Expect(first).To(HaveKeyWithValue("correct_answer", "Bravo"))
		Expect(first).To(HaveKey("explanation"))
		Expect(first).To(HaveKey("options"))
		Expect(first).To(HaveKey("question_type"))
	})

	It("shares an edit with every quiz that uses the question", func() {
		res := mod.Client(h).Patch(path("/quizzes/%d/questions/%d", z, shared), q{"question_text": "Edited once",
			"options": []string{"One", "Two"}, "correct_answer": "Two"})
		Expect(res).To(HaveStatus(200))
		Expect(getQuiz(mod, other, "").Questions[0]["question_text"]).To(Equal("Edited once"))
		Expect(mod.Client(h).Get(path("/questions/detail/%d", shared)).Map()["correct_answer"]).To(Equal("Two"))
	})

	It("refuses a correct answer that is not an option with 400 and changes nothing", func() {
		res := mod.Client(h).Patch(path("/quizzes/%d/questions/%d", z, shared), q{"correct_answer": "Zulu"})
		Expect(res).To(HaveError(400, "bad_request"))
		res = mod.Client(h).Patch(path("/quizzes/%d/questions/%d", z, shared), q{"options": []string{"x", "y"}})
		Expect(res).To(HaveError(400, "bad_request"))
		Expect(mod.Client(h).Get(path("/questions/detail/%d", shared)).Map()["correct_answer"]).To(Equal("Bravo"))
	})

	It("answers 404 for a question not in the quiz or a missing quiz", func() {
		stranger := create(mcq(unique("Stranger")))
		Expect(mod.Client(h).Patch(path("/quizzes/%d/questions/%d", z, stranger), q{"explanation": "x"})).
			To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Patch(path("/quizzes/%d/questions/%d", 987654321, shared), q{"explanation": "x"})).
			To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Delete(path("/quizzes/%d/questions/%d", z, stranger))).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Get(path("/questions/detail/%d/versions", stranger)).List()).To(BeEmpty())
	})

	It("removes only the link when the question is shared", func() {
		Expect(mod.Client(h).Delete(path("/quizzes/%d/questions/%d", z, shared))).To(HaveStatus(204))
		Expect(questionIDs(getQuiz(mod, z, ""))).To(Equal([]int64{exclusive}))
		Expect(questionIDs(getQuiz(mod, other, ""))).To(Equal([]int64{shared}))
		Expect(mod.Client(h).Get(path("/questions/detail/%d", shared)).Map()["deleted_at"]).To(BeNil())
	})

	It("deletes the question from the bank (to the trash) when only this quiz uses it", func() {
		Expect(mod.Client(h).Delete(path("/quizzes/%d/questions/%d", z, exclusive))).To(HaveStatus(204))
		Expect(questionIDs(getQuiz(mod, z, ""))).To(Equal([]int64{shared}))
		Expect(mod.Client(h).Get(path("/questions/detail/%d", exclusive)).Map()["deleted_at"]).NotTo(BeNil())
		Expect(ids(mod.Client(h).Get(api + "/questions/trash?limit=200"))).To(ContainElement(exclusive))
		// Restoring the question puts it back where it was.
		Expect(mod.Client(h).Patch(path("/questions/%d/restore", exclusive), nil)).To(HaveStatus(200))
		Expect(questionIDs(getQuiz(mod, z, ""))).To(Equal([]int64{shared, exclusive}))
	})

	It("answers 404 for removing a trashed question", func() {
		Expect(mod.Client(h).Delete(path("/questions/%d", exclusive))).To(HaveStatus(204))
		Expect(mod.Client(h).Delete(path("/quizzes/%d/questions/%d", z, exclusive))).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Patch(path("/questions/%d/restore", exclusive), nil)).To(HaveStatus(200))
		Expect(questionIDs(getQuiz(mod, z, ""))).To(Equal([]int64{shared, exclusive}))
	})

	It("is moderators' only (403 for learners and grant holders)", func() {
		holder := grantHolder("quiz", z)
		for _, u := range []*User{h.NewUser(auth.RoleUser), holder} {
			Expect(u.Client(h).Get(path("/quizzes/%d/questions", z))).To(HaveError(403, "forbidden"))
			Expect(u.Client(h).Patch(path("/quizzes/%d/questions/%d", z, shared), q{"explanation": "x"})).
				To(HaveError(403, "forbidden"))
			Expect(u.Client(h).Delete(path("/quizzes/%d/questions/%d", z, shared))).To(HaveError(403, "forbidden"))
		}
	})
})

var _ = Describe("Quiz lifecycle", func() {
	var z, shared, exclusive int64
	var learner *User

	BeforeEach(func() {
		shared = create(mcq(unique("Life shared")))
		exclusive = create(mcq(unique("Life exclusive")))
		z = quiz(unique("Lifecycle quiz"), []int64{shared, exclusive})
		quiz(unique("Keeps shared"), []int64{shared})
		learner = h.NewUser(auth.RoleUser)
	})

	It("renames (moderators; blank refused 422)", func() {
		res := mod.Client(h).Patch(path("/quizzes/%d", z), q{"title": "Renamed quiz"})
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()["title"]).To(Equal("Renamed quiz"))
		Expect(mod.Client(h).Patch(path("/quizzes/%d", z), q{"title": "  "})).To(HaveError(422, "invalid_request"))
		Expect(mod.Client(h).Patch(path("/quizzes/%d", z), q{})).To(HaveError(422, "invalid_request"))
		Expect(learner.Client(h).Patch(path("/quizzes/%d", z), q{"title": "x"})).To(HaveError(403, "forbidden"))
		Expect(mod.Client(h).Patch(path("/quizzes/%d", 987654321), q{"title": "x"})).To(HaveError(404, "not_found"))
	})

	It("publishes and unpublishes; learners follow", func() {
		res := mod.Client(h).Patch(path("/quizzes/%d/publish", z), nil)
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()).To(Equal(map[string]any{"quiz_id": float64(z), "is_published": float64(1)}))
		Expect(learner.Client(h).Get(path("/quizzes/%d", z))).To(HaveStatus(200))
		res = mod.Client(h).Patch(path("/quizzes/%d/publish?published=false", z), nil)
		Expect(res.Map()["is_published"]).To(BeEquivalentTo(0))
		Expect(learner.Client(h).Get(path("/quizzes/%d", z))).To(HaveError(404, "not_found"))
		Expect(learner.Client(h).Patch(path("/quizzes/%d/publish", z), nil)).To(HaveError(403, "forbidden"))
	})

	It("trashes, lists in the trash, restores, and is excluded everywhere while trashed", func() {
		publish(z)
		Expect(mod.Client(h).Delete(path("/quizzes/%d", z))).To(HaveStatus(204))
		Expect(quizIDs(mod.Client(h).Get(api + "/quizzes/?limit=500"))).NotTo(ContainElement(z))
		Expect(quizIDs(learner.Client(h).Get(api + "/quizzes/?limit=500"))).NotTo(ContainElement(z))
		Expect(mod.Client(h).Get(path("/quizzes/%d", z))).To(HaveError(404, "not_found"))
		Expect(learner.Client(h).Post(path("/quizzes/%d/shuffle", z), nil)).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Get(path("/quizzes/%d/review", z))).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Get(path("/quizzes/%d/questions", z))).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Patch(path("/quizzes/%d", z), q{"title": "x"})).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Delete(path("/quizzes/%d", z))).To(HaveError(404, "not_found"))
		Expect(quizIDs(mod.Client(h).Get(api + "/quizzes/trash"))).To(ContainElement(z))

		res := mod.Client(h).Patch(path("/quizzes/%d/restore", z), nil)
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()["deleted_at"]).To(BeNil())
		Expect(res.Map()["is_published"]).To(BeEquivalentTo(1))
		Expect(quizIDs(learner.Client(h).Get(api + "/quizzes/?limit=500"))).To(ContainElement(z))
		Expect(quizIDs(mod.Client(h).Get(api + "/quizzes/trash"))).NotTo(ContainElement(z))
	})

	It("answers 404 for a trashed quiz on every other route, and leaves it out of every count", func() {
		cat := int64(mod.Client(h).Post(api+"/categories/", q{"name": unique("Trash count")}).Map()["id"].(float64))
		Expect(mod.Client(h).Patch(path("/categories/quizzes/%d?category_id=%d", z, cat), nil)).To(HaveStatus(200))
		publish(z)
		before, err := app.Lookup[*bank.Module](h.App).CountQuizzes(ctxBG, auth.Principal{UserID: mod.ID, Role: auth.RoleModerator})
		Expect(err).NotTo(HaveOccurred())
		Expect(mod.Client(h).Delete(path("/quizzes/%d", z))).To(HaveStatus(204))

		Expect(learner.Client(h).Get(path("/quizzes/%d?study=true", z))).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Patch(path("/quizzes/%d/publish?published=false", z), nil)).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Patch(path("/categories/quizzes/%d", z), nil)).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Patch(path("/quizzes/%d/questions/%d", z, shared), q{"explanation": "x"})).
			To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Delete(path("/quizzes/%d/questions/%d", z, shared))).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Get(path("/questions/detail/%d", shared)).Map()["explanation"]).
			To(Equal("Bravo is right because of the rule."))

		Expect(findByID(mod.Client(h).Get(api+"/categories/").List(), cat)["quiz_count"]).To(BeEquivalentTo(0))
		Expect(findByID(learner.Client(h).Get(api+"/categories/").List(), cat)["quiz_count"]).To(BeEquivalentTo(0))
		after, err := app.Lookup[*bank.Module](h.App).CountQuizzes(ctxBG, auth.Principal{UserID: mod.ID, Role: auth.RoleModerator})
		Expect(err).NotTo(HaveOccurred())
		Expect(after).To(Equal(before - 1))
	})

	It("refuses to restore a live quiz (400)", func() {
		Expect(mod.Client(h).Patch(path("/quizzes/%d/restore", z), nil)).To(HaveError(400, "bad_request"))
		Expect(mod.Client(h).Patch(path("/quizzes/%d/restore", 987654321), nil)).To(HaveError(404, "not_found"))
	})

	It("deletes permanently only from the trash (400 otherwise), orphaning questions to the bank", func() {
		Expect(mod.Client(h).Delete(path("/quizzes/%d/permanent", z))).To(HaveError(400, "bad_request"))
		Expect(mod.Client(h).Delete(path("/quizzes/%d", z))).To(HaveStatus(204))
		Expect(mod.Client(h).Delete(path("/quizzes/%d/permanent", z))).To(HaveStatus(204))
		Expect(quizIDs(mod.Client(h).Get(api + "/quizzes/trash?limit=500"))).NotTo(ContainElement(z))
		Expect(mod.Client(h).Patch(path("/quizzes/%d/restore", z), nil)).To(HaveError(404, "not_found"))
		for _, id := range []int64{shared, exclusive} {
			m := mod.Client(h).Get(path("/questions/detail/%d", id)).Map()
			Expect(m["deleted_at"]).To(BeNil())
		}
		l := list(mod, "search_mode=keyword&q="+url.QueryEscape(mod.Client(h).Get(path("/questions/detail/%d", exclusive)).Map()["question_text"].(string)))
		Expect(l.ids()).To(ContainElement(exclusive))
		for _, x := range l.Questions {
			if x.ID == exclusive {
				Expect(x.QuizID).To(BeNil())
			}
		}
		Expect(mod.Client(h).Delete(path("/quizzes/%d/permanent", 987654321))).To(HaveError(404, "not_found"))
	})

	It("keeps trash and lifecycle routes for moderators only (403)", func() {
		holder := grantHolder("quiz", z)
		for _, u := range []*User{learner, holder} {
			Expect(u.Client(h).Get(api + "/quizzes/trash")).To(HaveError(403, "forbidden"))
			Expect(u.Client(h).Delete(path("/quizzes/%d", z))).To(HaveError(403, "forbidden"))
			Expect(u.Client(h).Patch(path("/quizzes/%d/restore", z), nil)).To(HaveError(403, "forbidden"))
			Expect(u.Client(h).Delete(path("/quizzes/%d/permanent", z))).To(HaveError(403, "forbidden"))
		}
	})
})

var _ = Describe("Quiz search", func() {
	var word string
	var byTitle, byQuestion, both, hidden int64
	var learner *User

	BeforeEach(func() {
		word = MadeUpWord()
		inside := create(mcq("A stem mentioning " + word))
		plain := create(mcq(unique("Plain stem")))
		byTitle = quiz("Renal "+word+" review", []int64{plain})
		byQuestion = quiz(unique("Unrelated title"), []int64{plain, inside})
		both = quiz("Café "+word, []int64{inside})
		hidden = quiz(word+" unpublished", []int64{inside})
		for _, z := range []int64{byTitle, byQuestion, both} {
			publish(z)
		}
		learner = h.NewUser(auth.RoleUser)
	})

	type hit struct {
		QuizID            int64            `json:"quiz_id"`
		QuizTitle         string           `json:"quiz_title"`
		MatchType         string           `json:"match_type"`
		MatchingQuestions []map[string]any `json:"matching_questions"`
	}
	search := func(u *User, query string) []hit {
		res := u.Client(h).Get(api + "/quizzes/search?" + query)
		ExpectWithOffset(1, res).To(HaveStatus(200))
		var out []hit
		res.JSON(&out)
		return out
	}
	byID := func(hs []hit) map[int64]hit {
		m := map[int64]hit{}
		for _, x := range hs {
			m[x.QuizID] = x
		}
		return m
	}

	// The search module's semantic part may add matches by meaning; the
	// exact keyword behaviour is pinned down without it (listing_test.go).
	It("finds by title and by questions, saying how each matched (mode all)", func() {
		got := byID(search(learner, "q="+word))
		Expect(got).To(HaveKey(byTitle))
		Expect(got[byTitle].MatchType).To(Or(Equal("title"), Equal("both")))
		Expect(got[byQuestion].MatchType).To(Equal("questions"))
		Expect(got[byQuestion].MatchingQuestions).To(ContainElement(HaveKeyWithValue("question_text", ContainSubstring(word))))
		Expect(got[both].MatchType).To(Equal("both"))
		Expect(got).NotTo(HaveKey(hidden))
	})

	It("lists title matches first", func() {
		hs := search(learner, "q="+word)
		titleFirst := slices.IndexFunc(hs, func(x hit) bool { return x.MatchType == "questions" })
		for _, x := range hs[:titleFirst] {
			Expect(x.MatchType).To(Or(Equal("title"), Equal("both")))
		}
	})

	It("narrows to titles or questions by mode", func() {
		Expect(byID(search(learner, "mode=title&q="+word))).To(And(HaveKey(byTitle), HaveKey(both), Not(HaveKey(byQuestion))))
		questions := byID(search(learner, "mode=questions&q="+word))
		Expect(questions).To(And(HaveKey(byQuestion), HaveKey(both)))
		for _, x := range questions {
			Expect(x.MatchType).To(Equal("questions"))
		}
	})

	It("ignores accents in titles, and shows moderators unpublished quizzes", func() {
		Expect(byID(search(learner, "mode=title&q="+url.QueryEscape("cafe "+word)))).To(HaveKey(both))
		Expect(byID(search(mod, "q="+word))).To(HaveKey(hidden))
	})

	It("excludes trashed quizzes", func() {
		Expect(mod.Client(h).Delete(path("/quizzes/%d", byTitle))).To(HaveStatus(204))
		Expect(byID(search(mod, "q="+word))).NotTo(HaveKey(byTitle))
	})

	DescribeTable("refuses a query outside 2 to 200 characters or a bad mode (422)", func(query string) {
		Expect(learner.Client(h).Get(api + "/quizzes/search?" + query)).To(HaveError(422, "invalid_request"))
	},
		Entry("missing", ""),
		Entry("one character", "q=a"),
		Entry("blank", "q=%20%20%20"),
		Entry("201 characters", "q="+string(make([]byte, 0))+repeat("a", 201)),
		Entry("unknown mode", "q=abc&mode=body"),
	)

	It("accepts exactly 2 and 200 characters", func() {
		Expect(learner.Client(h).Get(api + "/quizzes/search?q=ab")).To(HaveStatus(200))
		Expect(learner.Client(h).Get(api + "/quizzes/search?q=" + repeat("a", 200))).To(HaveStatus(200))
	})
})

func repeat(s string, n int) string {
	out := ""
	for i := 0; i < n; i++ {
		out += s
	}
	return out
}

var _ = Describe("Quiz search through the search module", func() {
	It("also finds quizzes whose questions match by meaning (similarity 0.30), not by keyword", func() {
		question := create(mcq("High blood pressure in pregnancy"))
		z := quiz(unique("Obstetric medicine"), []int64{question})
		publish(z)
		found := func() string {
			res := mod.Client(h).Get(api + "/quizzes/search?mode=questions&q=hypertension")
			Expect(res).To(HaveStatus(200))
			for _, x := range res.List() {
				m := x.(map[string]any)
				if int64(m["quiz_id"].(float64)) == z {
					return m["match_type"].(string)
				}
			}
			return ""
		}
		Eventually(found).WithTimeout(eventWait).WithPolling(200 * time.Millisecond).Should(Equal("questions"))
		// The keyword ranker alone would not have found it.
		Expect(list(mod, "search_mode=keyword&q=hypertension").ids()).NotTo(ContainElement(question))
	})
})
