package search_test

import (
	"net/url"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/modules/search/standin"
	"github.com/roundsedu/rounds/platform/auth"
)

var _ = Describe("Questions written through the bank", func() {
	It("are found by meaning once the bank's event is handled", func() {
		mod := newUser(local, auth.RoleModerator)
		res := mod.Client(local).Post("/api/v1/questions/create", map[string]any{
			"question_text":  "Which antibiotic is first-line for a kidney infection in pregnancy?",
			"question_type":  "mcq",
			"options":        []string{"Cefalexin", "Trimethoprim", "Doxycycline"},
			"correct_answer": "Cefalexin",
		})
		Expect(res).To(HaveStatus201())
		id := int64(res.Map()["id"].(float64))
		waitCreated(local, id)

		// GET /search finds it from words it does not contain.
		u := searcher(local)
		Expect(ids(searchQuestions(local, u, "pyelonephritis antimicrobial pregnant", 5))).To(ContainElement(id))

		// And so does the bank's own listing in semantic mode, through the facade.
		list := mod.Client(local).Get("/api/v1/questions/bank?search_mode=semantic&q=" +
			url.QueryEscape("pyelonephritis antimicrobial pregnant"))
		Expect(list).To(HaveStatusOK())
		var body struct {
			Questions []struct {
				ID int64 `json:"id"`
			} `json:"questions"`
		}
		list.JSON(&body)
		var found []int64
		for _, q := range body.Questions {
			found = append(found, q.ID)
		}
		Expect(found).To(ContainElement(id))

		// An edit through the bank re-embeds it; a trash hides it.
		Expect(mod.Client(local).Patch("/api/v1/questions/"+itoa(id), map[string]any{
			"question_text": "Which anticonvulsant is safest in pregnancy?",
		})).To(HaveStatusOK())
		Eventually(func() []int64 {
			return ids(searchQuestions(local, u, "epilepsy drug pregnant", 5))
		}, "10s", "50ms").Should(ContainElement(id))
		Expect(mod.Client(local).Delete("/api/v1/questions/" + itoa(id))).To(HaveStatus204())
		Eventually(func() []int64 {
			return ids(searchQuestions(local, u, "epilepsy drug pregnant", 5))
		}, "10s", "50ms").ShouldNot(ContainElement(id))
	})
})

var _ = Describe("The bank's question search", func() {
	It("is reranked when a rerank model is set, and keeps its own order when the rerank fails", func() {
		mod := newUser(local, auth.RoleModerator)
		variants := []string{"alpha", "beta", "gamma"}
		created := map[int64]bool{}
		variantOf := map[int64]string{}
		for _, v := range variants {
			res := mod.Client(local).Post("/api/v1/questions/create", map[string]any{
				"question_text":  "Digoxin toxicity with yellow vision, variant " + v + ": what is the antidote?",
				"question_type":  "mcq",
				"options":        []string{"Digoxin immune fab", "Naloxone", "Flumazenil"},
				"correct_answer": "Digoxin immune fab",
			})
			Expect(res).To(HaveStatus201())
			id := int64(res.Map()["id"].(float64))
			created[id] = true
			variantOf[id] = v
		}
		for id := range created {
			waitCreated(local, id)
		}
		q := "digoxin toxicity yellow vision antidote"
		listed := func() []int64 {
			res := mod.Client(local).Get("/api/v1/questions/bank?search_mode=semantic&q=" + url.QueryEscape(q))
			Expect(res).To(HaveStatusOK())
			var body struct {
				Questions []struct {
					ID int64 `json:"id"`
				} `json:"questions"`
			}
			res.JSON(&body)
			var out []int64
			for _, x := range body.Questions {
				if created[x.ID] {
					out = append(out, x.ID)
				}
			}
			return out
		}
		base := listed()
		Expect(base).To(HaveLen(3))

		// Favour the one the semantic order puts last.
		favoured := base[len(base)-1]
		setRerankModel(local, "standin-rerank")
		proxy.Prefer("variant " + variantOf[favoured])
		before := len(proxy.RerankRequests())
		Expect(listed()[0]).To(Equal(favoured))
		reqs := proxy.RerankRequests()
		Expect(reqs).To(HaveLen(before + 1))
		Expect(reqs[len(reqs)-1].Query).To(Equal(q))

		proxy.SetRerank(standin.ServerError)
		Expect(listed()).To(Equal(base), "a failed rerank keeps the semantic order")
	})
})
