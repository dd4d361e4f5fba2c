package search_test

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/app"
	"github.com/roundsedu/rounds/modules/bank"
	"github.com/roundsedu/rounds/modules/search"
	"github.com/roundsedu/rounds/platform/auth"
)

var _ = Describe("Finding questions by meaning with the local embedder", func() {
	ctx := context.Background()

	It("finds a question by synonyms that share no keyword with it", func() {
		target := question(local, "Which drug is first-line for high blood pressure in a diabetic patient?",
			"Lisinopril", "Metoprolol", "Hydralazine")
		other := question(local, "What is the commonest cause of a displaced fracture of the distal radius in children?")
		waitIndexed(local, target, 1)
		waitIndexed(local, other, 1)

		// The keyword ranker cannot connect "hypertension" with "high blood pressure".
		kw, err := app.Lookup[*search.Module](local.App).Keyword(ctx, search.KindQuestion, "hypertension", 10)
		Expect(err).NotTo(HaveOccurred())
		for _, h := range kw {
			Expect(h.ID).NotTo(Equal(target))
		}

		// The vector ranker does, above the bank's 0.55 semantic threshold.
		sem, err := app.Lookup[*search.Module](local.App).Semantic(ctx, search.KindQuestion, "hypertension drug in diabetes",
			search.MinSimilarityQuestions, 10)
		Expect(err).NotTo(HaveOccurred())
		Expect(sem).NotTo(BeEmpty())
		Expect(sem[0].ID).To(Equal(target))
		Expect(sem[0].Similarity).To(BeNumerically(">=", 0.55))
		for _, h := range sem {
			Expect(h.ID).NotTo(Equal(other))
		}

		// And so does the global search a learner runs.
		u := searcher(local)
		sec := searchQuestions(local, u, "hypertension drug in diabetes", 5)
		Expect(sec.Hits).NotTo(BeEmpty())
		Expect(sec.Hits[0].ID).To(Equal(target))
		Expect(sec.Hits[0].Title).To(ContainSubstring("high blood pressure"))
		Expect(sec.Hits[0].Snippet).To(ContainSubstring("Lisinopril"))
	})

	It("ranks by keyword too, and the hybrid puts matches of both rankers first", func() {
		a := question(local, "Warfarin reversal in a patient with an intracranial haemorrhage")
		b := question(local, "Which anticoagulant needs INR monitoring?")
		waitIndexed(local, a, 1)
		waitIndexed(local, b, 1)
		kw, err := app.Lookup[*search.Module](local.App).Keyword(ctx, search.KindQuestion, "warfarin reversal", 10)
		Expect(err).NotTo(HaveOccurred())
		Expect(kw).NotTo(BeEmpty())
		Expect(kw[0].ID).To(Equal(a))
		Expect(kw[0].Keyword).To(BeTrue())

		hy, err := app.Lookup[*search.Module](local.App).Hybrid(ctx, search.KindQuestion, "warfarin reversal", 10, false)
		Expect(err).NotTo(HaveOccurred())
		Expect(hy[0].ID).To(Equal(a))
		Expect(hy[0].Keyword).To(BeTrue())
		Expect(hy[0].Similarity).To(BeNumerically(">", 0))
	})

	It("re-embeds an edited question and ignores older or repeated versions", func() {
		id := question(local, "Treatment of an acute asthma attack in a child")
		waitIndexed(local, id, 1)
		publish(local, bank.QuestionChanged{ID: id, Change: bank.QuestionUpdated, Live: true, Version: 3,
			Text: "Management of diabetic ketoacidosis in an adult"})
		waitIndexed(local, id, 3)
		// An older version arriving late, and the same version again, change nothing.
		publish(local, bank.QuestionChanged{ID: id, Change: bank.QuestionUpdated, Live: true, Version: 2,
			Text: "Something about gout"})
		publish(local, bank.QuestionChanged{ID: id, Change: bank.QuestionUpdated, Live: true, Version: 3,
			Text: "Something about gout"})
		marker := question(local, "A later question proves the events above were handled")
		waitIndexed(local, marker, 1)
		Expect(version(local, id)).To(Equal(int64(3)))

		u := searcher(local)
		Expect(ids(searchQuestions(local, u, "DKA treatment", 5))).To(ContainElement(id))
		Expect(ids(searchQuestions(local, u, "gout", 5))).NotTo(ContainElement(id))
		sem, err := app.Lookup[*search.Module](local.App).Semantic(ctx, search.KindQuestion, "asthma attack child", 0.55, 10)
		Expect(err).NotTo(HaveOccurred())
		for _, h := range sem {
			Expect(h.ID).NotTo(Equal(id), "the old text's vector must be gone")
		}
	})

	It("hides a trashed question, finds it again once restored, and never revives a purged one", func() {
		text := "Antidote for paracetamol overdose"
		id := question(local, text)
		waitIndexed(local, id, 1)
		u := searcher(local)
		Expect(ids(searchQuestions(local, u, "paracetamol overdose", 5))).To(ContainElement(id))

		publish(local, bank.QuestionChanged{ID: id, Change: bank.QuestionDeleted, Live: false, Text: text, Version: 2})
		waitIndexed(local, id, 2)
		Expect(ids(searchQuestions(local, u, "paracetamol overdose", 5))).NotTo(ContainElement(id))
		sem, err := app.Lookup[*search.Module](local.App).Semantic(ctx, search.KindQuestion, "paracetamol overdose", 0.3, 10)
		Expect(err).NotTo(HaveOccurred())
		for _, h := range sem {
			Expect(h.ID).NotTo(Equal(id))
		}

		publish(local, bank.QuestionChanged{ID: id, Change: bank.QuestionRestored, Live: true, Text: text, Version: 3})
		waitIndexed(local, id, 3)
		Expect(ids(searchQuestions(local, u, "paracetamol overdose", 5))).To(ContainElement(id))

		publish(local, bank.QuestionChanged{ID: id, Change: bank.QuestionPurged})
		Eventually(func() bool { return purged(local, id) }, "10s", "20ms").Should(BeTrue())
		// A stale update delivered after the purge does not bring it back.
		publish(local, bank.QuestionChanged{ID: id, Change: bank.QuestionUpdated, Live: true, Text: text, Version: 9})
		marker := question(local, "Marker after the purge")
		waitIndexed(local, marker, 1)
		Expect(purged(local, id)).To(BeTrue())
		Expect(ids(searchQuestions(local, u, "paracetamol overdose", 5))).NotTo(ContainElement(id))
	})

	It("indexes a question whose text has nothing to embed without counting it as failed", func() {
		id := question(local, "What is the ...?")
		waitIndexed(local, id, 1)
		admin := newUser(local, auth.RoleAdmin)
		res := admin.Client(local).Get("/api/v1/admin/embedding/health")
		Expect(res).To(HaveStatusOK())
		body := res.Map()
		Expect(body["failed"]).To(BeNumerically("==", 0))
		Expect(body["empty"]).To(BeNumerically(">=", 1))
	})
})
