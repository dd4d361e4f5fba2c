package interchange_test

import (
	"bytes"
	"context"
	"fmt"
	"net/url"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/qticheck"
	"github.com/roundsedu/rounds/platform/auth"
)

// tinyPNG is a 1×1 PNG.
var tinyPNG = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89" +
	"\x00\x00\x00\rIDATx\x9cc\xf8\xcf\xc0\xf0\x1f\x00\x05\x00\x01\xff\x89\x99=\x1d\x00\x00\x00\x00IEND\xaeB`\x82")

var _ = Describe("QTI 2.1 export", func() {
	It("streams a content package whose items, answers, feedback and images match the bank", func() {
		ctx := context.Background()
		_, err := h.App.Storage.Put(ctx, "figures/qti-stem.png", bytes.NewReader(tinyPNG), "image/png")
		Expect(err).NotTo(HaveOccurred())
		cat := newCategory("QTI export")
		create := func(body map[string]any) int64 {
			body["question_category_id"] = cat
			res := mod.Client(h).Post("/api/v1/questions/create", body)
			Expect(res).To(HaveStatus(201))
			return res.ID()
		}
		mcq := create(map[string]any{"question_type": "mcq", "question_text": "Which drug is a <beta> blocker?\nChoose one & only one.",
			"options": []string{"Amlodipine", "Metoprolol", "Digoxin"}, "correct_answer": "Metoprolol",
			"explanation": "Metoprolol is β1-selective.", "option_explanations": []string{"A calcium channel blocker.", "", "A glycoside."},
			"image_path": "figures/qti-stem.png", "explanation_image_path": "figures/qti-missing.png"})
		fill := create(map[string]any{"question_type": "fill_in", "question_text": "Name the antiplatelet",
			"correct_answer": "aspirin|ASA", "explanation": "Aspirin."})
		quiz := mod.Client(h).Post(fmt.Sprintf("/api/v1/question-categories/%d/create-quiz?title=%s", cat,
			url.QueryEscape("QTI & co")), nil)
		Expect(quiz).To(HaveStatus(201))
		quizID := quiz.ID()

		exp := mod.Client(h).Get(fmt.Sprintf("/api/v1/quizzes/%d/export/qti", quizID))
		Expect(exp).To(HaveStatus(200))
		Expect(exp.Header.Get("Content-Type")).To(Equal("application/zip"))
		Expect(exp.Header.Get("Content-Disposition")).To(ContainSubstring(fmt.Sprintf("quiz-%d-qti.zip", quizID)))
		pkg, err := qticheck.Read(exp.Body)
		Expect(err).NotTo(HaveOccurred())

		Expect(pkg.TestTitle).To(Equal("QTI & co"))
		mcqID, fillID := fmt.Sprintf("item_%d", mcq), fmt.Sprintf("item_%d", fill)
		Expect(pkg.TestRefs).To(ConsistOf(mcqID, fillID))
		m := pkg.Items[mcqID]
		Expect(m.Interaction).To(Equal("choice"))
		Expect(m.Text).To(Equal("Which drug is a <beta> blocker?\nChoose one & only one."))
		Expect(m.Choices).To(Equal([]string{"Amlodipine", "Metoprolol", "Digoxin"}))
		Expect(m.Correct).To(Equal([]string{"Metoprolol"}))
		Expect(m.Feedback).To(Equal("Metoprolol is β1-selective."))
		Expect(m.Rubric).To(Equal([]string{"Amlodipine: A calcium channel blocker.", "Digoxin: A glycoside."}))
		// The stem image travels; the explanation image missing from storage is left out.
		Expect(m.Images).To(HaveLen(1))
		Expect(pkg.Files[m.Images[0]]).To(Equal(tinyPNG))
		f := pkg.Items[fillID]
		Expect(f.Interaction).To(Equal("textEntry"))
		Expect(f.Correct).To(Equal([]string{"aspirin", "ASA"}))
		Expect(f.Feedback).To(Equal("Aspirin."))
		Expect(pkg.Files).To(HaveLen(5)) // manifest, test, two items, one image
	})

	It("refuses learners and quizzes that do not exist", func() {
		learner := h.NewUser(auth.RoleUser)
		Expect(learner.Client(h).Get("/api/v1/quizzes/1/export/qti")).To(HaveError(403, "forbidden"))
		Expect(mod.Client(h).Get("/api/v1/quizzes/999999/export/qti")).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Get("/api/v1/quizzes/1/export/scorm")).To(HaveError(422, "invalid_request"))
	})
})
