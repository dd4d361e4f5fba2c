// Package feedback_test drives problem reports end to end: learners report
// bank questions, moderators work through the queue, reporters read the
// outcome.
package feedback_test

import (
	"context"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/config"
)

func TestFeedback(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Feedback")
}

var (
	h    *Harness
	mod  *User
	ctxb = context.Background()
)

var _ = BeforeSuite(func() {
	var err error
	h, err = Start(WithConfig(func(c *config.Config) { c.Set("feedback.reports_per_hour", 3) }))
	Expect(err).NotTo(HaveOccurred())
	mod = h.NewUser(auth.RoleModerator)
})

var _ = AfterSuite(func() {
	if h != nil {
		Expect(h.Stop()).To(Succeed())
	}
})
