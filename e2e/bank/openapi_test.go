package bank_test

import (
	"encoding/json"

	"github.com/getkin/kin-openapi/openapi3"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
)

var _ = Describe("The bank's part of the OpenAPI document", func() {
	It("describes every bank operation once, with the spec's tag, and stays valid", func() {
		res := h.Anon().Get("/api/openapi.json")
		Expect(res).To(HaveStatus(200))
		var doc struct {
			Paths map[string]map[string]struct {
				Tags []string `json:"tags"`
			} `json:"paths"`
		}
		res.JSON(&doc)
		want := map[string][]string{
			"/api/v1/questions/bank":                                               {"get"},
			"/api/v1/questions/bank/ids":                                           {"get"},
			"/api/v1/questions/{id}/category":                                      {"patch"},
			"/api/v1/questions/from-bank":                                          {"post"},
			"/api/v1/questions/bulk-category":                                      {"post"},
			"/api/v1/questions/detail/{id}":                                        {"get"},
			"/api/v1/questions/detail/{id}/versions":                               {"get"},
			"/api/v1/questions/detail/{question_id}/versions/{version_id}/restore": {"post"},
			"/api/v1/questions/create":                                             {"post"},
			"/api/v1/questions/{id}":                                               {"patch", "delete"},
			"/api/v1/questions/trash":                                              {"get"},
			"/api/v1/questions/{id}/restore":                                       {"patch"},
			"/api/v1/questions/{id}/permanent":                                     {"delete"},
			"/api/v1/quizzes/search":                                               {"get"},
			"/api/v1/quizzes/":                                                     {"get"},
			"/api/v1/quizzes/{quiz_id}":                                            {"get", "patch", "delete"},
			"/api/v1/quizzes/{quiz_id}/shuffle":                                    {"post"},
			"/api/v1/quizzes/{quiz_id}/review":                                     {"get"},
			"/api/v1/quizzes/{quiz_id}/questions":                                  {"get"},
			"/api/v1/quizzes/{quiz_id}/questions/{question_id}":                    {"patch", "delete"},
			"/api/v1/quizzes/{quiz_id}/publish":                                    {"patch"},
			"/api/v1/quizzes/trash":                                                {"get"},
			"/api/v1/quizzes/{quiz_id}/restore":                                    {"patch"},
			"/api/v1/quizzes/{quiz_id}/permanent":                                  {"delete"},
			"/api/v1/categories/":                                                  {"get", "post"},
			"/api/v1/categories/{category_id}":                                     {"delete"},
			"/api/v1/categories/quizzes/{quiz_id}":                                 {"patch"},
			"/api/v1/question-categories/":                                         {"get", "post"},
			"/api/v1/question-categories/{cat_id}":                                 {"patch", "delete"},
			"/api/v1/question-categories/{cat_id}/create-quiz":                     {"post"},
			"/api/v1/tags":                                                         {"get"},
			"/api/v1/tags/classify":                                                {"post"},
			"/api/v1/admin/classification-snapshots":                               {"get"},
			"/api/v1/admin/classification-snapshots/{snapshot_id}/rollback":        {"post"},
			"/api/v1/tags/status/{job_id}":                                         {"get"},
			"/api/v1/favorites":                                                    {"get", "post"},
			"/api/v1/favorites/{question_id}":                                      {"delete"},
		}
		tags := map[string]string{"questions": "questions", "quizzes": "quizzes", "categories": "categories",
			"question-categories": "question-categories", "tags": "tags", "favorites": "favorites",
			"admin": "admin"}
		for p, methods := range want {
			Expect(doc.Paths).To(HaveKey(p))
			for _, m := range methods {
				Expect(doc.Paths[p]).To(HaveKey(m), p)
				Expect(tags).To(HaveKey(doc.Paths[p][m].Tags[0]), p)
			}
		}

		// The 3.0.3 rendering of the bank's paths (only: other modules answer
		// for theirs) must validate.
		var full map[string]any
		h.Anon().Get("/api/openapi-3.0.json").JSON(&full)
		mine := map[string]any{}
		for p, item := range full["paths"].(map[string]any) {
			if _, ok := want[p]; ok {
				mine[p] = item
			}
		}
		full["paths"] = mine
		data, err := json.Marshal(full)
		Expect(err).NotTo(HaveOccurred())
		loader := openapi3.NewLoader()
		parsed, err := loader.LoadFromData(data)
		Expect(err).NotTo(HaveOccurred())
		Expect(parsed.Validate(loader.Context)).To(Succeed())
	})
})
