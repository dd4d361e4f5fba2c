package interchange_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
)

const giftFile = `// Pharmacology, as a teacher types it
$CATEGORY: $course$/top/Pharmacology

::Beta blocker::[html]<p>Which drug is a <b>beta</b>&nbsp;blocker?</p><p>Choose one.</p> {
	~Amlodipine#A calcium channel blocker.
	=Metoprolol
	####Metoprolol is β1-selective.
}

::Multi::Pick two {~%50%a ~%50%b ~c}

::Essay::Discuss.{}

::Short::Name the drug {=aspirin =ASA}

::TF::Aspirin is an NSAID.{TRUE}
`

var _ = Describe("GIFT import", func() {
	It("files the same questions as the Moodle XML file and lists each one left out", func() {
		before := stored()
		res := importFile(mod, "gift", "filename=pharm.gift", giftFile)
		Expect(res).To(HaveStatus(201))
		body := res.Map()
		Expect(body["imported"]).To(BeNumerically("==", 3))
		Expect(body["source"]).To(Equal("pharm.gift (GIFT)"))
		Expect(body["refused"]).To(Equal([]any{
			map[string]any{"item": 2.0, "name": "Multi", "reason": "an answer has partial marks (%50%); the bank marks answers right or wrong"},
			map[string]any{"item": 3.0, "name": "Essay", "reason": "an essay question (no answers), which the bank cannot mark"},
		}))
		Expect(content(draftsOf(int64(body["batch_id"].(float64))))).To(Equal(expectedDrafts))
		after := stored()
		Expect(after[2]).To(Equal(before[2]), "nothing enters the bank before acceptance")
	})

	It("round-trips: a quiz exported as GIFT imports back as the same questions", func() {
		cat := newCategory("GIFT round trip")
		res := importFile(mod, "gift", fmt.Sprintf("category_id=%d", cat), giftFile)
		Expect(res).To(HaveStatus(201))
		first := draftsOf(int64(res.Map()["batch_id"].(float64)))
		ids := make([]int64, len(first))
		for i, d := range first {
			ids[i] = IDOf(d)
		}
		Expect(mod.Client(h).Post("/api/v1/drafts/accept", map[string]any{"draft_ids": ids})).To(HaveStatus(200))
		quiz := mod.Client(h).Post(fmt.Sprintf("/api/v1/question-categories/%d/create-quiz?title=GIFT", cat), nil)
		Expect(quiz).To(HaveStatus(201))

		exp := mod.Client(h).Get(fmt.Sprintf("/api/v1/quizzes/%d/export/gift", quiz.ID()))
		Expect(exp).To(HaveStatus(200))
		Expect(exp.Header.Get("Content-Type")).To(HavePrefix("text/plain"))
		Expect(string(exp.Body)).To(ContainSubstring("$CATEGORY: $course$/top/GIFT round trip"))

		again := importFile(mod, "gift", "", string(exp.Body))
		Expect(again).To(HaveStatus(201))
		Expect(again.Map()["refused"]).To(BeEmpty())
		Expect(content(draftsOf(int64(again.Map()["batch_id"].(float64))))).To(ConsistOf(content(first)))
	})

	DescribeTable("refuses files that are not GIFT with nothing stored",
		func(body string, status int, code string) {
			before := stored()
			Expect(importFile(mod, "gift", "", body)).To(HaveError(status, code))
			Expect(stored()).To(Equal(before))
		},
		Entry("binary", "PK\x03\x04\x00\x00binary", 400, "bad_request"),
		Entry("only comments", "// nothing here\n", 400, "bad_request"),
		Entry("nothing the bank can hold", "::E::Discuss.{}\n", 422, "invalid_request"),
	)
})
