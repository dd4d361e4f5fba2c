package drafts_test

import (
	"fmt"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/e2e/harness"
	. "github.com/roundsedu/rounds/e2e/harness"
)

var _ = Describe("Two moderators deciding the same drafts at once", func() {
	It("accepts each draft exactly once: one request wins, the other gets 409", func() {
		mod, other := moderator(h), moderator(h)
		batch, category := batchWithCategory(mod)
		ready := ids(draftsOf(mod, batch, "all"))[:6]

		results := make([]*harness.Response, 2)
		var wg sync.WaitGroup
		for i, u := range []*harness.User{mod, other} {
			wg.Add(1)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				results[i] = accept(u, ready...)
			}()
		}
		wg.Wait()
		statuses := []int{results[0].Status, results[1].Status}
		Expect(statuses).To(ConsistOf(200, 409))
		Expect(count(h, `SELECT count(*) FROM bank.questions WHERE question_category_id = ?`, category)).To(Equal(6))
		Expect(draftsOf(mod, batch, "accepted")).To(HaveLen(6))
	})

	It("never leaves a draft both rejected and in the bank", func() {
		mod := moderator(h)
		batch, category := batchWithCategory(mod)
		target := ids(draftsOf(mod, batch, "all"))[0]

		var acc, rej *harness.Response
		var wg sync.WaitGroup
		wg.Add(2)
		go func() { defer GinkgoRecover(); defer wg.Done(); acc = accept(mod, target) }()
		go func() { defer GinkgoRecover(); defer wg.Done(); rej = reject(moderator(h), target) }()
		wg.Wait()

		d := mod.Client(h).Get(fmt.Sprintf("/api/v1/drafts/%d", target)).Map()
		inBank := count(h, `SELECT count(*) FROM bank.questions WHERE question_category_id = ?`, category)
		if acc.Status == 200 {
			// Accepted first: the reject found it in the bank.
			Expect(rej).To(HaveError(409, "conflict"))
			Expect(d["status"]).To(Equal("accepted"))
			Expect(inBank).To(Equal(1))
		} else {
			// Rejected first: the accept found it not ready.
			Expect(acc).To(HaveError(400, "bad_request"))
			Expect(d["status"]).To(Equal("rejected"))
			Expect(inBank).To(BeZero())
		}
	})
})

var _ = Describe("The contract", func() {
	It("documents the module's operations, the multipart upload and the tags", func() {
		res := h.Anon().Get("/api/openapi.json")
		Expect(res).To(HaveStatus(200))
		paths := res.Map()["paths"].(map[string]any)
		for path, method := range map[string]string{
			"/api/v1/documents/upload": "post", "/api/v1/documents/": "get",
			"/api/v1/documents/{document_id}": "delete", "/api/v1/documents/{document_id}/status": "get",
			"/api/v1/documents/{document_id}/processing-steps": "get", "/api/v1/documents/{document_id}/sections": "post",
			"/api/v1/documents/{document_id}/sections/{section_id}": "delete", "/api/v1/drafts/extract": "post",
			"/api/v1/drafts/{id}": "patch", "/api/v1/drafts/accept": "post", "/api/v1/drafts/reject": "post",
			"/api/v1/drafts/{id}/reopen": "post", "/api/v1/drafts/batches": "get",
			"/api/v1/drafts/batches/{batch_id}/drafts": "get", "/api/v1/quizzes/": "post",
			"/api/v1/quizzes/jobs": "get", "/api/v1/quizzes/job/{job_id}": "get",
			"/api/v1/quizzes/job/{job_id}/cancel": "post",
		} {
			Expect(paths).To(HaveKey(path))
			Expect(paths[path]).To(HaveKey(method), path)
		}
		up := paths["/api/v1/documents/upload"].(map[string]any)["post"].(map[string]any)
		Expect(up["tags"]).To(Equal([]any{"documents"}))
		form := up["requestBody"].(map[string]any)["content"].(map[string]any)["multipart/form-data"].(map[string]any)
		Expect(form["schema"].(map[string]any)["properties"]).To(HaveKey("file"))
		Expect(paths["/api/v1/quizzes/jobs"].(map[string]any)["get"].(map[string]any)["tags"]).To(Equal([]any{"quizzes"}))
		Expect(paths["/api/v1/drafts/accept"].(map[string]any)["post"].(map[string]any)["tags"]).To(Equal([]any{"drafts"}))
	})
})
