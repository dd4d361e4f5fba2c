package attempts_test

import (
	"context"
	"fmt"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/config"
)

// The sweep runs in an app of its own, where attempts_maintenance runs
// often; the suite's main app never runs it, so what happens here is the
// sweep's doing and not a read's.
var _ = Describe("The attempts_maintenance sweep", Ordered, func() {
	var sh *Harness
	BeforeAll(func() {
		var err error
		sh, err = Start(WithConfig(func(c *config.Config) { c.Set("attempts.sweep_interval", 100*time.Millisecond) }))
		Expect(err).NotTo(HaveOccurred())
	})
	AfterAll(func() {
		if sh != nil {
			Expect(sh.Stop()).To(Succeed())
		}
	})

	It("auto-submits a timed attempt whose learner never returns, and removes expired progress", func() {
		m := sh.NewUser(auth.RoleModerator)
		qres := m.Client(sh).Post("/api/v1/questions/create", mcq("Sweep?", "Yes", "Yes", "No"))
		Expect(qres).To(HaveStatus(201))
		qid := int64(qres.Map()["id"].(float64))
		zres := m.Client(sh).Post("/api/v1/questions/from-bank", map[string]any{"title": "Swept",
			"question_ids": []int64{qid}, "time_limit_minutes": 5})
		Expect(zres).To(HaveStatus(201))
		quiz := int64(zres.Map()["id"].(float64))
		Expect(m.Client(sh).Patch(fmt.Sprintf("/api/v1/quizzes/%d/publish", quiz), nil)).To(HaveStatus(200))

		u := sh.NewUser(auth.RoleUser)
		timed := u.Client(sh).Post(fmt.Sprintf("/api/v1/attempts/start?quiz_id=%d", quiz), nil)
		Expect(timed).To(HaveStatus(200))
		id := int64(timed.Map()["id"].(float64))
		Expect(u.Client(sh).Post("/api/v1/attempts/progress", map[string]any{"quiz_id": quiz, "attempt_id": id,
			"answers": map[string]string{fmt.Sprint(qid): "Yes"}})).To(HaveStatus(200))

		// Another learner's study attempt, whose progress has expired.
		v := sh.NewUser(auth.RoleUser)
		study := v.Client(sh).Post(fmt.Sprintf("/api/v1/attempts/start?quiz_id=%d&mode=learning", quiz), nil)
		Expect(study).To(HaveStatus(200))
		sid := int64(study.Map()["id"].(float64))
		Expect(v.Client(sh).Post("/api/v1/attempts/progress", map[string]any{"quiz_id": quiz, "attempt_id": sid,
			"answers": map[string]string{}})).To(HaveStatus(200))

		conn := sh.App.DB.Conn(context.Background())
		Expect(conn.Exec(`UPDATE attempts.saved_progress SET expires_at = now() - interval '1 minute'
			WHERE attempt_id = ?`, sid).Error).To(Succeed())
		Expect(conn.Exec(`UPDATE attempts.attempts SET started_at = started_at - interval '1 hour',
			deadline_at = deadline_at - interval '1 hour' WHERE id = ?`, id).Error).To(Succeed())

		Eventually(func() map[string]any {
			return u.Client(sh).Get(fmt.Sprintf("/api/v1/attempts/%d", id)).Map()
		}).WithTimeout(20 * time.Second).Should(And(HaveKeyWithValue("auto_submitted", true),
			HaveKeyWithValue("score", BeNumerically("==", 1))))
		Eventually(func() int {
			var n int
			Expect(conn.Raw(`SELECT count(*) FROM attempts.saved_progress WHERE attempt_id = ?`, sid).Scan(&n).Error).
				To(Succeed())
			return n
		}).WithTimeout(20 * time.Second).Should(BeZero())
		// The study attempt itself stays, incomplete.
		Expect(v.Client(sh).Get(fmt.Sprintf("/api/v1/attempts/%d", sid)).Map()["completed_at"]).To(BeNil())
	})
})
