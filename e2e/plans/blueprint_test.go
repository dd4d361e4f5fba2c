package plans_test

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

var _ = Describe("Plans from a blueprint", func() {
	var cardio, renal, neuro []int64
	BeforeEach(func() {
		cardio, renal, neuro = questions(8), questions(5), questions(3)
	})

	domains := func() []q {
		return []q{{"name": "Cardiology", "weight": 3, "question_ids": cardio},
			{"name": "Renal", "weight": 2, "question_ids": renal},
			{"name": "Neurology", "weight": 0.2, "question_ids": neuro}}
	}
	drawn := func(d map[string]any) (map[int64]bool, [][]int64) {
		seen := map[int64]bool{}
		var blocks [][]int64
		for _, b := range blocksOf(d) {
			var ids []int64
			for _, x := range b["question_ids"].([]any) {
				id := int64(x.(float64))
				Expect(seen[id]).To(BeFalse(), "question %d repeated across blocks", id)
				seen[id] = true
				ids = append(ids, id)
			}
			blocks = append(blocks, ids)
		}
		return seen, blocks
	}
	countIn := func(ids, pool []int64) int {
		n := 0
		for _, id := range ids {
			for _, p := range pool {
				if p == id {
					n++
				}
			}
		}
		return n
	}

	It("draws one block per domain sized by weight, at least one each, for moderators only", func() {
		body := q{"title": "Final stretch", "shape": "domains", "size": 10, "domains": domains()}
		Expect(h.NewUser(auth.RoleUser).Client(h).Post(api+"/study-plans/from-blueprint", body)).To(HaveError(403, "forbidden"))
		res := mod.Client(h).Post(api+"/study-plans/from-blueprint", body)
		Expect(res).To(HaveStatus(201))
		d := res.Map()
		Expect(d).To(And(HaveKeyWithValue("kind", "set"), HaveKeyWithValue("is_published", BeNumerically("==", 0))))
		_, blocks := drawn(d)
		Expect(blocks).To(HaveLen(3))
		// 10 × 3/5.2 = 5.77, 10 × 2/5.2 = 3.85, 10 × 0.2/5.2 = 0.38 → 6, 4, and one for neurology taken from the largest surplus.
		Expect([]int{len(blocks[0]), len(blocks[1]), len(blocks[2])}).To(Equal([]int{5, 4, 1}))
		Expect(countIn(blocks[0], cardio)).To(Equal(5))
		Expect(countIn(blocks[1], renal)).To(Equal(4))
		Expect(countIn(blocks[2], neuro)).To(Equal(1))
		Expect(blocksOf(d)[0]["title"]).To(Equal("Cardiology"))
	})

	It("draws miniature papers to the weights without repeating a question across them", func() {
		ds := domains()
		ds[2]["weight"] = 1
		res := mod.Client(h).Post(api+"/study-plans/from-blueprint", q{"title": "Mocks", "shape": "papers", "papers": 2, "size": 6, "domains": ds, "seed": 7})
		Expect(res).To(HaveStatus(201))
		seen, blocks := drawn(res.Map())
		Expect(blocks).To(HaveLen(2))
		Expect(seen).To(HaveLen(12))
		for _, b := range blocks {
			// 6 × 3/6, 6 × 2/6, 6 × 1/6.
			Expect([]int{countIn(b, cardio), countIn(b, renal), countIn(b, neuro)}).To(Equal([]int{3, 2, 1}))
		}
		// The same seed draws the same papers.
		again := mod.Client(h).Post(api+"/study-plans/from-blueprint", q{"title": "Mocks", "shape": "papers", "papers": 2, "size": 6, "domains": ds, "seed": 7})
		_, blocks2 := drawn(again.Map())
		Expect(blocks2).To(Equal(blocks))
	})

	It("refuses a blueprint the bank cannot satisfy, saying which domain is short and by how many, and stores nothing", func() {
		var before int64
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT count(*) FROM plans.plans`).Scan(&before).Error).To(Succeed())
		ds := domains()
		ds[2]["weight"] = 1
		trashed := neuro[0]
		Expect(mod.Client(h).Delete(at("/questions/%d", trashed))).To(HaveStatus(204))
		res := mod.Client(h).Post(api+"/study-plans/from-blueprint", q{"title": "Too many", "shape": "papers", "papers": 3, "size": 6, "domains": ds})
		Expect(res).To(HaveError(422, "invalid_request"))
		var env struct {
			Error struct {
				Message string
				Fields  []struct{ Field, Message string }
			}
		}
		Expect(json.Unmarshal(res.Body, &env)).To(Succeed())
		Expect(env.Error.Fields).To(ConsistOf(
			And(HaveField("Field", "body.domains[0]"), HaveField("Message", `domain "Cardiology" is short by 1 question (needs 9, has 8 unused)`)),
			And(HaveField("Field", "body.domains[1]"), HaveField("Message", `domain "Renal" is short by 1 question (needs 6, has 5 unused)`)),
			And(HaveField("Field", "body.domains[2]"), HaveField("Message", `domain "Neurology" is short by 1 question (needs 3, has 2 unused)`)),
		))
		Expect(env.Error.Message).To(HavePrefix("the bank cannot satisfy the blueprint: "))
		var after int64
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT count(*) FROM plans.plans`).Scan(&after).Error).To(Succeed())
		Expect(after).To(Equal(before))

		Expect(mod.Client(h).Post(api+"/study-plans/from-blueprint", q{"title": "Tiny", "shape": "domains", "size": 2, "domains": domains()})).
			To(HaveError(422, "invalid_request"))
		// No domains (null, which the schema refuses as it refuses []) is refused in
		// either shape, and nothing is stored.
		for _, shape := range []string{"domains", "papers"} {
			Expect(mod.Client(h).Post(api+"/study-plans/from-blueprint", q{"title": "None", "shape": shape, "size": 5, "domains": nil})).
				To(HaveError(422, "invalid_request"), shape)
		}
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT count(*) FROM plans.plans`).Scan(&after).Error).To(Succeed())
		Expect(after).To(Equal(before))
	})
})
