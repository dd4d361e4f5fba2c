package attempts_test

import (
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
)

var _ = Describe("The OpenAPI contract of attempts", func() {
	It("describes every operation of the module validly in 3.0", func() {
		res := h.Anon().Get("/api/openapi-3.0.json")
		Expect(res).To(HaveStatus(200))
		loader := openapi3.NewLoader()
		doc, err := loader.LoadFromData(res.Body)
		Expect(err).NotTo(HaveOccurred())
		mine := openapi3.NewPaths()
		for path, item := range doc.Paths.Map() {
			for _, prefix := range []string{"/api/v1/attempts", "/api/v1/folders", "/api/v1/collections", "/api/v1/notes"} {
				// /attempts/{id}/peers is analytics', served beside them.
				if strings.HasPrefix(path, prefix) && !strings.HasSuffix(path, "/peers") {
					mine.Set(path, item)
				}
			}
		}
		ops := 0
		for _, item := range mine.Map() {
			ops += len(item.Operations())
		}
		Expect(mine.Len()).To(Equal(20))
		Expect(ops).To(Equal(30))
		doc.Paths = mine
		Expect(doc.Validate(loader.Context, openapi3.DisableExamplesValidation())).To(Succeed())
	})
})
