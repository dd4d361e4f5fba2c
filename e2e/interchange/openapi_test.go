package interchange_test

import (
	"github.com/getkin/kin-openapi/openapi3"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
)

var _ = Describe("The OpenAPI contract of interchange", func() {
	It("describes the import and export operations validly in 3.0", func() {
		res := h.Anon().Get("/api/openapi-3.0.json")
		Expect(res).To(HaveStatus(200))
		loader := openapi3.NewLoader()
		doc, err := loader.LoadFromData(res.Body)
		Expect(err).NotTo(HaveOccurred())
		want := map[string][]string{
			"/api/v1/drafts/import/{format}":                  {"drafts"},
			"/api/v1/quizzes/{quiz_id}/export/{format}":       {"quizzes"},
			"/api/v1/flashcard-decks/import/apkg":             {"flashcards"},
			"/api/v1/flashcard-decks/{deck_id}/export/apkg":   {"flashcards"},
			"/api/v1/flashcard-decks/{deck_id}/export/revlog": {"flashcards"},
		}
		mine := openapi3.NewPaths()
		for path, tags := range want {
			item := doc.Paths.Value(path)
			Expect(item).NotTo(BeNil(), path)
			Expect(item.Operations()).To(HaveLen(1), path)
			for _, op := range item.Operations() {
				Expect(op.Tags).To(Equal(tags), path)
			}
			mine.Set(path, item)
		}
		doc.Paths = mine
		Expect(doc.Validate(loader.Context, openapi3.DisableExamplesValidation())).To(Succeed())
	})
})
