package attempts_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
)

var _ = Describe("Folders and collections", func() {
	It("files collections of questions into folders", func() {
		u := learner()
		c := u.Client(h)
		q1 := openQuestion(mcq("Keep 1?", "Yes", "Yes", "No"))
		q2 := openQuestion(mcq("Keep 2?", "Yes", "Yes", "No"))

		fres := c.Post("/api/v1/folders", map[string]any{"name": "Cardiology"})
		Expect(fres).To(HaveStatus(201))
		folder := fres.ID()
		Expect(c.Post("/api/v1/folders", map[string]any{"name": "cardiology"})).To(HaveError(409, "conflict"))
		Expect(c.Post("/api/v1/folders", map[string]any{"name": "   "})).To(HaveError(422, "invalid_request"))

		cres := c.Post("/api/v1/collections", map[string]any{"name": "Hard ones", "description": "revisit",
			"folder_id": folder})
		Expect(cres).To(HaveStatus(201))
		coll := cres.ID()
		Expect(cres.Map()["folder_id"]).To(BeNumerically("==", folder))
		loose := c.Post("/api/v1/collections", map[string]any{"name": "Loose"}).ID()

		Expect(c.Put(fmt.Sprintf("/api/v1/collections/%d/questions/%d", coll, q2), nil)).To(HaveStatus(204))
		Expect(c.Put(fmt.Sprintf("/api/v1/collections/%d/questions/%d", coll, q1), nil)).To(HaveStatus(204))
		Expect(c.Put(fmt.Sprintf("/api/v1/collections/%d/questions/%d", coll, q2), nil)).To(HaveStatus(204), "again: no change")
		Expect(c.Put(fmt.Sprintf("/api/v1/collections/%d/questions/999999", coll), nil)).To(HaveError(404, "not_found"))

		one := c.Get(fmt.Sprintf("/api/v1/collections/%d", coll))
		Expect(one).To(HaveStatus(200))
		Expect(one.Map()["question_ids"]).To(Equal([]any{float64(q2), float64(q1)}))
		Expect(one.Map()["questions"]).To(BeNumerically("==", 2))

		inFolder := c.Get(fmt.Sprintf("/api/v1/collections?folder_id=%d", folder)).List()
		Expect(inFolder).To(HaveLen(1))
		unfiled := c.Get("/api/v1/collections?unfiled=true").List()
		Expect(unfiled).To(HaveLen(1))
		Expect(unfiled[0].(map[string]any)["id"]).To(BeNumerically("==", loose))
		Expect(c.Get("/api/v1/collections").List()).To(HaveLen(2))
		folders := c.Get("/api/v1/folders").List()
		Expect(folders).To(HaveLen(1))
		Expect(folders[0].(map[string]any)["collections"]).To(BeNumerically("==", 1))

		// Move, rename, unfile.
		res := c.Patch(fmt.Sprintf("/api/v1/collections/%d", loose), map[string]any{"name": "Filed", "folder_id": folder})
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()["folder_id"]).To(BeNumerically("==", folder))
		res = c.Patch(fmt.Sprintf("/api/v1/collections/%d", loose), map[string]any{"folder_id": nil})
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()["folder_id"]).To(BeNil())
		Expect(res.Map()["name"]).To(Equal("Filed"))

		Expect(c.Delete(fmt.Sprintf("/api/v1/collections/%d/questions/%d", coll, q2))).To(HaveStatus(204))
		Expect(c.Delete(fmt.Sprintf("/api/v1/collections/%d/questions/%d", coll, q2))).To(HaveError(404, "not_found"))

		Expect(c.Patch(fmt.Sprintf("/api/v1/folders/%d", folder), map[string]any{"name": "Cardio"})).To(HaveStatus(200))
		// Deleting a folder keeps its collections, unfiled.
		Expect(c.Delete(fmt.Sprintf("/api/v1/folders/%d", folder))).To(HaveStatus(204))
		kept := c.Get(fmt.Sprintf("/api/v1/collections/%d", coll))
		Expect(kept).To(HaveStatus(200))
		Expect(kept.Map()["folder_id"]).To(BeNil())
		Expect(kept.Map()["question_ids"]).To(Equal([]any{float64(q1)}))

		Expect(c.Delete(fmt.Sprintf("/api/v1/collections/%d", coll))).To(HaveStatus(204))
		Expect(c.Get(fmt.Sprintf("/api/v1/collections/%d", coll))).To(HaveError(404, "not_found"))
	})

	It("refuses what does not fit, changing nothing", func() {
		u, other := learner(), learner()
		c := u.Client(h)
		q1 := openQuestion(mcq("Fits?", "Yes", "Yes", "No"))
		cardio := c.Post("/api/v1/folders", map[string]any{"name": "Cardiology"}).ID()
		renal := c.Post("/api/v1/folders", map[string]any{"name": "Renal"}).ID()
		theirs := other.Client(h).Post("/api/v1/folders", map[string]any{"name": "Theirs"}).ID()

		// A rename onto another of the learner's names, in any case, is 409; a blank one 422.
		Expect(c.Patch(fmt.Sprintf("/api/v1/folders/%d", renal), map[string]any{"name": "CARDIOLOGY"})).
			To(HaveError(409, "conflict"))
		Expect(c.Patch(fmt.Sprintf("/api/v1/folders/%d", renal), map[string]any{"name": "  "})).
			To(HaveError(422, "invalid_request"))
		names := []any{}
		for _, f := range c.Get("/api/v1/folders").List() {
			names = append(names, f.(map[string]any)["name"])
		}
		Expect(names).To(Equal([]any{"Cardiology", "Renal"}))

		// One folder or the unfiled, not both.
		Expect(c.Get(fmt.Sprintf("/api/v1/collections?folder_id=%d&unfiled=true", cardio))).
			To(HaveError(422, "invalid_request"))

		// A new collection reads with an empty question list, not a missing one.
		coll := c.Post("/api/v1/collections", map[string]any{"name": "Empty", "folder_id": cardio}).ID()
		empty := c.Get(fmt.Sprintf("/api/v1/collections/%d", coll))
		Expect(empty).To(HaveStatus(200))
		Expect(empty.Map()).To(HaveKeyWithValue("question_ids", []any{}))

		// Moving it into someone else's folder, or renaming it to blank, is 422.
		Expect(c.Patch(fmt.Sprintf("/api/v1/collections/%d", coll), map[string]any{"folder_id": theirs})).
			To(HaveError(422, "invalid_request"))
		Expect(c.Patch(fmt.Sprintf("/api/v1/collections/%d", coll), map[string]any{"name": " "})).
			To(HaveError(422, "invalid_request"))
		Expect(c.Post("/api/v1/collections", map[string]any{"name": " "})).To(HaveError(422, "invalid_request"))
		kept := c.Get(fmt.Sprintf("/api/v1/collections/%d", coll)).Map()
		Expect(kept["folder_id"]).To(BeNumerically("==", cardio))
		Expect(kept["name"]).To(Equal("Empty"))

		// A full collection (1,000 questions) takes no more.
		exec(`INSERT INTO attempts.collection_questions (collection_id, question_id)
			SELECT ?, g FROM generate_series(900000001, 900001000) AS g`, coll)
		Expect(c.Put(fmt.Sprintf("/api/v1/collections/%d/questions/%d", coll, q1), nil)).To(HaveError(400, "bad_request"))
		Expect(c.Get(fmt.Sprintf("/api/v1/collections/%d", coll)).Map()["questions"]).To(BeNumerically("==", 1000))
	})

	It("is the owner's only", func() {
		owner, other := learner(), learner()
		q1 := openQuestion(mcq("Mine?", "Yes", "Yes", "No"))
		folder := owner.Client(h).Post("/api/v1/folders", map[string]any{"name": "Private"}).ID()
		coll := owner.Client(h).Post("/api/v1/collections", map[string]any{"name": "Private list"}).ID()
		Expect(owner.Client(h).Put(fmt.Sprintf("/api/v1/collections/%d/questions/%d", coll, q1), nil)).To(HaveStatus(204))

		c := other.Client(h)
		Expect(c.Get(fmt.Sprintf("/api/v1/collections/%d", coll))).To(HaveError(404, "not_found"))
		Expect(c.Patch(fmt.Sprintf("/api/v1/collections/%d", coll), map[string]any{"name": "x"})).To(HaveError(404, "not_found"))
		Expect(c.Delete(fmt.Sprintf("/api/v1/collections/%d", coll))).To(HaveError(404, "not_found"))
		Expect(c.Put(fmt.Sprintf("/api/v1/collections/%d/questions/%d", coll, q1), nil)).To(HaveError(404, "not_found"))
		Expect(c.Delete(fmt.Sprintf("/api/v1/collections/%d/questions/%d", coll, q1))).To(HaveError(404, "not_found"))
		Expect(c.Patch(fmt.Sprintf("/api/v1/folders/%d", folder), map[string]any{"name": "x"})).To(HaveError(404, "not_found"))
		Expect(c.Delete(fmt.Sprintf("/api/v1/folders/%d", folder))).To(HaveError(404, "not_found"))
		Expect(c.Get(fmt.Sprintf("/api/v1/collections?folder_id=%d", folder))).To(HaveError(404, "not_found"))
		// Nor may they file their own collection into someone else's folder.
		Expect(c.Post("/api/v1/collections", map[string]any{"name": "Sneaky", "folder_id": folder})).
			To(HaveError(422, "invalid_request"))
		Expect(c.Get("/api/v1/collections").List()).To(BeEmpty())
		Expect(c.Get("/api/v1/folders").List()).To(BeEmpty())
		// The owner's things are untouched.
		Expect(owner.Client(h).Get(fmt.Sprintf("/api/v1/collections/%d", coll)).Map()["name"]).To(Equal("Private list"))
		// The same folder name is fine for another learner.
		Expect(c.Post("/api/v1/folders", map[string]any{"name": "Private"})).To(HaveStatus(201))
	})
})

