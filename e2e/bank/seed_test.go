package bank_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/app"
	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/modules/bank"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/config"
)

var _ = Describe("The demo bank", Ordered, func() {
	var demo *Harness
	var m, learner *User
	var started time.Duration

	BeforeAll(func() {
		var err error
		t0 := time.Now()
		demo, err = Start(WithConfig(func(c *config.Config) { c.Set("bank.seed_demo", true) }))
		started = time.Since(t0)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { Expect(demo.Stop()).To(Succeed()) })
		m = demo.NewUser(auth.RoleModerator)
		learner = demo.NewUser(auth.RoleUser)
		GinkgoWriter.Printf("app start with demo seeding: %s\n", started)
	})

	total := func() float64 {
		return m.Client(demo).Get(api + "/questions/bank?limit=1").Map()["total"].(float64)
	}

	It("loads a few hundred questions over a category tree, with tags and published quizzes", func() {
		Expect(total()).To(BeNumerically(">=", 300))
		cats := m.Client(demo).Get(api + "/question-categories/").List()
		Expect(len(cats)).To(BeNumerically(">", 20))
		roots, children := 0, 0
		for _, c := range cats {
			if c.(map[string]any)["parent_id"] == nil {
				roots++
				Expect(c.(map[string]any)["system_id"]).NotTo(BeNil())
				Expect(c.(map[string]any)["branch_question_count"]).To(BeNumerically(">", 0))
			} else {
				children++
			}
		}
		Expect(roots).To(Equal(13))
		Expect(children).To(BeNumerically(">", roots))

		tags := m.Client(demo).Get(api + "/tags").Map()
		Expect(tags["subjects"]).To(HaveLen(5))
		Expect(len(tags["diseases"].([]any))).To(BeNumerically(">=", 60))
		Expect(tags["systems"]).To(HaveLen(13)) // the migration's systems, none added
		for _, s := range tags["systems"].([]any) {
			Expect(s.(map[string]any)["question_count"]).To(BeNumerically(">", 0))
		}
		Expect(tags["keywords"]).To(BeEmpty())

		quizzes := learner.Client(demo).Get(api + "/quizzes/").List()
		Expect(len(quizzes)).To(BeNumerically(">=", 20))
		Expect(len(m.Client(demo).Get(api + "/quizzes/").List())).To(Equal(len(quizzes) + 1))
	})

	It("is searchable and gradable like any bank content", func() {
		l := m.Client(demo).Get(api + "/questions/bank?search_mode=keyword&q=thunderclap").Map()
		Expect(l["total"]).To(BeNumerically(">=", 1))
		z := int64(learner.Client(demo).Get(api + "/quizzes/").List()[0].(map[string]any)["id"].(float64))
		d := learner.Client(demo).Get(path("/quizzes/%d?study=true", z)).Map()
		for _, x := range d["questions"].([]any) {
			qq := x.(map[string]any)
			if qq["question_type"] == "mcq" {
				Expect(qq["options"]).To(ContainElement(qq["correct_answer"]))
			}
		}
	})

	It("does nothing when started again or when the bank is not empty", func() {
		before := total()
		loaded, err := app.Lookup[*bank.Module](demo.App).SeedDemo(ctxBG)
		Expect(err).NotTo(HaveOccurred())
		Expect(loaded).To(BeFalse())
		Expect(total()).To(Equal(before))

		create(mcq(unique("Keeps the main bank non-empty")))
		loaded, err = app.Lookup[*bank.Module](h.App).SeedDemo(ctxBG)
		Expect(err).NotTo(HaveOccurred())
		Expect(loaded).To(BeFalse())
	})
})
