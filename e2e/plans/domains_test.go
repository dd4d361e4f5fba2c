package plans_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
)

var _ = Describe("Blueprint domains by category branch or tag", func() {
	// category makes a question category (under parent when set).
	category := func(name string, parent *int64) int64 {
		body := q{"name": fmt.Sprintf("%s %d", name, GinkgoRandomSeed())}
		if parent != nil {
			body["parent_id"] = *parent
		}
		res := mod.Client(h).Post(api+"/question-categories/", body)
		ExpectWithOffset(1, res).To(HaveStatus(201))
		return res.ID()
	}
	// filed files n questions under a category.
	filed := func(n int, cat int64) []int64 {
		ids := make([]int64, n)
		for i := range ids {
			res := mod.Client(h).Post(api+"/questions/create", q{"question_text": fmt.Sprintf("Filed %d-%d-%d?", cat, GinkgoRandomSeed(), i),
				"question_type": "mcq", "options": []string{"Yes", "No"}, "correct_answer": "Yes", "question_category_id": cat})
			ExpectWithOffset(1, res).To(HaveStatus(201))
			ids[i] = res.ID()
		}
		return ids
	}

	It("draws a domain from a category's whole branch, from tagged questions, and names a short one", func() {
		cardio := category("Cardiology", nil)
		valves := category("Valves", &cardio)
		branch := append(filed(2, cardio), filed(2, valves)...)
		tagged := questions(3)
		var tagID int64
		Expect(h.App.DB.Conn(ctxb).Raw(`INSERT INTO bank.tags (type, name) VALUES ('subject', ?) RETURNING id`,
			fmt.Sprintf("Nephrology %d", GinkgoRandomSeed())).Scan(&tagID).Error).To(Succeed())
		for _, id := range tagged {
			Expect(h.App.DB.Conn(ctxb).Exec(`INSERT INTO bank.question_tags (question_id, tag_id) VALUES (?, ?)`, id, tagID).Error).
				To(Succeed())
		}

		res := mod.Client(h).Post(api+"/study-plans/from-blueprint", q{"title": "By branch and tag", "shape": "domains", "size": 7,
			"domains": []q{{"name": "Cardiology", "weight": 4, "category_id": cardio}, {"name": "Renal", "weight": 3, "tag_ids": []int64{tagID}}}})
		Expect(res).To(HaveStatus(201))
		bs := blocksOf(res.Map())
		Expect(bs).To(HaveLen(2))
		Expect(bs[0]["question_ids"]).To(ConsistOf(float64(branch[0]), float64(branch[1]), float64(branch[2]), float64(branch[3])),
			"the whole branch, child category included")
		Expect(bs[1]["question_ids"]).To(ConsistOf(float64(tagged[0]), float64(tagged[1]), float64(tagged[2])))

		res = mod.Client(h).Post(api+"/study-plans/from-blueprint", q{"title": "Too much", "shape": "domains", "size": 4,
			"domains": []q{{"name": "Renal", "weight": 1, "tag_ids": []int64{tagID}}, {"name": "Valves", "weight": 3, "category_id": valves}}})
		Expect(res).To(HaveError(422, "invalid_request"))
		Expect(res.Map()["error"]).To(HaveKeyWithValue("fields", ConsistOf(And(HaveKeyWithValue("field", "body.domains[1]"),
			HaveKeyWithValue("message", `domain "Valves" is short by 1 question (needs 3, has 2 unused)`)))))
	})

	It("refuses a domain with nothing to draw from, naming it", func() {
		res := mod.Client(h).Post(api+"/study-plans/from-blueprint", q{"title": "Empty", "shape": "domains", "size": 2,
			"domains": []q{{"name": "A", "weight": 1, "question_ids": questions(1)}, {"name": "B", "weight": 1}}})
		Expect(res).To(HaveError(422, "invalid_request"))
		Expect(res.Map()["error"]).To(HaveKeyWithValue("fields", ContainElement(HaveKeyWithValue("field", "body.domains[1]"))))
	})
})
