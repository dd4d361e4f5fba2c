package drafts_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/e2e/harness"
	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/contract"
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

	post := func(name string, start, end int64) *harness.Response {
		return mod.Client(h).Post(fmt.Sprintf("/api/v1/documents/%d/sections", doc),
			contract.CreateSectionInBody{Name: name, StartPage: start, EndPage: end})
	}

	It("names a 1-based inclusive page range and lists it on the document", func() {
		res := post("Questions", 1, 3)
		Expect(res).To(HaveStatus(201))
		sec := Body[contract.SectionResponse](res)
		Expect(sec.DocumentId).To(Equal(doc))
		Expect(sec.Name).To(Equal("Questions"))
		Expect(sec.StartPage).To(BeEquivalentTo(1))
		Expect(sec.EndPage).To(BeEquivalentTo(3))

		one := post("Just the notes", 4, 4)
		Expect(one).To(HaveStatus(201))
		last := post("Whole paper", 1, 4)
		Expect(last).To(HaveStatus(201))

		detail := documentOf(h, mod, doc)
		Expect(detail.Sections).To(HaveValue(HaveLen(3)))
		Expect(ids(*detail.Sections, func(s contract.SectionResponse) int64 { return s.Id })).
			To(ConsistOf(sec.Id, Body[contract.SectionResponse](one).Id, Body[contract.SectionResponse](last).Id))
	})

	DescribeTable("refuses a bad page range with 400",
		func(start, end int, why string) {
			res := post("Bad", int64(start), int64(end))
			Expect(res).To(HaveError(400, "bad_request"))
			Expect(message(res)).To(ContainSubstring(why))
		},
		Entry("page 0 (pages start at 1)", 0, 2, "start_page must be at least 1"),
		Entry("a negative start", -1, 2, "start_page must be at least 1"),
		Entry("an end before the start", 3, 2, "is before start_page"),
		Entry("past the last page", 2, 5, "past the end of the document (4 pages)"),
	)

	It("refuses a section without a name (422) and on a missing document (404)", func() {
		Expect(post("", 1, 1)).To(HaveError(422, "invalid_request"))
		Expect(post("   ", 1, 1)).To(HaveError(422, "invalid_request"))
		Expect(mod.Client(h).Post("/api/v1/documents/999999/sections", pageOne)).To(HaveError(404, "not_found"))
	})

	It("deletes a section and leaves the drafts extracted from it", func() {
		sec := section(h, mod, doc, "Questions", 1, 3)
		batch := batchOfJob(waitJob(h, mod, extract(h, mod, contract.ExtractInBody{SectionId: sec})))

		Expect(mod.Client(h).Delete(fmt.Sprintf("/api/v1/documents/%d/sections/%d", doc, sec))).To(HaveStatus(204))
		Expect(documentOf(h, mod, doc).Sections).To(HaveValue(BeEmpty()))
		Expect(draftsOf(mod, batch, "all")).To(HaveLen(7))
		Expect(batchOf(mod, batch).SectionId).To(HaveValue(Equal(sec)))

		Expect(mod.Client(h).Delete(fmt.Sprintf("/api/v1/documents/%d/sections/%d", doc, sec))).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Post("/api/v1/drafts/extract", contract.ExtractInBody{SectionId: sec})).To(HaveError(404, "not_found"))
	})

	It("refuses a section of another document's id pair (404)", func() {
		other := uploadReady(h, mod)
		sec := section(h, mod, other, "Other", 1, 1)
		Expect(mod.Client(h).Delete(fmt.Sprintf("/api/v1/documents/%d/sections/%d", doc, sec))).To(HaveError(404, "not_found"))
	})

	It("is for moderators only", func() {
		learner := h.NewUser(auth.RoleUser)
		Expect(learner.Client(h).Post(fmt.Sprintf("/api/v1/documents/%d/sections", doc), pageOne)).To(HaveError(403, "forbidden"))
		sec := section(h, mod, doc, "Questions", 1, 1)
		Expect(learner.Client(h).Delete(fmt.Sprintf("/api/v1/documents/%d/sections/%d", doc, sec))).To(HaveError(403, "forbidden"))
	})
})
