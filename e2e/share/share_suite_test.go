// Package share_test drives share links end to end: a learner or moderator
// shares a published quiz, an anonymous visitor opens it, links expire and
// are revoked.
package share_test

import (
	"context"
	"testing"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/config"
)

func TestShare(t *testing.T) { RunSuite(t, "Share") }

var (
	h    *Harness
	mod  *User
	ctxb = context.Background()
)

var _ = Suite(&h, func() { mod = h.NewUser(auth.RoleModerator) },
	WithConfig(func(c *config.Config) { c.Set("share.links_per_hour", 4) }), CaptureLog())
