package search_test

import (
	"net/url"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

var _ = Describe("GET /search", func() {
	It("answers one section per asked kind, in the order asked, empty ones included", func() {
		id := question(local, "Causes of community acquired pneumonia in the elderly")
		waitIndexed(local, id, 1)
		u := searcher(local)
		res := u.Client(local).Get("/api/v1/search?q=" + url.QueryEscape("pneumonia elderly") + "&kinds=deck,question")
		Expect(res).To(HaveStatusOK())
		var out globalResult
		res.JSON(&out)
		Expect(out.Query).To(Equal("pneumonia elderly"))
		Expect(out.Semantic).To(BeTrue())
		Expect(out.Results).To(HaveLen(2))
		Expect(out.Results[0].Kind).To(Equal("deck"))
		Expect(out.Results[0].Hits).To(BeEmpty())
		Expect(out.Results[1].Kind).To(Equal("question"))
		Expect(ids(out.Results[1])).To(ContainElement(id))
	})

	It("searches every kind when none is named", func() {
		u := newUser(local, auth.RoleUser)
		res := u.Client(local).Get("/api/v1/search?q=anything")
		Expect(res).To(HaveStatusOK())
		var out globalResult
		res.JSON(&out)
		var kinds []string
		for _, s := range out.Results {
			kinds = append(kinds, s.Kind)
		}
		Expect(kinds).To(Equal([]string{"question", "article", "deck", "media"}))
	})

	It("keeps at most per_kind hits", func() {
		for range 4 {
			question(local, "Sickle cell crisis management variant")
		}
		last := question(local, "Sickle cell crisis management variant")
		waitIndexed(local, last, 1)
		u := searcher(local)
		Expect(searchQuestions(local, u, "sickle cell crisis", 3).Hits).To(HaveLen(3))
	})

	It("refuses bad input and callers without a token", func() {
		u := newUser(local, auth.RoleUser)
		c := u.Client(local)
		Expect(c.Get("/api/v1/search?q=a")).To(harness.HaveError(422, "invalid_request"))
		Expect(c.Get("/api/v1/search?q=%20%20%20")).To(harness.HaveError(422, "invalid_request"))
		Expect(c.Get("/api/v1/search")).To(harness.HaveError(422, "invalid_request"))
		Expect(c.Get("/api/v1/search?q=asthma&kinds=question,recipes")).To(harness.HaveError(422, "invalid_request"))
		Expect(c.Get("/api/v1/search?q=asthma&per_kind=21")).To(harness.HaveError(422, "invalid_request"))
		Expect(c.Get("/api/v1/search?q=" + strings.Repeat("a", 201))).To(harness.HaveError(422, "invalid_request"))
		Expect(local.Anon().Get("/api/v1/search?q=asthma")).To(harness.HaveError(401, "unauthenticated"))
	})

	It("answers under the /api alias too", func() {
		u := newUser(local, auth.RoleUser)
		Expect(u.Client(local).Get("/api/search?q=asthma")).To(HaveStatusOK())
	})
})

var _ = Describe("GET /search/suggest", func() {
	type suggestion struct {
		Kind string `json:"kind"`
		ID   int64  `json:"id"`
		Text string `json:"text"`
	}
	suggest := func(u *harness.User, q string, extra string) []suggestion {
		res := u.Client(local).Get("/api/v1/search/suggest?q=" + url.QueryEscape(q) + extra)
		Expect(res).To(HaveStatusOK())
		var out struct {
			Suggestions []suggestion `json:"suggestions"`
		}
		res.JSON(&out)
		return out.Suggestions
	}

	It("completes the last word as a prefix and the others as whole words", func() {
		a := question(local, "Pheochromocytoma presenting with paroxysmal hypertension")
		b := question(local, "Phenytoin toxicity signs")
		waitIndexed(local, a, 1)
		waitIndexed(local, b, 1)
		u := searcher(local)

		got := suggest(u, "pheochro", "")
		Expect(got).NotTo(BeEmpty())
		Expect(got[0].ID).To(Equal(a))
		Expect(got[0].Kind).To(Equal("question"))
		Expect(got[0].Text).To(ContainSubstring("Pheochromocytoma"))

		var found []int64
		for _, s := range suggest(u, "phe", "&kinds=question") {
			found = append(found, s.ID)
		}
		Expect(found).To(ContainElements(a, b))

		found = nil
		for _, s := range suggest(u, "toxicity phen", "") {
			found = append(found, s.ID)
		}
		Expect(found).To(ContainElement(b))
		Expect(found).NotTo(ContainElement(a))
	})

	It("honours the limit, and finds nothing for stop words alone", func() {
		for range 3 {
			question(local, "Zollinger-Ellison syndrome gastrin levels")
		}
		last := question(local, "Zollinger-Ellison syndrome gastrin levels")
		waitIndexed(local, last, 1)
		u := searcher(local)
		Expect(suggest(u, "zollin", "&limit=2")).To(HaveLen(2))
		Expect(suggest(u, "the", "")).To(BeEmpty())
	})

	It("refuses bad input and callers without a token", func() {
		u := newUser(local, auth.RoleUser)
		Expect(u.Client(local).Get("/api/v1/search/suggest?q=")).To(harness.HaveError(422, "invalid_request"))
		Expect(u.Client(local).Get("/api/v1/search/suggest?q=ab&limit=50")).To(harness.HaveError(422, "invalid_request"))
		Expect(u.Client(local).Get("/api/v1/search/suggest?q=ab&kinds=nope")).To(harness.HaveError(422, "invalid_request"))
		Expect(u.Client(local).Get("/api/v1/search/suggest?q=" + strings.Repeat("a", 101))).
			To(harness.HaveError(422, "invalid_request"))
		Expect(local.Anon().Get("/api/v1/search/suggest?q=ab")).To(harness.HaveError(401, "unauthenticated"))
	})
})
