// Package share_test drives share links end to end: a learner or moderator
// shares a published quiz, an anonymous visitor opens it, links expire and
// are revoked.
package share_test

import (
	"context"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/config"
)

func TestShare(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Share")
}

var (
	h    *Harness
	mod  *User
	ctxb = context.Background()
)

var _ = BeforeSuite(func() {
	var err error
	h, err = Start(WithConfig(func(c *config.Config) { c.Set("share.links_per_hour", 4) }))
	Expect(err).NotTo(HaveOccurred())
	mod = h.NewUser(auth.RoleModerator)
})

var _ = AfterSuite(func() {
	if h != nil {
		Expect(h.Stop()).To(Succeed())
	}
})
