package library_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

var _ = Describe("Glossary", func() {
	It("lets moderators manage terms, everyone search them and annotate a text", func() {
		a := write(q{"title": "Troponin explained", "status": "published",
			"sections": []q{{"id": "kinetics", "heading": "Kinetics", "markdown": "Rises in hours."}}})
		draft := simple("draft")
		res := mod.Client(h).Post(api+"/glossary/", q{"term": "  Troponin ", "definition": "A cardiac muscle protein.",
			"article_id": IDOf(a), "section_id": "kinetics"})
		Expect(res).To(HaveStatus(201))
		trop := res.Map()
		Expect(trop).To(And(HaveKeyWithValue("term", "Troponin"), HaveKeyWithValue("section_id", "kinetics")))
		Expect(mod.Client(h).Post(api+"/glossary/", q{"term": "TROPONIN", "definition": "dup"})).To(HaveError(409, "conflict"))
		Expect(mod.Client(h).Post(api+"/glossary/", q{"term": "x", "definition": "y", "article_id": IDOf(a), "section_id": "nope"})).
			To(HaveError(422, "invalid_request"))
		Expect(mod.Client(h).Post(api+"/glossary/", q{"term": "x", "definition": "y", "section_id": "kinetics"})).
			To(HaveError(422, "invalid_request"))
		res = mod.Client(h).Post(api+"/glossary/", q{"term": "Cardiac troponin I", "definition": "The cardiac isoform.",
			"article_id": IDOf(draft)})
		Expect(res).To(HaveStatus(201))
		ctni := res.Map()
		Expect(mod.Client(h).Post(api+"/glossary/", q{"term": "Oedema", "definition": "Swelling."})).To(HaveStatus(201))

		learner := h.NewUser(auth.RoleUser)
		Expect(learner.Client(h).Post(api+"/glossary/", q{"term": "x", "definition": "y"})).To(HaveError(403, "forbidden"))
		Expect(learner.Client(h).Delete(path("/glossary/%d", IDOf(trop)))).To(HaveError(403, "forbidden"))
		list := learner.Client(h).Get(api + "/glossary/?q=troponin")
		Expect(listIDs(list)).To(Equal([]int64{IDOf(ctni), IDOf(trop)}), "alphabetical")
		Expect(list.Header.Get("X-Total-Count")).To(Equal("2"))

		res = learner.Client(h).Post(api+"/glossary/annotate", q{"text": "Cardiac troponin I and troponin; no oedemas."})
		Expect(res).To(HaveStatus(200))
		Expect(res.List()).To(HaveExactElements(
			And(HaveKeyWithValue("start", 0.0), HaveKeyWithValue("end", 18.0), HaveKeyWithValue("term_id", float64(IDOf(ctni))),
				Not(HaveKey("article_slug"))),
			And(HaveKeyWithValue("text", "troponin"), HaveKeyWithValue("article_slug", "troponin-explained"),
				HaveKeyWithValue("section_id", "kinetics"))))

		res = mod.Client(h).Patch(path("/glossary/%d", IDOf(trop)), q{"definition": "Protein of cardiac muscle.", "article_id": nil})
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()).To(And(HaveKeyWithValue("definition", "Protein of cardiac muscle."), HaveKeyWithValue("article_id", BeNil()),
			HaveKeyWithValue("section_id", BeNil())))
		Expect(scalar[*int64]("SELECT article_id FROM library.glossary_terms WHERE id = ?", IDOf(trop))).To(BeNil())
		Expect(mod.Client(h).Delete(path("/glossary/%d", IDOf(trop)))).To(HaveStatus(204))
		Expect(mod.Client(h).Delete(path("/glossary/%d", IDOf(trop)))).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Patch(path("/glossary/%d", IDOf(trop)), q{"definition": "x"})).To(HaveError(404, "not_found"))
	})
})
