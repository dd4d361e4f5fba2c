package search_test

import (
	"context"
	"fmt"
	"net/url"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

// An oracle attack: a learner who may read a question's stem but not its
// answer side searches for words that only its explanation holds. Search
// must answer as if the explanation did not exist, and find only what the
// caller reaches in the bank; editors find both.
var _ = Describe("Who finds what", Ordered, func() {
	const (
		hiddenWord = "quendrofax" // only in A's explanation
		stemWord   = "zorbulin"   // in the stems of A and B
	)
	var (
		mod, learner, editor *harness.User
		a, b, quizID         int64
	)

	api := func(u *harness.User) *harness.Client { return u.Client(local) }

	search := func(u *harness.User, q string) section { return searchQuestions(local, u, q, 20) }

	suggested := func(u *harness.User, typed string) []int64 {
		res := api(u).Get("/api/v1/search/suggest?kinds=question&q=" + url.QueryEscape(typed))
		Expect(res).To(HaveStatusOK())
		var out struct {
			Suggestions []struct {
				ID int64 `json:"id"`
			} `json:"suggestions"`
		}
		res.JSON(&out)
		var found []int64
		for _, s := range out.Suggestions {
			found = append(found, s.ID)
		}
		return found
	}

	create := func(text string, category int64, explanation string) int64 {
		res := api(mod).Post("/api/v1/questions/create", map[string]any{
			"question_text": text, "question_type": "mcq", "question_category_id": category,
			"options": []string{"Xerafin", "Plumbex", "Dravonil"}, "correct_answer": "Plumbex",
			"explanation": explanation,
		})
		Expect(res).To(HaveStatus201())
		id := int64(res.Map()["id"].(float64))
		waitCreated(local, id)
		return id
	}

	category := func(name string) int64 {
		res := api(mod).Post("/api/v1/question-categories/", map[string]any{"name": name})
		Expect(res).To(HaveStatus201())
		return int64(res.Map()["id"].(float64))
	}

	BeforeAll(func() {
		mod = newUser(local, auth.RoleModerator)
		learner = newUser(local, auth.RoleUser)
		editor = newUser(local, auth.RoleUser)
		granted, other := category("Reach toxicology"), category("Reach geriatrics")
		a = create("Zorbulin overdose: which antidote is given first?", granted,
			"Plumbex binds zorbulin; quendrofax is the old name of the antidote.")
		b = create("Zorbulin withdrawal in the elderly: what is the first sign?", other, "Agitation comes first.")
		Expect(api(mod).Post(fmt.Sprintf("/api/v1/access/%d/grants", editor.ID),
			map[string]any{"kind": "category", "target_id": granted})).To(HaveStatus201())

		res := api(mod).Post("/api/v1/questions/from-bank", map[string]any{"title": "Reach quiz", "question_ids": []int64{a}})
		Expect(res).To(HaveStatus201())
		quizID = int64(res.Map()["id"].(float64))
		Expect(api(mod).Patch(fmt.Sprintf("/api/v1/quizzes/%d/publish?published=true", quizID), nil)).To(HaveStatusOK())
	})

	It("stores the explanation as hidden text, outside the public full-text vector", func() {
		var row struct {
			Hidden    string
			InPublic  bool
			InAllText bool
		}
		Expect(local.App.DB.Conn(context.Background()).Raw(`SELECT hidden,
				tsv @@ to_tsquery('english', ?) AS in_public, tsv_all @@ to_tsquery('english', ?) AS in_all_text
			FROM search.documents WHERE kind = 'question' AND id = ?`, hiddenWord, hiddenWord, a).
			Scan(&row).Error).To(Succeed())
		Expect(row.Hidden).To(ContainSubstring(hiddenWord))
		Expect(row.InPublic).To(BeFalse())
		Expect(row.InAllText).To(BeTrue())
	})

	It("does not let a learner find a question by its explanation, in search or typeahead", func() {
		Expect(ids(search(learner, hiddenWord))).NotTo(ContainElement(a))
		for _, h := range search(learner, hiddenWord).Hits {
			Expect(h.Keyword).To(BeFalse(), "nothing the learner may read contains %q", hiddenWord)
		}
		Expect(suggested(learner, "quendro")).NotTo(ContainElement(a))
		// Words of the stem and the explanation together rank the question
		// exactly as the stem alone does: the explanation adds nothing.
		alone, both := search(learner, stemWord), search(learner, stemWord+" "+hiddenWord)
		Expect(ids(alone)).To(ContainElement(a))
		Expect(hitOf(both, a).Keyword).To(BeTrue())
		Expect(hitOf(both, a).Title).To(Equal(hitOf(alone, a).Title))
		Expect(hitOf(both, a).Snippet).NotTo(ContainSubstring(hiddenWord))
	})

	It("lets a learner find only what reaches them: the questions of published quizzes, not their favourites", func() {
		Expect(ids(search(learner, stemWord))).To(ContainElement(a))
		Expect(ids(search(learner, stemWord))).NotTo(ContainElement(b))
		Expect(suggested(learner, "zorbul")).To(And(ContainElement(a), Not(ContainElement(b))))

		// Unpublished, the quiz no longer carries A to learners.
		Expect(api(mod).Patch(fmt.Sprintf("/api/v1/quizzes/%d/publish?published=false", quizID), nil)).To(HaveStatusOK())
		Expect(ids(search(learner, stemWord))).NotTo(ContainElement(a))
		Expect(suggested(learner, "zorbul")).NotTo(ContainElement(a))
		Expect(api(mod).Patch(fmt.Sprintf("/api/v1/quizzes/%d/publish?published=true", quizID), nil)).To(HaveStatusOK())

		// A favourite reaches nothing: one kept after its quiz was withdrawn
		// finds nothing the learner no longer reaches.
		Expect(api(learner).Post("/api/v1/favorites", map[string]any{"question_id": a})).To(HaveStatus201())
		Expect(api(mod).Patch(fmt.Sprintf("/api/v1/quizzes/%d/publish?published=false", quizID), nil)).To(HaveStatusOK())
		Expect(ids(search(learner, stemWord))).NotTo(ContainElement(a))
		Expect(suggested(learner, "zorbul")).NotTo(ContainElement(a))
		Expect(api(mod).Patch(fmt.Sprintf("/api/v1/quizzes/%d/publish?published=true", quizID), nil)).To(HaveStatusOK())
	})

	It("lets an editor find what their grant covers by its explanation, and nothing else", func() {
		sec := search(editor, hiddenWord)
		Expect(ids(sec)).To(ContainElement(a))
		Expect(hitOf(sec, a).Keyword).To(BeTrue())
		Expect(hitOf(sec, a).Snippet).NotTo(ContainSubstring(hiddenWord), "the hidden text is matched, never shown")
		Expect(ids(search(editor, stemWord))).To(And(ContainElement(a), Not(ContainElement(b))))
	})

	It("lets a moderator find every question, by its explanation too", func() {
		Expect(ids(search(mod, hiddenWord))).To(ContainElement(a))
		Expect(ids(search(mod, stemWord))).To(ContainElements(a, b))
		Expect(suggested(mod, "zorbul")).To(ContainElements(a, b))
	})
})

// hitOf is the hit for id in s (failing when it is not there).
func hitOf(s section, id int64) hit {
	for _, h := range s.Hits {
		if h.ID == id {
			return h
		}
	}
	Fail(fmt.Sprintf("question %d is not among the hits %v", id, ids(s)))
	return hit{}
}
