// Package ai_test drives the AI module end to end against a stand-in model
// proxy speaking OpenAI's wire protocol: model configuration, the tutor,
// speech, limits and quotas, and the proxy's failures.
package ai_test

import (
	"context"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/standin"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/config"
)

func TestAI(t *testing.T) { RunSuite(t, "AI") }

var (
	h     *Harness
	proxy *standin.Server
	admin *User
	mod   *User
	ctxb  = context.Background()
)

// key seals stored api keys in these tests (32 bytes, base64).
const key = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY="

// proxyKey is the configured proxy's key (ai.api_key).
const proxyKey = "sk-configured-proxy-key"

var _ = Suite(&h, func() {
	admin = h.NewUser(auth.RoleAdmin)
	mod = h.NewUser(auth.RoleModerator)
}, BeforeApps(func() {
	proxy = standin.Start()
	DeferCleanup(proxy.Close)
}), WithConfig(func(c *config.Config) {
	c.Set("ai.base_url", proxy.URL())
	c.Set("ai.api_key", proxyKey)
	c.Set("ai.key_encryption_key", key)
	c.Set("ai.timeout", 2*time.Second)
	c.Set("ai.retries", 1)
	c.Set("ai.tutor_per_10_minutes", 3)
	c.Set("ai.speech_per_hour", 2)
}), CaptureLog())

// plainFailure matches a learner's 502: the plain sentence, none of the
// upstream's words.
func plainFailure(res *Response, says string) {
	GinkgoHelper()
	Expect(res).To(HaveError(502, "upstream_failed"))
	Expect(res.Map()["error"]).To(HaveKeyWithValue("message", ContainSubstring(says)))
	Expect(string(res.Body)).NotTo(Or(ContainSubstring("overloaded"), ContainSubstring("answered 500"),
		ContainSubstring("went away")))
}

// loggedFailure expects the upstream's detail in the log, with the person.
func loggedFailure(task string, userID int64, detail string) {
	GinkgoHelper()
	Expect(h.Log.Records("ai: model call failed")).To(ContainElement(And(HaveKeyWithValue("task", task),
		HaveKeyWithValue("user_id", BeNumerically("==", userID)), HaveKeyWithValue("error", ContainSubstring(detail)))))
}
