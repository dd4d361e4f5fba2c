package harness

import (
	"testing"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"
)

// RunSuite is a suite's one Go test: Gomega fails through Ginkgo, which
// runs every spec of the package under the name.
func RunSuite(t *testing.T, name string) {
	gomega.RegisterFailHandler(ginkgo.Fail)
	ginkgo.RunSpecs(t, name)
}

// Suite gives a suite its one app: started (with opts) before the first
// spec, then ready runs (nil for none: it signs in the suite's users), and
// stopped after the last spec. Called once, at package level:
//
//	var h *Harness
//	var _ = Suite(&h, func() { mod = h.NewUser(auth.RoleModerator) })
func Suite(into **Harness, ready func(), opts ...Option) bool {
	ginkgo.BeforeSuite(func() {
		started, err := Start(opts...)
		gomega.Expect(err).NotTo(gomega.HaveOccurred())
		*into = started
		if ready != nil {
			ready()
		}
	})
	return ginkgo.AfterSuite(func() {
		if *into != nil {
			gomega.Expect((*into).Stop()).To(gomega.Succeed())
		}
	})
}
