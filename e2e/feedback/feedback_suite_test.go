// Package feedback_test drives problem reports end to end: learners report
// bank questions, moderators work through the queue, reporters read the
// outcome.
package feedback_test

import (
	"context"
	"testing"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/config"
)

func TestFeedback(t *testing.T) { RunSuite(t, "Feedback") }

var (
	h    *Harness
	mod  *User
	ctxb = context.Background()
)

var _ = Suite(&h, func() { mod = h.NewUser(auth.RoleModerator) },
	WithConfig(func(c *config.Config) { c.Set("feedback.reports_per_hour", 3) }))
