package drafts_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/e2e/harness"
	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

func accept(u *harness.User, ids ...int64) *harness.Response {
	return u.Client(h).Post("/api/v1/drafts/accept", map[string]any{"draft_ids": ids})
}

func reject(u *harness.User, ids ...int64) *harness.Response {
	return u.Client(h).Post("/api/v1/drafts/reject", map[string]any{"draft_ids": ids})
}

func message(r *harness.Response) string {
	return r.Map()["error"].(map[string]any)["message"].(string)
}

func question(u *harness.User, id float64) map[string]any {
	res := u.Client(h).Get(fmt.Sprintf("/api/v1/questions/detail/%.0f", id))
	Expect(res).To(HaveStatus(200))
	return res.Map()
}

func batchOf(u *harness.User, id int64) map[string]any {
	res := u.Client(h).Get(fmt.Sprintf("/api/v1/drafts/batches/%d", id))
	Expect(res).To(HaveStatus(200))
	return res.Map()
}

func batchIDs(u *harness.User, status string) []int64 {
	res := u.Client(h).Get("/api/v1/drafts/batches?limit=200&status=" + status)
	Expect(res).To(HaveStatus(200))
	return ids(asMaps(res.List()))
}

var _ = Describe("From upload to accepted questions", func() {
	It("turns the paper into seven bank questions after review, all or nothing", func() {
		mod := moderator(h)
		batch := extractedBatch(mod, 1, 3)
		drafts := draftsOf(mod, batch, "all")
		Expect(drafts).To(HaveLen(7))

		first := drafts[0]
		Expect(first["question_type"]).To(Equal("mcq"))
		Expect(first["question_text"]).To(Equal("Which chamber of the heart pumps oxygenated blood to the systemic circulation?"))
		Expect(first["options"]).To(Equal([]any{"Right atrium", "Right ventricle", "Left atrium", "Left ventricle"}))
		Expect(first["correct_answer"]).To(Equal("Left ventricle"))
		Expect(first["explanation"]).To(Equal("The left ventricle ejects blood into the aorta."))
		Expect(first["source_page"]).To(BeNumerically("==", 1))
		Expect(first["status"]).To(Equal("pending"))
		Expect(first["question_id"]).To(BeNil())
		Expect(first["ready"]).To(BeTrue())
		Expect(drafts[3]["correct_answer"]).To(Equal("Hyperkalaemia"))
		Expect(drafts[4]["explanation"]).To(Equal("The right coronary artery supplies the node in most people."))
		Expect(drafts[5]["question_type"]).To(Equal("fill_in"))
		Expect(drafts[5]["correct_answer"]).To(Equal("Mitral valve"))
		Expect(drafts[6]["ready"]).To(BeFalse())
		Expect(drafts[6]["problems"]).To(Equal([]any{"no correct answer marked"}))
		all := ids(drafts)

		By("refusing every acceptance until the batch has its Files-into-topic category")
		res := accept(mod, all[0])
		Expect(res).To(HaveError(400, "bad_request"))
		Expect(message(res)).To(ContainSubstring(fmt.Sprintf("batch %d: no Files-into-topic category set", batch)))

		category := newCategory(mod, "Cardiology review")
		Expect(mod.Client(h).Patch(fmt.Sprintf("/api/v1/drafts/batches/%d", batch),
			map[string]any{"category_id": category})).To(HaveStatus(200))

		By("accepting none when one selected draft is not ready")
		res = accept(mod, all...)
		Expect(res).To(HaveError(400, "bad_request"))
		Expect(message(res)).To(ContainSubstring(fmt.Sprintf("draft %d: no correct answer marked", all[6])))
		Expect(message(res)).To(ContainSubstring("1 of 7 drafts not ready"))
		Expect(draftsOf(mod, batch, "pending")).To(HaveLen(7))
		Expect(count(h, `SELECT count(*) FROM bank.questions WHERE question_category_id = ?`, category)).To(BeZero())

		By("fixing the draft and accepting them all in one unit of work")
		fixed := mod.Client(h).Patch(fmt.Sprintf("/api/v1/drafts/%d", all[6]),
			map[string]any{"correct_answer": "Ejection systolic murmur"})
		Expect(fixed).To(HaveStatus(200))
		Expect(fixed.Map()["ready"]).To(BeTrue())
		res = accept(mod, all...)
		Expect(res).To(HaveStatus(200))
		accepted := res.Map()["accepted"].([]any)
		Expect(accepted).To(HaveLen(7))
		Expect(res.Map()["batches"].([]any)[0].(map[string]any)["status"]).To(Equal("closed"))

		q := question(mod, accepted[0].(map[string]any)["question_id"].(float64))
		Expect(q["question_text"]).To(Equal(first["question_text"]))
		Expect(q["options"]).To(Equal(first["options"]))
		Expect(q["correct_answer"]).To(Equal("Left ventricle"))
		Expect(q["explanation"]).To(Equal("The left ventricle ejects blood into the aorta."))
		Expect(q["question_category_id"]).To(BeNumerically("==", category))
		fill := question(mod, accepted[5].(map[string]any)["question_id"].(float64))
		Expect(fill["question_type"]).To(Equal("fill_in"))
		Expect(fill["correct_answer"]).To(Equal("Mitral valve"))

		after := draftsOf(mod, batch, "accepted")
		Expect(after).To(HaveLen(7))
		Expect(after[0]["question_id"]).To(Equal(accepted[0].(map[string]any)["question_id"]))

		By("closing the batch: it leaves the default list")
		Expect(batchOf(mod, batch)["status"]).To(Equal("closed"))
		Expect(batchOf(mod, batch)["closed_at"]).NotTo(BeNil())
		Expect(batchIDs(mod, "open")).NotTo(ContainElement(batch))
		Expect(ids(asMaps(mod.Client(h).Get("/api/v1/drafts/batches").List()))).NotTo(ContainElement(batch))
		Expect(batchIDs(mod, "closed")).To(ContainElement(batch))
		Expect(batchIDs(mod, "all")).To(ContainElement(batch))
	})
})