var _ = Describe("Notes", func() {
	It("keeps one private note per question", func() {
		u, other := learner(), learner()
		q1 := openQuestion(mcq("Note me?", "Yes", "Yes", "No"))
		q2 := openQuestion(mcq("Me too?", "Yes", "Yes", "No"))
		c := u.Client(h)

		res := c.Put(fmt.Sprintf("/api/v1/notes/%d", q1), map[string]any{"body": "Remember the snap."})
		Expect(res).To(HaveStatus(200))
		first := res.Map()
		res = c.Put(fmt.Sprintf("/api/v1/notes/%d", q1), map[string]any{"body": "Opening snap = MS."})
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()["id"]).To(Equal(first["id"]), "one note per question, rewritten")
		Expect(res.Map()["body"]).To(Equal("Opening snap = MS."))
		Expect(c.Put(fmt.Sprintf("/api/v1/notes/%d", q2), map[string]any{"body": "Second."})).To(HaveStatus(200))

		Expect(c.Get(fmt.Sprintf("/api/v1/notes/%d", q1)).Map()["body"]).To(Equal("Opening snap = MS."))
		all := c.Get("/api/v1/notes").List()
		Expect(all).To(HaveLen(2))
		Expect(all[0].(map[string]any)["question_id"]).To(BeNumerically("==", q2), "most recently changed first")
		Expect(c.Get(fmt.Sprintf("/api/v1/notes?question_ids=%d", q1)).List()).To(HaveLen(1))
		Expect(c.Get("/api/v1/notes?question_ids=a,b")).To(HaveError(422, "invalid_request"))

		Expect(c.Put("/api/v1/notes/999999", map[string]any{"body": "nothing there"})).To(HaveError(404, "not_found"))
		Expect(c.Put(fmt.Sprintf("/api/v1/notes/%d", q1), map[string]any{"body": "  "})).To(HaveError(422, "invalid_request"))

		o := other.Client(h)
		Expect(o.Get(fmt.Sprintf("/api/v1/notes/%d", q1))).To(HaveError(404, "not_found"))
		Expect(o.Delete(fmt.Sprintf("/api/v1/notes/%d", q1))).To(HaveError(404, "not_found"))
		Expect(o.Get("/api/v1/notes").List()).To(BeEmpty())

		Expect(c.Delete(fmt.Sprintf("/api/v1/notes/%d", q1))).To(HaveStatus(204))
		Expect(c.Get(fmt.Sprintf("/api/v1/notes/%d", q1))).To(HaveError(404, "not_found"))
	})
})
