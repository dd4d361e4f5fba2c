// Package analytics_test drives item analysis and peer comparison on the
// real app: learners sit a quiz through attempts' routes, the completion
// events feed the statistics, and the tests recompute them from the
// attempts tables.
package analytics_test

import (
	"context"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/config"
)

func TestAnalytics(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Analytics")
}

var (
	h    *Harness
	mod  *User
	ctxb = context.Background()
)

var _ = BeforeSuite(func() {
	var err error
	h, err = Start(WithConfig(func(c *config.Config) { c.Set("analytics.min_responses", 3) }))
	Expect(err).NotTo(HaveOccurred())
	mod = h.NewUser(auth.RoleModerator)
})

var _ = AfterSuite(func() {
	if h != nil {
		Expect(h.Stop()).To(Succeed())
	}
})
