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

func accept(u *harness.User, ids ...int64) *harness.Response {
	return u.Client(h).Post("/api/v1/drafts/accept", contract.SelectionInBody{DraftIds: ids})
}

func reject(u *harness.User, ids ...int64) *harness.Response {
	return u.Client(h).Post("/api/v1/drafts/reject", contract.SelectionInBody{DraftIds: ids})
}

// accepted reads a successful acceptance.
func accepted(res *harness.Response) contract.AcceptResponse {
	out := ok[contract.AcceptResponse](res)
	ExpectWithOffset(1, out.Accepted).NotTo(BeNil(), "accepted")
	ExpectWithOffset(1, out.Batches).NotTo(BeNil(), "batches")
	return out
}

// patchDraft edits a draft; body stays a map, as a client sends only the
// fields it changes (and null to clear one).
func patchDraft(u *harness.User, id int64, body map[string]any) *harness.Response {
	return u.Client(h).Patch(fmt.Sprintf("/api/v1/drafts/%d", id), body)
}

func question(u *harness.User, id int64) contract.QuestionBody {
	res := u.Client(h).Get(fmt.Sprintf("/api/v1/questions/detail/%d", id))
	Expect(res).To(HaveStatus(200))
	return Body[contract.QuestionBody](res)
}

func batchOf(u *harness.User, id int64) contract.BatchResponse {
	res := u.Client(h).Get(fmt.Sprintf("/api/v1/drafts/batches/%d", id))
	Expect(res).To(HaveStatus(200))
	return Exact[contract.BatchResponse](res)
}

// batchesListed lists batch ids (query: "" for the default, or "?...").
func batchesListed(u *harness.User, query string) []int64 {
	res := u.Client(h).Get("/api/v1/drafts/batches" + query)
	Expect(res).To(HaveStatus(200))
	return ids(Body[[]contract.BatchResponse](res), batchID)
}

func batchIDs(u *harness.User, status string) []int64 {
	return batchesListed(u, "?limit=200&status="+status)
}

