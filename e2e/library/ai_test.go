package library_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

var _ = Describe("Generation jobs", func() {
	// settled polls a job until it is over and gives it.
	settled := func(u *User, id string) map[string]any {
		var job map[string]any
		EventuallyWithOffset(1, func() string {
			res := u.Client(h).Get(api + "/articles/jobs/" + id)
			ExpectWithOffset(2, res).To(HaveStatus(200))
			job = res.Map()
			return job["status"].(string)
		}).WithTimeout(20 * time.Second).WithPolling(100 * time.Millisecond).Should(Equal("failed"))
		return job
	}

	It("queues drafts, refinements and cards that fail visibly while no model is configured", func() {
		Expect(mod.Client(h).Get(api + "/articles/ai-sources")).To(HaveStatus(200))
		res := mod.Client(h).Post(api+"/articles/ai-draft", q{"title": "Hyponatraemia", "sources": []string{"bank"}})
		Expect(res).To(HaveStatus(202))
		id := res.Map()["job_id"].(string)
		job := settled(mod, id)
		Expect(job).To(And(HaveKeyWithValue("kind", "generate_article_draft"),
			HaveKeyWithValue("error", "no article model configured"),
			HaveKeyWithValue("steps", ContainElement(HaveKeyWithValue("name", "model")))))

		cat := category("AI branch", nil)
		a := simple("published", q{"category_id": cat})
		holder := grantHolder("category", cat)
		res = holder.Client(h).Post(path("/articles/%d/ai-refine", IDOf(a)), q{"section_id": "overview", "instructions": "shorter"})
		Expect(res).To(HaveStatus(202))
		Expect(settled(holder, res.Map()["job_id"].(string))).To(HaveKeyWithValue("error", "no article model configured"))
		Expect(mod.Client(h).Get(api+"/articles/jobs/"+res.Map()["job_id"].(string))).To(HaveError(404, "not_found"),
			"a job is its requester's")

		res = mod.Client(h).Post(path("/articles/%d/ai-cards", IDOf(a)), q{})
		Expect(res).To(HaveStatus(202))
		Expect(settled(mod, res.Map()["job_id"].(string))).To(And(HaveKeyWithValue("kind", "generate_article_cards"),
			HaveKeyWithValue("error", "no flashcard model configured")))

		learner := h.NewUser(auth.RoleUser)
		Expect(learner.Client(h).Post(api+"/articles/ai-draft", q{"title": "x"})).To(HaveError(403, "forbidden"))
		Expect(learner.Client(h).Post(path("/articles/%d/ai-refine", IDOf(a)), q{})).To(HaveError(403, "forbidden"))
		Expect(holder.Client(h).Post(path("/articles/%d/ai-cards", IDOf(a)), q{})).To(HaveError(403, "forbidden"))
		Expect(mod.Client(h).Post(api+"/articles/ai-draft", q{"title": "x", "sources": []string{"the web"}})).
			To(HaveError(422, "invalid_request"))
		Expect(mod.Client(h).Post(path("/articles/%d/ai-cards", 987654321), q{})).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Get(api + "/articles/jobs/not-a-uuid")).To(HaveError(404, "not_found"))
	})
})