var _ = Describe("Reviewing drafts", func() {
	var (
		mod      *harness.User
		batch    int64
		category int64
		all      []int64
	)
	BeforeEach(func() {
		mod = moderator(h)
		batch, category = batchWithCategory(mod)
		all = ids(draftsOf(mod, batch, "all"))
	})

	It("answers 409 for a draft already in the bank, distinct from not ready", func() {
		Expect(accept(mod, all[0])).To(HaveStatus(200))
		res := accept(mod, all[0], all[1])
		Expect(res).To(HaveError(409, "conflict"))
		Expect(message(res)).To(ContainSubstring(fmt.Sprintf("draft %d (question", all[0])))
		Expect(draftsOf(mod, batch, "pending")).To(HaveLen(6))

		// Already accepted wins over not ready when both apply.
		res = accept(mod, all[0], all[6])
		Expect(res).To(HaveError(409, "conflict"))
		res = accept(mod, all[6])
		Expect(res).To(HaveError(400, "bad_request"))
	})

	It("refuses to edit, reject, reopen or delete an accepted draft (409: edit the question)", func() {
		Expect(accept(mod, all[0])).To(HaveStatus(200))
		edit := mod.Client(h).Patch(fmt.Sprintf("/api/v1/drafts/%d", all[0]), map[string]any{"question_text": "changed"})
		Expect(edit).To(HaveError(409, "conflict"))
		Expect(message(edit)).To(ContainSubstring("edit the question instead"))
		Expect(reject(mod, all[0], all[1])).To(HaveError(409, "conflict"))
		Expect(draftsOf(mod, batch, "rejected")).To(BeEmpty())
		Expect(mod.Client(h).Post(fmt.Sprintf("/api/v1/drafts/%d/reopen", all[0]), nil)).To(HaveError(409, "conflict"))
		Expect(mod.Client(h).Delete(fmt.Sprintf("/api/v1/drafts/%d", all[0]))).To(HaveError(409, "conflict"))
	})

	It("rejects, keeps rejected drafts listed, reopens them, and deletes only rejected ones", func() {
		res := reject(mod, all[0], all[1])
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()["rejected"]).To(HaveLen(2))
		Expect(ids(draftsOf(mod, batch, "rejected"))).To(Equal([]int64{all[0], all[1]}))
		Expect(draftsOf(mod, batch, "all")).To(HaveLen(7))
		Expect(reject(mod, all[0])).To(HaveStatus(200)) // again: nothing changes

		Expect(accept(mod, all[0])).To(HaveError(400, "bad_request"))
		Expect(mod.Client(h).Delete(fmt.Sprintf("/api/v1/drafts/%d", all[2]))).To(HaveError(400, "bad_request"))
		Expect(mod.Client(h).Post(fmt.Sprintf("/api/v1/drafts/%d/reopen", all[2]), nil)).To(HaveError(400, "bad_request"))

		reopened := mod.Client(h).Post(fmt.Sprintf("/api/v1/drafts/%d/reopen", all[0]), nil)
		Expect(reopened).To(HaveStatus(200))
		Expect(reopened.Map()["status"]).To(Equal("pending"))

		Expect(mod.Client(h).Delete(fmt.Sprintf("/api/v1/drafts/%d", all[1]))).To(HaveStatus(204))
		Expect(mod.Client(h).Get(fmt.Sprintf("/api/v1/drafts/%d", all[1]))).To(HaveError(404, "not_found"))
		Expect(draftsOf(mod, batch, "all")).To(HaveLen(6))
		Expect(mod.Client(h).Delete(fmt.Sprintf("/api/v1/drafts/%d", all[1]))).To(HaveError(404, "not_found"))
	})

	It("closes the batch when the last pending draft is resolved and reopens it when a draft is reopened", func() {
		Expect(accept(mod, all[:6]...)).To(HaveStatus(200))
		Expect(batchOf(mod, batch)["status"]).To(Equal("open"))
		res := reject(mod, all[6])
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()["batches"].([]any)[0].(map[string]any)["status"]).To(Equal("closed"))
		Expect(batchOf(mod, batch)["counts"]).To(Equal(map[string]any{"pending": 0.0, "rejected": 1.0, "accepted": 6.0, "total": 7.0}))
		Expect(batchIDs(mod, "open")).NotTo(ContainElement(batch))

		Expect(mod.Client(h).Post(fmt.Sprintf("/api/v1/drafts/%d/reopen", all[6]), nil)).To(HaveStatus(200))
		Expect(batchOf(mod, batch)["status"]).To(Equal("open"))
		Expect(batchOf(mod, batch)["closed_at"]).To(BeNil())
		Expect(batchIDs(mod, "open")).To(ContainElement(batch))
	})

	It("edits a draft: options one per line, type, and its own category, which wins over the batch's", func() {
		other := newCategory(mod, fmt.Sprintf("Valves %d", batch))
		res := mod.Client(h).Patch(fmt.Sprintf("/api/v1/drafts/%d", all[6]), map[string]any{
			"question_text":  "  Which murmur is heard in aortic stenosis?  ",
			"options":        "Ejection systolic murmur\r\n\nPansystolic murmur\n  Early diastolic murmur  \nMid-diastolic rumble\n",
			"correct_answer": "Mid-diastolic rumble",
			"explanation":    "Trick option; fixed below.",
			"category_id":    other,
		})
		Expect(res).To(HaveStatus(200))
		d := res.Map()
		Expect(d["question_text"]).To(Equal("Which murmur is heard in aortic stenosis?"))
		Expect(d["options"]).To(Equal([]any{"Ejection systolic murmur", "Pansystolic murmur", "Early diastolic murmur", "Mid-diastolic rumble"}))
		Expect(d["category_id"]).To(BeNumerically("==", other))
		Expect(d["ready"]).To(BeTrue())

		// Absent fields stay; a later edit changes only what it names.
		res = mod.Client(h).Patch(fmt.Sprintf("/api/v1/drafts/%d", all[6]), map[string]any{"correct_answer": "Ejection systolic murmur"})
		Expect(res.Map()["explanation"]).To(Equal("Trick option; fixed below."))
		Expect(res.Map()["category_id"]).To(BeNumerically("==", other))

		out := accept(mod, all[5], all[6])
		Expect(out).To(HaveStatus(200))
		acc := out.Map()["accepted"].([]any)
		Expect(question(mod, acc[0].(map[string]any)["question_id"].(float64))["question_category_id"]).To(BeNumerically("==", category))
		Expect(question(mod, acc[1].(map[string]any)["question_id"].(float64))["question_category_id"]).To(BeNumerically("==", other))
	})

	It("clears a draft's own category with null, and reports readiness problems after edits", func() {
		other := newCategory(mod, fmt.Sprintf("Rhythm %d", batch))
		Expect(mod.Client(h).Patch(fmt.Sprintf("/api/v1/drafts/%d", all[0]), map[string]any{"category_id": other})).To(HaveStatus(200))
		res := mod.Client(h).Patch(fmt.Sprintf("/api/v1/drafts/%d", all[0]), map[string]any{"category_id": nil})
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()["category_id"]).To(BeNil())

		res = mod.Client(h).Patch(fmt.Sprintf("/api/v1/drafts/%d", all[0]), map[string]any{"question_text": " ", "options": "Only one"})
		Expect(res.Map()["problems"]).To(Equal([]any{"no question text", "fewer than two options", "correct answer is not one of the options"}))
		res = mod.Client(h).Patch(fmt.Sprintf("/api/v1/drafts/%d", all[0]), map[string]any{"question_type": "fill_in",
			"question_text": "Name it.", "correct_answer": ""})
		Expect(res.Map()["problems"]).To(Equal([]any{"no correct answer"}))
		res = accept(mod, all[0], all[1])
		Expect(res).To(HaveError(400, "bad_request"))
		Expect(message(res)).To(ContainSubstring(fmt.Sprintf("draft %d: no correct answer", all[0])))
		Expect(draftsOf(mod, batch, "accepted")).To(BeEmpty())
	})

	It("prints every not-ready draft's reasons when it refuses an acceptance, and accepts none", func() {
		edit := func(id int64, body map[string]any) {
			Expect(mod.Client(h).Patch(fmt.Sprintf("/api/v1/drafts/%d", id), body)).To(HaveStatus(200))
		}
		edit(all[0], map[string]any{"question_text": "  "})
		edit(all[1], map[string]any{"options": "Only one", "correct_answer": "Only one"})
		edit(all[2], map[string]any{"correct_answer": "Beta blockers"})
		edit(all[3], map[string]any{"options": "Hyperkalaemia\nhyperkalaemia\nHypocalcaemia", "correct_answer": "Hypocalcaemia"})
		edit(all[5], map[string]any{"correct_answer": ""})

		res := accept(mod, all...)
		Expect(res).To(HaveError(400, "bad_request"))
		msg := message(res)
		Expect(msg).To(ContainSubstring("6 of 7 drafts not ready"))
		for id, reason := range map[int64]string{
			all[0]: "no question text",
			all[1]: "fewer than two options",
			all[2]: "correct answer is not one of the options",
			all[3]: "an option appears twice",
			all[5]: "no correct answer",
			all[6]: "no correct answer marked",
		} {
			Expect(msg).To(ContainSubstring(fmt.Sprintf("draft %d: %s", id, reason)))
		}
		Expect(msg).NotTo(ContainSubstring(fmt.Sprintf("draft %d:", all[4])))
		Expect(draftsOf(mod, batch, "accepted")).To(BeEmpty())
		Expect(count(h, `SELECT count(*) FROM bank.questions WHERE question_category_id = ?`, category)).To(BeZero())
		Expect(accept(mod, all[4])).To(HaveStatus(200))
	})

	It("refuses edits that name nothing, or a category that does not exist", func() {
		Expect(mod.Client(h).Patch(fmt.Sprintf("/api/v1/drafts/%d", all[0]), map[string]any{})).To(HaveError(422, "invalid_request"))
		Expect(mod.Client(h).Patch(fmt.Sprintf("/api/v1/drafts/%d", all[0]), map[string]any{"category_id": 999999})).
			To(HaveError(422, "invalid_request"))
		Expect(mod.Client(h).Patch(fmt.Sprintf("/api/v1/drafts/%d", all[0]), map[string]any{"category_id": 0})).
			To(HaveError(422, "invalid_request"))
		Expect(mod.Client(h).Patch(fmt.Sprintf("/api/v1/drafts/%d", all[0]), map[string]any{"category_id": "cardio"})).
			To(HaveError(422, "invalid_request"))
		Expect(mod.Client(h).Patch(fmt.Sprintf("/api/v1/drafts/%d", all[0]), map[string]any{"question_type": "essay"})).
			To(HaveError(422, "invalid_request"))
		Expect(mod.Client(h).Patch(fmt.Sprintf("/api/v1/drafts/%d", all[0]), map[string]any{"stem": "x"})).
			To(HaveError(422, "invalid_request"))
		Expect(mod.Client(h).Patch("/api/v1/drafts/999999", map[string]any{"question_text": "x"})).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Patch(fmt.Sprintf("/api/v1/drafts/batches/%d", batch), map[string]any{"category_id": 999999})).
			To(HaveError(422, "invalid_request"))
		Expect(mod.Client(h).Patch("/api/v1/drafts/batches/999999", map[string]any{"category_id": category})).
			To(HaveError(404, "not_found"))
	})

	It("names missing drafts with 404 and validates the selection", func() {
		res := accept(mod, all[0], 999999)
		Expect(res).To(HaveError(404, "not_found"))
		Expect(message(res)).To(ContainSubstring("999999"))
		Expect(draftsOf(mod, batch, "accepted")).To(BeEmpty())
		Expect(reject(mod, 999998)).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Post("/api/v1/drafts/999999/reopen", nil)).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Get("/api/v1/drafts/batches/999999")).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Post("/api/v1/drafts/accept", map[string]any{"draft_ids": []int64{}})).To(HaveError(422, "invalid_request"))
		Expect(mod.Client(h).Post("/api/v1/drafts/reject", map[string]any{})).To(HaveError(422, "invalid_request"))
	})

	It("accepts a selection naming a draft twice once", func() {
		res := accept(mod, all[0], all[0])
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()["accepted"]).To(HaveLen(1))
	})

	It("accepts drafts from two batches in one call, each filed by its own batch", func() {
		second, otherCategory := batchWithCategory(mod)
		theirs := ids(draftsOf(mod, second, "all"))
		res := accept(mod, all[0], theirs[0])
		Expect(res).To(HaveStatus(200))
		acc := res.Map()["accepted"].([]any)
		Expect(res.Map()["batches"]).To(HaveLen(2))
		Expect(question(mod, acc[0].(map[string]any)["question_id"].(float64))["question_category_id"]).To(BeNumerically("==", category))
		Expect(question(mod, acc[1].(map[string]any)["question_id"].(float64))["question_category_id"]).To(BeNumerically("==", otherCategory))
	})

	It("pages a batch's drafts in extraction order and filters them by status", func() {
		page := mod.Client(h).Get(fmt.Sprintf("/api/v1/drafts/batches/%d/drafts?limit=3&offset=2", batch))
		Expect(page).To(HaveStatus(200))
		Expect(ids(asMaps(page.List()))).To(Equal(all[2:5]))
		Expect(mod.Client(h).Get(fmt.Sprintf("/api/v1/drafts/batches/%d/drafts?status=done", batch))).To(HaveError(422, "invalid_request"))
		Expect(mod.Client(h).Get("/api/v1/drafts/batches/999999/drafts")).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Get("/api/v1/drafts/batches?status=maybe")).To(HaveError(422, "invalid_request"))
	})

	It("is for moderators only", func() {
		learner := h.NewUser(auth.RoleUser).Client(h)
		Expect(learner.Get("/api/v1/drafts/batches")).To(HaveError(403, "forbidden"))
		Expect(learner.Get(fmt.Sprintf("/api/v1/drafts/batches/%d", batch))).To(HaveError(403, "forbidden"))
		Expect(learner.Get(fmt.Sprintf("/api/v1/drafts/batches/%d/drafts", batch))).To(HaveError(403, "forbidden"))
		Expect(learner.Patch(fmt.Sprintf("/api/v1/drafts/batches/%d", batch), map[string]any{"category_id": category})).To(HaveError(403, "forbidden"))
		Expect(learner.Get(fmt.Sprintf("/api/v1/drafts/%d", all[0]))).To(HaveError(403, "forbidden"))
		Expect(learner.Patch(fmt.Sprintf("/api/v1/drafts/%d", all[0]), map[string]any{"question_text": "x"})).To(HaveError(403, "forbidden"))
		Expect(learner.Post("/api/v1/drafts/accept", map[string]any{"draft_ids": all[:1]})).To(HaveError(403, "forbidden"))
		Expect(learner.Post("/api/v1/drafts/reject", map[string]any{"draft_ids": all[:1]})).To(HaveError(403, "forbidden"))
		Expect(learner.Post(fmt.Sprintf("/api/v1/drafts/%d/reopen", all[0]), nil)).To(HaveError(403, "forbidden"))
		Expect(learner.Delete(fmt.Sprintf("/api/v1/drafts/%d", all[0]))).To(HaveError(403, "forbidden"))
		Expect(draftsOf(mod, batch, "pending")).To(HaveLen(7))
	})
})