var _ = Describe("From upload to accepted questions", func() {
	It("turns the paper into seven bank questions after review, all or nothing", func() {
		mod := moderator(h)
		batch := extractedBatch(mod, 1, 3)
		drafts := draftsOf(mod, batch, "all")
		Expect(drafts).To(HaveLen(7))

		first := drafts[0]
		Expect(first.QuestionType).To(Equal(contract.DraftResponseQuestionTypeMcq))
		Expect(first.QuestionText).To(Equal("Which chamber of the heart pumps oxygenated blood to the systemic circulation?"))
		Expect(first.Options).To(HaveValue(Equal([]string{"Right atrium", "Right ventricle", "Left atrium", "Left ventricle"})))
		Expect(first.CorrectAnswer).To(Equal("Left ventricle"))
		Expect(first.Explanation).To(Equal("The left ventricle ejects blood into the aorta."))
		Expect(first.SourcePage).To(HaveValue(BeEquivalentTo(1)))
		Expect(first.Status).To(Equal(contract.DraftResponseStatusPending))
		Expect(first.QuestionId).To(BeNil())
		Expect(first.Ready).To(BeTrue())
		Expect(drafts[3].CorrectAnswer).To(Equal("Hyperkalaemia"))
		Expect(drafts[4].Explanation).To(Equal("The right coronary artery supplies the node in most people."))
		Expect(drafts[5].QuestionType).To(Equal(contract.DraftResponseQuestionTypeFillIn))
		Expect(drafts[5].CorrectAnswer).To(Equal("Mitral valve"))
		Expect(drafts[6].Ready).To(BeFalse())
		Expect(drafts[6].Problems).To(HaveValue(Equal([]string{"no correct answer marked"})))
		all := ids(drafts, draftID)

		By("refusing every acceptance until the batch has its Files-into-topic category")
		res := accept(mod, all[0])
		Expect(res).To(HaveError(400, "bad_request"))
		Expect(message(res)).To(ContainSubstring(fmt.Sprintf("batch %d: no Files-into-topic category set", batch)))

		category := newCategory(mod, "Cardiology review")
		Expect(fileBatch(mod, batch, category)).To(HaveStatus(200))

		By("accepting none when one selected draft is not ready")
		res = accept(mod, all...)
		Expect(res).To(HaveError(400, "bad_request"))
		Expect(message(res)).To(ContainSubstring(fmt.Sprintf("draft %d: no correct answer marked", all[6])))
		Expect(message(res)).To(ContainSubstring("1 of 7 drafts not ready"))
		Expect(draftsOf(mod, batch, "pending")).To(HaveLen(7))
		Expect(count(h, `SELECT count(*) FROM bank.questions WHERE question_category_id = ?`, category)).To(BeZero())

		By("fixing the draft and accepting them all in one unit of work")
		fixed := ok[contract.DraftResponse](patchDraft(mod, all[6], map[string]any{"correct_answer": "Ejection systolic murmur"}))
		Expect(fixed.Ready).To(BeTrue())
		out := accepted(accept(mod, all...))
		acc := *out.Accepted
		Expect(acc).To(HaveLen(7))
		Expect(*out.Batches).NotTo(BeEmpty())
		Expect((*out.Batches)[0].Status).To(Equal(contract.BatchResponseStatusClosed))

		q := question(mod, acc[0].QuestionId)
		Expect(q.QuestionText).To(Equal(first.QuestionText))
		Expect(q.Options).To(HaveValue(Equal(*first.Options)))
		Expect(q.CorrectAnswer).To(HaveValue(Equal("Left ventricle")))
		Expect(q.Explanation).To(HaveValue(Equal("The left ventricle ejects blood into the aorta.")))
		Expect(q.QuestionCategoryId).To(HaveValue(Equal(category)))
		fill := question(mod, acc[5].QuestionId)
		Expect(fill.QuestionType).To(Equal(contract.QuestionBodyQuestionTypeFillIn))
		Expect(fill.CorrectAnswer).To(HaveValue(Equal("Mitral valve")))

		after := draftsOf(mod, batch, "accepted")
		Expect(after).To(HaveLen(7))
		Expect(after[0].QuestionId).To(HaveValue(Equal(acc[0].QuestionId)))

		By("closing the batch: it leaves the default list")
		Expect(batchOf(mod, batch).Status).To(Equal(contract.BatchResponseStatusClosed))
		Expect(batchOf(mod, batch).ClosedAt).NotTo(BeNil())
		Expect(batchIDs(mod, "open")).NotTo(ContainElement(batch))
		Expect(batchesListed(mod, "")).NotTo(ContainElement(batch))
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
		all = ids(draftsOf(mod, batch, "all"), draftID)
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
		edit := patchDraft(mod, all[0], map[string]any{"question_text": "changed"})
		Expect(edit).To(HaveError(409, "conflict"))
		Expect(message(edit)).To(ContainSubstring("edit the question instead"))
		Expect(reject(mod, all[0], all[1])).To(HaveError(409, "conflict"))
		Expect(draftsOf(mod, batch, "rejected")).To(BeEmpty())
		Expect(mod.Client(h).Post(fmt.Sprintf("/api/v1/drafts/%d/reopen", all[0]), nil)).To(HaveError(409, "conflict"))
		Expect(mod.Client(h).Delete(fmt.Sprintf("/api/v1/drafts/%d", all[0]))).To(HaveError(409, "conflict"))
	})

	It("rejects, keeps rejected drafts listed, reopens them, and deletes only rejected ones", func() {
		Expect(ok[contract.RejectResponse](reject(mod, all[0], all[1])).Rejected).To(HaveValue(ConsistOf(all[0], all[1])))
		Expect(ids(draftsOf(mod, batch, "rejected"), draftID)).To(Equal([]int64{all[0], all[1]}))
		Expect(draftsOf(mod, batch, "all")).To(HaveLen(7))
		Expect(reject(mod, all[0])).To(HaveStatus(200)) // again: nothing changes

		Expect(accept(mod, all[0])).To(HaveError(400, "bad_request"))
		Expect(mod.Client(h).Delete(fmt.Sprintf("/api/v1/drafts/%d", all[2]))).To(HaveError(400, "bad_request"))
		Expect(mod.Client(h).Post(fmt.Sprintf("/api/v1/drafts/%d/reopen", all[2]), nil)).To(HaveError(400, "bad_request"))

		reopened := mod.Client(h).Post(fmt.Sprintf("/api/v1/drafts/%d/reopen", all[0]), nil)
		Expect(reopened).To(HaveStatus(200))
		Expect(Body[contract.DraftResponse](reopened).Status).To(Equal(contract.DraftResponseStatusPending))

		Expect(mod.Client(h).Delete(fmt.Sprintf("/api/v1/drafts/%d", all[1]))).To(HaveStatus(204))
		Expect(mod.Client(h).Get(fmt.Sprintf("/api/v1/drafts/%d", all[1]))).To(HaveError(404, "not_found"))
		Expect(draftsOf(mod, batch, "all")).To(HaveLen(6))
		Expect(mod.Client(h).Delete(fmt.Sprintf("/api/v1/drafts/%d", all[1]))).To(HaveError(404, "not_found"))
	})

	It("closes the batch when the last pending draft is resolved and reopens it when a draft is reopened", func() {
		Expect(accept(mod, all[:6]...)).To(HaveStatus(200))
		Expect(batchOf(mod, batch).Status).To(Equal(contract.BatchResponseStatusOpen))
		Expect(ok[contract.RejectResponse](reject(mod, all[6])).Batches).
			To(HaveValue(HaveExactElements(HaveField("Status", contract.BatchResponseStatusClosed))))
		Expect(batchOf(mod, batch).Counts).To(Equal(contract.DraftCounts{Pending: 0, Rejected: 1, Accepted: 6, Total: 7}))
		Expect(batchIDs(mod, "open")).NotTo(ContainElement(batch))

		Expect(mod.Client(h).Post(fmt.Sprintf("/api/v1/drafts/%d/reopen", all[6]), nil)).To(HaveStatus(200))
		Expect(batchOf(mod, batch).Status).To(Equal(contract.BatchResponseStatusOpen))
		Expect(batchOf(mod, batch).ClosedAt).To(BeNil())
		Expect(batchIDs(mod, "open")).To(ContainElement(batch))
	})

	It("edits a draft: options one per line, type, and its own category, which wins over the batch's", func() {
		other := newCategory(mod, fmt.Sprintf("Valves %d", batch))
		d := ok[contract.DraftResponse](patchDraft(mod, all[6], map[string]any{
			"question_text":  "  Which murmur is heard in aortic stenosis?  ",
			"options":        "Ejection systolic murmur\r\n\nPansystolic murmur\n  Early diastolic murmur  \nMid-diastolic rumble\n",
			"correct_answer": "Mid-diastolic rumble",
			"explanation":    "Trick option; fixed below.",
			"category_id":    other,
		}))
		Expect(d.QuestionText).To(Equal("Which murmur is heard in aortic stenosis?"))
		Expect(d.Options).To(HaveValue(Equal([]string{"Ejection systolic murmur", "Pansystolic murmur", "Early diastolic murmur", "Mid-diastolic rumble"})))
		Expect(d.CategoryId).To(HaveValue(Equal(other)))
		Expect(d.Ready).To(BeTrue())

		// Absent fields stay; a later edit changes only what it names.
		d = ok[contract.DraftResponse](patchDraft(mod, all[6], map[string]any{"correct_answer": "Ejection systolic murmur"}))
		Expect(d.Explanation).To(Equal("Trick option; fixed below."))
		Expect(d.CategoryId).To(HaveValue(Equal(other)))

		acc := *accepted(accept(mod, all[5], all[6])).Accepted
		Expect(acc).To(HaveLen(2))
		Expect(question(mod, acc[0].QuestionId).QuestionCategoryId).To(HaveValue(Equal(category)))
		Expect(question(mod, acc[1].QuestionId).QuestionCategoryId).To(HaveValue(Equal(other)))
	})

	It("clears a draft's own category with null, and reports readiness problems after edits", func() {
		other := newCategory(mod, fmt.Sprintf("Rhythm %d", batch))
		Expect(ok[contract.DraftResponse](patchDraft(mod, all[0], map[string]any{"category_id": other})).CategoryId).To(HaveValue(Equal(other)))
		Expect(ok[contract.DraftResponse](patchDraft(mod, all[0], map[string]any{"category_id": nil})).CategoryId).To(BeNil())

		d := ok[contract.DraftResponse](patchDraft(mod, all[0], map[string]any{"question_text": " ", "options": "Only one"}))
		Expect(d.Problems).To(HaveValue(Equal([]string{"no question text", "fewer than two options", "correct answer is not one of the options"})))
		d = ok[contract.DraftResponse](patchDraft(mod, all[0], map[string]any{"question_type": "fill_in",
			"question_text": "Name it.", "correct_answer": ""}))
		Expect(d.Problems).To(HaveValue(Equal([]string{"no correct answer"})))
		res := accept(mod, all[0], all[1])
		Expect(res).To(HaveError(400, "bad_request"))
		Expect(message(res)).To(ContainSubstring(fmt.Sprintf("draft %d: no correct answer", all[0])))
		Expect(draftsOf(mod, batch, "accepted")).To(BeEmpty())
	})

	It("prints every not-ready draft's reasons when it refuses an acceptance, and accepts none", func() {
		edit := func(id int64, body map[string]any) { Expect(patchDraft(mod, id, body)).To(HaveStatus(200)) }
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
		Expect(patchDraft(mod, all[0], map[string]any{})).To(HaveError(422, "invalid_request"))
		Expect(patchDraft(mod, all[0], map[string]any{"category_id": 999999})).To(HaveError(422, "invalid_request"))
		Expect(patchDraft(mod, all[0], map[string]any{"category_id": 0})).To(HaveError(422, "invalid_request"))
		Expect(patchDraft(mod, all[0], map[string]any{"category_id": "cardio"})).To(HaveError(422, "invalid_request"))
		Expect(patchDraft(mod, all[0], map[string]any{"question_type": "essay"})).To(HaveError(422, "invalid_request"))
		Expect(patchDraft(mod, all[0], map[string]any{"stem": "x"})).To(HaveError(422, "invalid_request"))
		Expect(patchDraft(mod, 999999, map[string]any{"question_text": "x"})).To(HaveError(404, "not_found"))
		Expect(fileBatch(mod, batch, 999999)).To(HaveError(422, "invalid_request"))
		Expect(fileBatch(mod, 999999, category)).To(HaveError(404, "not_found"))
	})

	It("names missing drafts with 404 and validates the selection", func() {
		res := accept(mod, all[0], 999999)
		Expect(res).To(HaveError(404, "not_found"))
		Expect(message(res)).To(ContainSubstring("999999"))
		Expect(draftsOf(mod, batch, "accepted")).To(BeEmpty())
		Expect(reject(mod, 999998)).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Post("/api/v1/drafts/999999/reopen", nil)).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Get("/api/v1/drafts/batches/999999")).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Post("/api/v1/drafts/accept", contract.SelectionInBody{DraftIds: []int64{}})).
			To(HaveError(422, "invalid_request"))
		Expect(mod.Client(h).Post("/api/v1/drafts/reject", map[string]any{})).To(HaveError(422, "invalid_request"))
	})

	It("accepts a selection naming a draft twice once", func() {
		acc := *accepted(accept(mod, all[0], all[0])).Accepted
		Expect(acc).To(HaveLen(1))
		Expect(acc[0].DraftId).To(Equal(all[0]))
	})

	It("accepts drafts from two batches in one call, each filed by its own batch", func() {
		second, otherCategory := batchWithCategory(mod)
		theirs := ids(draftsOf(mod, second, "all"), draftID)
		out := accepted(accept(mod, all[0], theirs[0]))
		acc := *out.Accepted
		Expect(acc).To(HaveLen(2))
		Expect(*out.Batches).To(HaveLen(2))
		Expect(question(mod, acc[0].QuestionId).QuestionCategoryId).To(HaveValue(Equal(category)))
		Expect(question(mod, acc[1].QuestionId).QuestionCategoryId).To(HaveValue(Equal(otherCategory)))
	})

	It("pages a batch's drafts in extraction order and filters them by status", func() {
		page := mod.Client(h).Get(fmt.Sprintf("/api/v1/drafts/batches/%d/drafts?limit=3&offset=2", batch))
		Expect(page).To(HaveStatus(200))
		Expect(ids(Body[[]contract.DraftResponse](page), draftID)).To(Equal(all[2:5]))
		Expect(mod.Client(h).Get(fmt.Sprintf("/api/v1/drafts/batches/%d/drafts?status=done", batch))).To(HaveError(422, "invalid_request"))
		Expect(mod.Client(h).Get("/api/v1/drafts/batches/999999/drafts")).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Get("/api/v1/drafts/batches?status=maybe")).To(HaveError(422, "invalid_request"))
	})

	It("is for moderators only", func() {
		user := h.NewUser(auth.RoleUser)
		learner := user.Client(h)
		Expect(learner.Get("/api/v1/drafts/batches")).To(HaveError(403, "forbidden"))
		Expect(learner.Get(fmt.Sprintf("/api/v1/drafts/batches/%d", batch))).To(HaveError(403, "forbidden"))
		Expect(learner.Get(fmt.Sprintf("/api/v1/drafts/batches/%d/drafts", batch))).To(HaveError(403, "forbidden"))
		Expect(fileBatch(user, batch, category)).To(HaveError(403, "forbidden"))
		Expect(learner.Get(fmt.Sprintf("/api/v1/drafts/%d", all[0]))).To(HaveError(403, "forbidden"))
		Expect(patchDraft(user, all[0], map[string]any{"question_text": "x"})).To(HaveError(403, "forbidden"))
		Expect(accept(user, all[0])).To(HaveError(403, "forbidden"))
		Expect(reject(user, all[0])).To(HaveError(403, "forbidden"))
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
			if d.Ready {
				ready = append(ready, d.Id)
			}
		}
		Expect(len(ready)).To(BeNumerically(">=", 2))
		Expect(mod.Client(h).Delete(fmt.Sprintf("/api/v1/question-categories/%d", category))).To(HaveStatus(204))

		res := accept(mod, ready[0], ready[1])
		Expect(res).To(HaveError(422, "invalid_request"))
		env := Body[contract.Envelope](res).Error
		Expect(env.Message).To(Equal(fmt.Sprintf("draft %d: no such question category; draft %d: no such question category",
			ready[0], ready[1])))
		Expect(env.Fields).NotTo(BeNil())
		var fields []string
		for _, f := range *env.Fields {
			fields = append(fields, f.Field)
		}
		Expect(fields).To(Equal([]string{fmt.Sprintf("drafts[%d].question_category_id", ready[0]),
			fmt.Sprintf("drafts[%d].question_category_id", ready[1])}))
		Expect(count(h, `SELECT count(*) FROM drafts.drafts WHERE id IN (?, ?) AND status = 'pending'`, ready[0], ready[1])).To(Equal(2))
		Expect(count(h, `SELECT count(*) FROM bank.questions WHERE question_category_id = ?`, category)).To(BeZero())
	})
})
