package ai_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/pdffixtures"
	"github.com/roundsedu/rounds/e2e/support/standin"
)

// paperSection uploads the drafts fixture paper, waits for it to be read
// and names pages 1 to 3 as a section.
func paperSection() int64 {
	body, ct := Form("file", "paper.pdf", pdffixtures.QuestionPaper(), nil)
	res := mod.Client(h).With("Content-Type", ct).Post("/api/v1/documents/upload", body)
	ExpectWithOffset(1, res).To(HaveStatus(201))
	doc := int64(res.Map()["id"].(float64))
	EventuallyWithOffset(1, func() any {
		return mod.Client(h).Get(fmt.Sprintf("/api/v1/documents/%d/status", doc)).Map()["status"]
	}, "15s", "50ms").Should(Equal("ready"))
	res = mod.Client(h).Post(fmt.Sprintf("/api/v1/documents/%d/sections", doc), q{"name": "Cardiology", "start_page": 1, "end_page": 3})
	ExpectWithOffset(1, res).To(HaveStatus(201))
	return int64(res.Map()["id"].(float64))
}

// extractWith runs an extraction to its end and returns the job.
func extractWith(body q) map[string]any {
	c := mod.Client(h)
	return c.AwaitJob("/api/v1/quizzes/job/" + c.StartJob("/api/v1/drafts/extract", body))
}

const extractedJSON = "```json\n" + `{"questions":[
 {"type":"mcq","text":"Which valve lesion gives an opening snap?","options":["Mitral stenosis","Aortic stenosis","Mitral regurgitation"],"correct_answer":"Mitral stenosis","explanation":"The stiff mitral leaflets snap open.","page":1},
 {"type":"fill_in","text":"The first heart sound is the closure of the ____ valves.","correct_answer":"atrioventricular","page":2},
 {"type":"mcq","text":"A question with one option is not a question","options":["Only"],"page":2},
 {"type":"essay","text":"Unknown types are dropped","page":3},
 {"type":"mcq","text":"","options":["a","b"]}
]}` + "\n```"

var _ = Describe("Extraction models for drafts", Ordered, func() {
	var modelRowID int64
	BeforeAll(func() {
		modelRowID = modelID(addModel(q{"name": "Paper reader", "model_id": "reader-1", "task": "extraction"}))
		Expect(admin.Client(h).Put(fmt.Sprintf("/api/v1/admin/models/%d", modelRowID), q{"is_default": true})).To(HaveStatus(200))
	})
	AfterAll(func() {
		// Model configuration's specs expect to add the task's first model.
		Expect(admin.Client(h).Delete(fmt.Sprintf("/api/v1/admin/models/%d", modelRowID))).To(HaveStatus(204))
	})

	It("reads a section's text with the default extraction model into drafts, keeping only usable questions", func() {
		sec := paperSection()
		proxy.Reply(extractedJSON)
		defer proxy.Reply(standin.DefaultReply)
		proxy.Calls()
		job := extractWith(q{"section_id": sec})
		Expect(job["status"]).To(Equal("completed"), "job: %v", job)

		calls := proxy.Calls()
		Expect(calls).To(HaveLen(1), "three short pages go in one call")
		Expect(calls[0].Model).To(Equal("reader-1"))
		Expect(calls[0].Messages[1]).To(And(ContainSubstring("--- page 1 ---"), ContainSubstring("--- page 3 ---")))

		batch := int64(job["batch_id"].(float64))
		var drafts []map[string]any
		mod.Client(h).Get(fmt.Sprintf("/api/v1/drafts/batches/%d/drafts?status=pending", batch)).JSON(&drafts)
		Expect(drafts).To(HaveLen(2))
		Expect(drafts[0]).To(And(HaveKeyWithValue("question_text", "Which valve lesion gives an opening snap?"),
			HaveKeyWithValue("correct_answer", "Mitral stenosis")))
		Expect(drafts[1]).To(HaveKeyWithValue("question_text", "The first heart sound is the closure of the ____ valves."))

		var extractor string
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT extractor FROM drafts.batches WHERE id = ?`, batch).Scan(&extractor).Error).To(Succeed())
		Expect(extractor).To(Equal("reader-1"))
		var used int64
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT count(*) FROM ai.usage WHERE task = 'extraction' AND model_id = 'reader-1'`).
			Scan(&used).Error).To(Succeed())
		Expect(used).To(Equal(int64(1)))
	})

	It("fails the job saying why when the model answers something other than the JSON asked for, or fails", func() {
		sec := paperSection()
		proxy.Reply("I could not find any questions, sorry.")
		defer proxy.Reply(standin.DefaultReply)
		job := extractWith(q{"section_id": sec, "model": "reader-1"})
		Expect(job["status"]).To(Equal("failed"))
		Expect(fmt.Sprint(job["error"])).To(ContainSubstring("no JSON object"))

		proxy.Set(standin.ServerError)
		defer proxy.Set(standin.OK)
		job = extractWith(q{"section_id": sec, "model": "Paper reader"})
		Expect(job["status"]).To(Equal("failed"))
		Expect(fmt.Sprint(job["error"])).To(ContainSubstring("overloaded"))
	})

	It("refuses page images and models that are not extraction models, before queueing anything", func() {
		sec := paperSection()
		Expect(mod.Client(h).Post("/api/v1/drafts/extract", q{"section_id": sec, "model": "reader-1", "reading_mode": "vision"})).
			To(HaveError(400, "bad_request"))
		Expect(mod.Client(h).Post("/api/v1/drafts/extract", q{"section_id": sec, "model": "teach-1"})).
			To(HaveError(400, "bad_request"))
	})
})