var _ = Describe("A bank refusal the readiness checks did not foresee", func() {
	It("names the drafts and fields the bank refused (its typed refusal, not its error text), accepting nothing", func() {
		mod := moderator(h)
		batchID, category := batchWithCategory(mod)
		var ready []int64
		for _, d := range draftsOf(mod, batchID, "pending") {
			if d["ready"] == true {
				ready = append(ready, IDOf(d))
			}
		}
		Expect(len(ready)).To(BeNumerically(">=", 2))
		Expect(mod.Client(h).Delete(fmt.Sprintf("/api/v1/question-categories/%d", category))).To(HaveStatus(204))

		res := accept(mod, ready[0], ready[1])
		Expect(res).To(HaveError(422, "invalid_request"))
		env := res.Map()["error"].(map[string]any)
		Expect(env["message"]).To(Equal(fmt.Sprintf("draft %d: no such question category; draft %d: no such question category",
			ready[0], ready[1])))
		var fields []string
		for _, f := range env["fields"].([]any) {
			fields = append(fields, f.(map[string]any)["field"].(string))
		}
		Expect(fields).To(Equal([]string{fmt.Sprintf("drafts[%d].question_category_id", ready[0]),
			fmt.Sprintf("drafts[%d].question_category_id", ready[1])}))
		Expect(count(h, `SELECT count(*) FROM drafts.drafts WHERE id IN (?, ?) AND status = 'pending'`, ready[0], ready[1])).To(Equal(2))
		Expect(count(h, `SELECT count(*) FROM bank.questions WHERE question_category_id = ?`, category)).To(BeZero())
	})
})
