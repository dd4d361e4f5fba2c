package media_test

import (
	"bytes"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

var _ = Describe("Question images outside an attempt", func() {
	It("shows a question's stem images to a learner browsing it, answer-side ones only to its editors", func() {
		stem, stemFig, expl, answerFig := "qimg/stem.png", "qimg/stem-figure.png", "qimg/explanation.png", "qimg/answer-figure.png"
		for _, k := range []string{stem, stemFig, expl, answerFig, "qimg/loose.png"} {
			_, err := h.App.Storage.Put(ctxb, k, bytes.NewReader(pngOf(8, 8)), "image/png")
			Expect(err).NotTo(HaveOccurred())
		}
		cat := mod.Client(h).Post(api+"/question-categories/", q{"name": "Question images"})
		Expect(cat).To(HaveStatus(201))
		created := mod.Client(h).Post(api+"/questions/create", q{"question_text": "Which valve?", "question_type": "mcq",
			"options": []string{"Mitral", "Aortic"}, "correct_answer": "Mitral", "image_path": stem,
			"explanation_image_path": expl, "question_category_id": cat.Map()["id"],
			"figures": []q{{"path": stemFig, "role": "stem"}, {"path": answerFig, "role": "answer"}}})
		Expect(created).To(HaveStatus(201))
		qid := int64(created.Map()["id"].(float64))

		learner := h.NewUser(auth.RoleUser)
		detail := learner.Client(h).Get(path("/questions/detail/%d", qid))
		Expect(detail).To(HaveStatus(200))
		Expect(detail.Map()).To(And(HaveKeyWithValue("image_path", stem), HaveKeyWithValue("explanation_image_path", BeNil())))
		for _, k := range []string{stem, stemFig} {
			res := learner.Client(h).Get("/uploads/" + k)
			Expect(res).To(HaveStatus(200), k)
			Expect(res.Body).To(Equal(pngOf(8, 8)))
			Expect(learner.Client(h).Get("/uploads/"+k+"?w=256")).To(HaveStatus(200), k)
		}
		for _, k := range []string{expl, answerFig, "qimg/loose.png"} {
			Expect(learner.Client(h).Get("/uploads/"+k)).To(HaveError(403, "forbidden"), k)
		}

		// A category grant holder edits the question, so its detail shows
		// the answers and so do the files.
		editor := h.NewUser(auth.RoleUser)
		Expect(mod.Client(h).Post(path("/access/%d/grants", editor.ID), q{"kind": "category",
			"target_id": cat.Map()["id"]})).To(HaveStatus(201))
		for _, k := range []string{expl, answerFig, stem} {
			Expect(editor.Client(h).Get("/uploads/"+k)).To(HaveStatus(200), k)
		}
		Expect(editor.Client(h).Get("/uploads/qimg/loose.png")).To(HaveError(403, "forbidden"))

		// A trashed question shows nothing to learners any more.
		Expect(mod.Client(h).Delete(path("/questions/%d", qid))).To(HaveStatus(204))
		Expect(learner.Client(h).Get("/uploads/" + stem)).To(HaveError(403, "forbidden"))
		Expect(mod.Client(h).Get("/uploads/" + stem)).To(HaveStatus(200))
	})
})
