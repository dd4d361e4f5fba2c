package labs_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/app"
	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/modules/labs"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/config"
)

var _ = Describe("The demo table and the listing cap", Ordered, func() {
	var demo *Harness
	var reader *User

	BeforeAll(func() {
		var err error
		demo, err = Start(WithConfig(func(c *config.Config) { c.Set("labs.seed_demo", true) }))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { Expect(demo.Stop()).To(Succeed()) })
		reader = demo.NewUser(auth.RoleUser)
	})

	It("loads at least 120 published adult values in six tabs, each with its citation, once", func() {
		res := reader.Client(demo).Get(api)
		Expect(res).To(HaveStatus(200))
		l := res.Map()
		Expect(l["total"]).To(BeNumerically(">=", 120))
		Expect(l["values"]).To(HaveLen(int(l["total"].(float64))))
		var tabs []string
		for _, t := range l["tabs"].([]any) {
			tabs = append(tabs, t.(map[string]any)["group"].(string))
		}
		Expect(tabs).To(Equal([]string{"Blood gases", "Chemistry", "Endocrine", "Haematology", "Lipids", "Urine"}))
		both := 0
		for _, v := range l["values"].([]any) {
			m := v.(map[string]any)
			Expect(m["source"]).NotTo(BeEmpty())
			Expect(m["is_published"]).To(BeTrue())
			if m["conventional_units"] != nil {
				both++
			}
		}
		Expect(both).To(BeNumerically(">", 60))

		loaded, err := app.Lookup[*labs.Module](demo.App).SeedDemo(ctxb)
		Expect(err).NotTo(HaveOccurred())
		Expect(loaded).To(BeFalse())
		Expect(reader.Client(demo).Get(api).Map()["total"]).To(Equal(l["total"]))
	})

	It("shows at most 500 values, in order, without pagination, and says the table was cut", func() {
		before := int(reader.Client(demo).Get(api).Map()["total"].(float64))
		extra := 501 - before
		Expect(demo.App.DB.Conn(ctxb).Exec(`INSERT INTO labs.lab_values
			(name, group_name, reference_range, units, age_group, specimen, source, is_published)
			SELECT format('Test %s', lpad(i::text, 4, '0')), 'Zz bulk', '1–2', 'U/L', 'Adult', 'Serum', 'Bulk', true
			FROM generate_series(1, ?) i`, extra).Error).To(Succeed())
		// A draft past the cap is not counted for learners.
		Expect(demo.App.DB.Conn(ctxb).Exec(`INSERT INTO labs.lab_values
			(name, group_name, reference_range, units, age_group, specimen, source) VALUES ('Draft', 'Zz bulk', '1', 'U', 'A', 'S', 'X')`).Error).To(Succeed())

		l := reader.Client(demo).Get(api + "?limit=1000&offset=10").Map()
		Expect(l["total"]).To(BeNumerically("==", 501))
		Expect(l["truncated"]).To(BeTrue())
		vs := l["values"].([]any)
		Expect(vs).To(HaveLen(500))
		last := vs[499].(map[string]any)
		Expect(last["name"]).To(Equal(fmt.Sprintf("Test %04d", extra-1)))
		Expect(l["tabs"]).To(ContainElement(map[string]any{"group": "Zz bulk", "count": float64(extra)}))

		m := demo.NewUser(auth.RoleModerator)
		all := m.Client(demo).Get(api + "?include_drafts=true").Map()
		Expect(all["total"]).To(BeNumerically("==", 502))
		Expect(all["values"]).To(HaveLen(500))
	})
})
