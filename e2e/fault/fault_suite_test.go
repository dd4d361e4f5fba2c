// Package fault_test breaks the service's dependencies while it works and
// checks what users and operators see: the database cut off under autosave
// load, a worker process killed mid-job, the scheduler leader's process
// killed, storage gone, the model gateway stalled; and the three process
// roles (serve, worker, scheduler) run as separate processes on one
// database, three serve replicas behind a balancer losing one under load. Processes are this test binary re-executed as a role (see
// helper_test.go), killed with SIGKILL: no graceful shutdown runs.
package fault_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/app"
	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/standin"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/config"
)

func TestMain(m *testing.M) {
	if role := os.Getenv(helperRoleEnv); role != "" {
		os.Exit(runHelper(app.Role(role)))
	}
	os.Exit(m.Run())
}

func TestFault(t *testing.T) { RunSuite(t, "Fault") }

var (
	h     *Harness
	proxy *standin.Server
	mod   *User
	admin *User
	ctxb  = context.Background()
)

// The suite's own process serves HTTP only: work and schedules run in the
// helper processes the tests start and kill, all of them killed before the
// app stops.
var _ = Suite(&h, func() {
	admin = h.NewUser(auth.RoleAdmin)
	mod = h.NewUser(auth.RoleModerator)
	DeferCleanup(stopHelpers)
}, BeforeApps(func() {
	proxy = standin.Start()
	DeferCleanup(proxy.Close)
}), WithRole(app.RoleServe), WithConfig(func(c *config.Config) {
	c.Set("ai.base_url", proxy.URL())
	c.Set("ai.key_encryption_key", "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=")
	c.Set("ai.timeout", gatewayTimeout)
	c.Set("ai.retries", 0)
}), BeforeStart(registerBlock))

func id(res *Response) int64 {
	ExpectWithOffset(1, res.Status).To(BeNumerically("<", 300), string(res.Body))
	return int64(res.Map()["id"].(float64))
}

// publishedQuiz makes n bank questions and a published quiz of them.
func publishedQuiz(n int) (quizID int64, questions []int64) { return publishedQuizOn(h, mod, n) }

// publishedQuizOn is publishedQuiz on another deployment, made by its moderator.
func publishedQuizOn(h *Harness, mod *User, n int) (quizID int64, questions []int64) {
	for i := range n {
		questions = append(questions, id(mod.Client(h).Post("/api/v1/questions/create", map[string]any{
			"question_text": fmt.Sprintf("Fault question %d: which is the second letter?", i), "question_type": "mcq",
			"options": []string{"Alpha", "Bravo", "Charlie"}, "correct_answer": "Bravo",
			"explanation": "Bravo is the second letter."})))
	}
	quizID = id(mod.Client(h).Post("/api/v1/questions/from-bank",
		map[string]any{"title": "Fault quiz", "question_ids": questions, "time_limit_minutes": 600}))
	ExpectWithOffset(1, mod.Client(h).Patch(fmt.Sprintf("/api/v1/quizzes/%d/publish?published=true", quizID), nil)).
		To(HaveStatus(http.StatusOK))
	return quizID, questions
}

// scalar reads one value from the suite's database.
func scalar[T any](sql string, args ...any) T {
	var v T
	ExpectWithOffset(1, h.App.DB.Conn(ctxb).Raw(sql, args...).Scan(&v).Error).To(Succeed())
	return v
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
