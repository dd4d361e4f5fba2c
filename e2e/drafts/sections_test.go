package drafts_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/e2e/harness"
	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

var _ = Describe("Sections", func() {
	var (
		mod *harness.User
		doc int64
	)
	BeforeEach(func() {
		mod = moderator(h)
		doc = uploadReady(h, mod)
	})

	post := func(body map[string]any) *harness.Response {
		return mod.Client(h).Post(fmt.Sprintf("/api/v1/documents/%d/sections", doc), body)
	}

	It("names a 1-based inclusive page range and lists it on the document", func() {
		res := post(map[string]any{"name": "Questions", "start_page": 1, "end_page": 3})
		Expect(res).To(HaveStatus(201))
		sec := res.Map()
		Expect(sec).To(HaveKeyWithValue("document_id", BeNumerically("==", doc)))
		Expect(sec).To(HaveKeyWithValue("name", "Questions"))
		Expect(sec).To(HaveKeyWithValue("start_page", BeNumerically("==", 1)))
		Expect(sec).To(HaveKeyWithValue("end_page", BeNumerically("==", 3)))

		one := post(map[string]any{"name": "Just the notes", "start_page": 4, "end_page": 4})
		Expect(one).To(HaveStatus(201))
		last := post(map[string]any{"name": "Whole paper", "start_page": 1, "end_page": 4})
		Expect(last).To(HaveStatus(201))

		detail := mod.Client(h).Get(fmt.Sprintf("/api/v1/documents/%d", doc)).Map()
		Expect(detail["sections"]).To(HaveLen(3))
	})

	DescribeTable("refuses a bad page range with 400",
		func(start, end int, message string) {
			res := post(map[string]any{"name": "Bad", "start_page": start, "end_page": end})
			Expect(res).To(HaveError(400, "bad_request"))
			Expect(res.Map()["error"].(map[string]any)["message"]).To(ContainSubstring(message))
		},
		Entry("page 0 (pages start at 1)", 0, 2, "start_page must be at least 1"),
		Entry("a negative start", -1, 2, "start_page must be at least 1"),
		Entry("an end before the start", 3, 2, "is before start_page"),
		Entry("past the last page", 2, 5, "past the end of the document (4 pages)"),
	)

	It("refuses a section without a name (422) and on a missing document (404)", func() {
		Expect(post(map[string]any{"name": "", "start_page": 1, "end_page": 1})).To(HaveError(422, "invalid_request"))
		Expect(post(map[string]any{"name": "   ", "start_page": 1, "end_page": 1})).To(HaveError(422, "invalid_request"))
		Expect(mod.Client(h).Post("/api/v1/documents/999999/sections",
			map[string]any{"name": "x", "start_page": 1, "end_page": 1})).To(HaveError(404, "not_found"))
	})

	It("deletes a section and leaves the drafts extracted from it", func() {
		sec := section(h, mod, doc, "Questions", 1, 3)
		job := waitJob(h, mod, extract(h, mod, map[string]any{"section_id": sec}))
		batch := int64(job["batch_id"].(float64))

		Expect(mod.Client(h).Delete(fmt.Sprintf("/api/v1/documents/%d/sections/%d", doc, sec))).To(HaveStatus(204))
		Expect(mod.Client(h).Get(fmt.Sprintf("/api/v1/documents/%d", doc)).Map()["sections"]).To(BeEmpty())
		Expect(draftsOf(mod, batch, "all")).To(HaveLen(7))
		Expect(mod.Client(h).Get(fmt.Sprintf("/api/v1/drafts/batches/%d", batch)).Map()["section_id"]).
			To(BeNumerically("==", sec))

		Expect(mod.Client(h).Delete(fmt.Sprintf("/api/v1/documents/%d/sections/%d", doc, sec))).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Post("/api/v1/drafts/extract", map[string]any{"section_id": sec})).To(HaveError(404, "not_found"))
	})

	It("refuses a section of another document's id pair (404)", func() {
		other := uploadReady(h, mod)
		sec := section(h, mod, other, "Other", 1, 1)
		Expect(mod.Client(h).Delete(fmt.Sprintf("/api/v1/documents/%d/sections/%d", doc, sec))).To(HaveError(404, "not_found"))
	})

	It("is for moderators only", func() {
		learner := h.NewUser(auth.RoleUser)
		Expect(learner.Client(h).Post(fmt.Sprintf("/api/v1/documents/%d/sections", doc),
			map[string]any{"name": "x", "start_page": 1, "end_page": 1})).To(HaveError(403, "forbidden"))
		sec := section(h, mod, doc, "Questions", 1, 1)
		Expect(learner.Client(h).Delete(fmt.Sprintf("/api/v1/documents/%d/sections/%d", doc, sec))).To(HaveError(403, "forbidden"))
	})
})
