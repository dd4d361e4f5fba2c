package search_test

import (
	"net/url"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/config"
)

var _ = Describe("Query embeddings", Ordered, func() {
	// A harness of its own: a model no other harness uses, so the stand-in's
	// log tells its calls apart, a small cache and a small allowance.
	const model = "standin-query-cost"
	var capped *harness.Harness
	BeforeAll(func() {
		var err error
		capped, err = harness.Start(harness.WithConfig(func(c *config.Config) {
			c.Set("ai.base_url", proxy.URL)
			c.Set("ai.embedding_timeout", 2*time.Second)
			c.Set("search.query_cache_entries", 3)
			c.Set("search.query_embeddings_per_minute", 3)
		}))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { Expect(capped.Stop()).To(Succeed()) })
		Expect(capped.NewUser(auth.RoleAdmin).Client(capped).Post("/api/v1/admin/embedding/regenerate",
			map[string]any{"model": model})).To(harness.HaveStatus(202))
		waitRegenerationIdle(capped)
	})

	// asked counts the stand-in's embedding calls for text by this model.
	asked := func(text string) int {
		n := 0
		for _, r := range proxy.EmbedRequests() {
			if r.Model == model && len(r.Documents) == 1 && r.Documents[0] == text {
				n++
			}
		}
		return n
	}
	semantic := func(u *harness.User, q string) bool {
		GinkgoHelper()
		res := u.Client(capped).Get("/api/v1/search?kinds=question&q=" + url.QueryEscape(q))
		Expect(res).To(HaveStatusOK())
		return res.Map()["semantic"].(bool)
	}

	It("embeds a query once per model and text, whoever asks, within a bounded cache", func() {
		ada, bo := capped.NewUser(auth.RoleUser), capped.NewUser(auth.RoleUser)
		Expect(semantic(ada, "digoxin toxicity")).To(BeTrue())
		Expect(semantic(ada, "digoxin toxicity")).To(BeTrue())
		Expect(semantic(bo, "digoxin toxicity")).To(BeTrue())
		Expect(asked("digoxin toxicity")).To(Equal(1))

		// Three other queries push it out of a three-entry cache.
		admin := capped.NewUser(auth.RoleAdmin)
		for _, q := range []string{"warfarin reversal", "heparin dosing", "lithium levels"} {
			Expect(semantic(admin, q)).To(BeTrue())
		}
		Expect(semantic(admin, "digoxin toxicity")).To(BeTrue())
		Expect(asked("digoxin toxicity")).To(Equal(2))
	})

	It("gives each person an allowance of model calls, then keywords alone; cached queries stay free", func() {
		cy := capped.NewUser(auth.RoleUser)
		for _, q := range []string{"thyroid storm", "adrenal crisis", "myxoedema coma"} {
			Expect(semantic(cy, q)).To(BeTrue(), q)
		}
		Expect(semantic(cy, "pituitary apoplexy")).To(BeFalse(), "past the allowance: keywords only")
		Expect(asked("pituitary apoplexy")).To(BeZero())
		Expect(semantic(cy, "myxoedema coma")).To(BeTrue(), "a cached query costs nothing")

		Expect(semantic(capped.NewUser(auth.RoleUser), "pituitary apoplexy")).To(BeTrue(), "another person has their own")
		admin := capped.NewUser(auth.RoleAdmin)
		for _, q := range []string{"cushing syndrome", "conn syndrome", "addison disease", "pheochromocytoma"} {
			Expect(semantic(admin, q)).To(BeTrue(), "admins are not counted: %s", q)
		}
	})
})
