package flashcards_test

import (
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
)

var _ = Describe("The OpenAPI contract of flashcards", func() {
	It("describes every operation of the module validly in 3.0, tagged flashcards", func() {
		res := h.Anon().Get("/api/openapi-3.0.json")
		Expect(res).To(HaveStatus(200))
		loader := openapi3.NewLoader()
		doc, err := loader.LoadFromData(res.Body)
		Expect(err).NotTo(HaveOccurred())
		mine := openapi3.NewPaths()
		ops := 0
		for path, item := range doc.Paths.Map() {
			if strings.HasPrefix(path, "/api/v1/flashcards") {
				mine.Set(path, item)
				for _, op := range item.Operations() {
					Expect(op.Tags).To(Equal([]string{"flashcards"}), path)
					ops++
				}
			}
		}
		Expect(mine.Len()).To(Equal(21))
		Expect(ops).To(Equal(32))
		doc.Paths = mine
		Expect(doc.Validate(loader.Context, openapi3.DisableExamplesValidation())).To(Succeed())
	})
})
