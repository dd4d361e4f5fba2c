// Package analytics_test drives item analysis and peer comparison on the
// real app: learners sit a quiz through attempts' routes, the completion
// events feed the statistics, and the tests recompute them from the
// attempts tables.
package analytics_test

import (
	"context"
	"testing"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/config"
)

func TestAnalytics(t *testing.T) { RunSuite(t, "Analytics") }

var (
	h    *Harness
	mod  *User
	ctxb = context.Background()
)

var _ = Suite(&h, func() { mod = h.NewUser(auth.RoleModerator) },
	WithConfig(func(c *config.Config) { c.Set("analytics.min_responses", 3) }))
