package identity_test

import (
	"bytes"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/spf13/viper"

	files "github.com/roundsedu/rounds/config"
	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/config"
)

// published reads a key of config/dev.yaml, whose secrets are public.
func published(key string) string {
	v := viper.New()
	v.SetConfigType("yaml")
	Expect(v.ReadConfig(bytes.NewReader(files.Dev))).To(Succeed())
	s := v.GetString(key)
	Expect(s).NotTo(BeEmpty(), key)
	return s
}

var _ = Describe("The boot", func() {
	It("refuses config/dev.yaml's published secrets outside development", func() {
		x, err := Start(WithConfig(func(c *config.Config) { c.Auth.TokenSecret = published("auth.token_secret") }))
		if x != nil {
			Expect(x.Stop()).To(Succeed())
		}
		Expect(err).To(MatchError(And(ContainSubstring("auth.token_secret"), ContainSubstring("config/dev.yaml"))))

		x, err = Start(WithConfig(func(c *config.Config) { c.Set("oidc.client_secret", published("oidc.client_secret")) }))
		if x != nil {
			Expect(x.Stop()).To(Succeed())
		}
		Expect(err).To(MatchError(ContainSubstring("oidc.client_secret")))
	})

	It("accepts them in development: the development provider on loopback", func() {
		x, err := Start(WithConfig(func(c *config.Config) {
			c.Auth.TokenSecret = published("auth.token_secret")
			c.DevIdP.Enabled, c.DevIdP.Addr = true, "127.0.0.1:0"
		}))
		Expect(err).NotTo(HaveOccurred())
		Expect(x.Stop()).To(Succeed())
	})

	It("refuses the development provider on an address others reach unless allowed", func() {
		x, err := Start(WithConfig(func(c *config.Config) { c.DevIdP.Enabled, c.DevIdP.Addr = true, ":0" }))
		if x != nil {
			Expect(x.Stop()).To(Succeed())
		}
		Expect(err).To(MatchError(And(ContainSubstring("devidp.addr"), ContainSubstring("devidp.allow_public"))))
	})
})
