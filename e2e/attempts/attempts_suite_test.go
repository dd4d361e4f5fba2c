// Package attempts_test drives attempts end to end: the real app on a real
// Postgres, quizzes made through the bank's real routes by a moderator, and
// learners sitting them as a client would. Time is moved by rewriting
// timestamps in the database (a deadline or a last save in the past), never
// by waiting.
package attempts_test

import (
	"context"
	"testing"
	"time"

	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/config"
)

func TestAttempts(t *testing.T) { RunSuite(t, "Attempts") }

var (
	h    *Harness
	mod  *User
	ctxb = context.Background()
)

// The sweep never runs in this app: expiry on read is tested here, and
// the sweep in its own app (sweep_test.go).
var _ = Suite(&h, func() { mod = h.NewUser(auth.RoleModerator) },
	WithConfig(func(c *config.Config) { c.Set("attempts.sweep_interval", 24*time.Hour) }))

// exec runs SQL on the app's database (moving time: a deadline or a last
// save into the past).
func exec(sql string, args ...any) {
	ExpectWithOffset(1, h.App.DB.Conn(ctxb).Exec(sql, args...).Error).To(Succeed())
}
