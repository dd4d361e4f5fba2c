package drafts_test

import (
	"fmt"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/e2e/harness"
	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/contract"
)

var _ = Describe("Two moderators deciding the same drafts at once", func() {
	It("accepts each draft exactly once: one request wins, the other gets 409", func() {
		mod, other := moderator(h), moderator(h)
		batch, category := batchWithCategory(mod)
		ready := ids(draftsOf(mod, batch, "all"), draftID)[:6]

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
		target := ids(draftsOf(mod, batch, "all"), draftID)[0]

		var acc, rej *harness.Response
		var wg sync.WaitGroup
		wg.Add(2)
		go func() { defer GinkgoRecover(); defer wg.Done(); acc = accept(mod, target) }()
		go func() { defer GinkgoRecover(); defer wg.Done(); rej = reject(moderator(h), target) }()
		wg.Wait()

		res := mod.Client(h).Get(fmt.Sprintf("/api/v1/drafts/%d", target))
		Expect(res).To(HaveStatus(200))
		d := Body[contract.DraftResponse](res)
		inBank := count(h, `SELECT count(*) FROM bank.questions WHERE question_category_id = ?`, category)
		if acc.Status == 200 {
			// Accepted first: the reject found it in the bank.
			Expect(rej).To(HaveError(409, "conflict"))
			Expect(d.Status).To(Equal(contract.DraftResponseStatusAccepted))
			Expect(inBank).To(Equal(1))
		} else {
			// Rejected first: the accept found it not ready.
			Expect(acc).To(HaveError(400, "bad_request"))
			Expect(d.Status).To(Equal(contract.DraftResponseStatusRejected))
			Expect(inBank).To(BeZero())
		}
	})
})

var _ = Describe("The contract", func() {
	It("documents the module's operations, the multipart upload and the tags", func() {
		res := h.Anon().Get("/api/openapi.json")
		Expect(res).To(HaveStatus(200))
		// The document itself is read as OpenAPI, not as the contract's types.
		doc, err := openapi3.NewLoader().LoadFromData(res.Body)
		Expect(err).NotTo(HaveOccurred())
		operation := func(path, method string) *openapi3.Operation {
			item := doc.Paths.Value(path)
			ExpectWithOffset(1, item).NotTo(BeNil(), path)
			op := item.GetOperation(strings.ToUpper(method))
			ExpectWithOffset(1, op).NotTo(BeNil(), "%s %s", method, path)
			return op
		}
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
			operation(path, method)
		}
		up := operation("/api/v1/documents/upload", "post")
		Expect(up.Tags).To(Equal([]string{"documents"}))
		Expect(up.RequestBody).NotTo(BeNil())
		Expect(up.RequestBody.Value).NotTo(BeNil())
		form := up.RequestBody.Value.Content.Get("multipart/form-data")
		Expect(form).NotTo(BeNil())
		Expect(form.Schema).NotTo(BeNil())
		Expect(form.Schema.Value).NotTo(BeNil())
		Expect(form.Schema.Value.Properties).To(HaveKey("file"))
		Expect(operation("/api/v1/quizzes/jobs", "get").Tags).To(Equal([]string{"quizzes"}))
		Expect(operation("/api/v1/drafts/accept", "post").Tags).To(Equal([]string{"drafts"}))
	})
})
