package ai_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

var _ = Describe("AI usage per day", func() {
	It("sums calls and tokens per UTC day and task over the days asked, for admins only", func() {
		today := time.Now().UTC().Truncate(24 * time.Hour)
		for _, u := range []struct {
			task         string
			at           time.Time
			prompt, done int
		}{
			{"probe_a", today.Add(time.Hour), 10, 5},
			{"probe_a", today.Add(2 * time.Hour), 20, 5},
			{"probe_a", today.AddDate(0, 0, -1).Add(time.Hour), 7, 1},
			{"probe_b", today.AddDate(0, 0, -2).Add(time.Hour), 3, 3},
			{"probe_b", today.AddDate(0, 0, -2).Add(5 * time.Hour), 4, 4},
			{"probe_b", today.AddDate(0, 0, -40), 100, 100}, // outside the window
		} {
			Expect(h.App.DB.Conn(ctxb).Exec(`INSERT INTO ai.usage (user_id, task, model_id, prompt_tokens, completion_tokens, created_at)
				VALUES (?, ?, 'probe-model', ?, ?, ?)`, admin.ID, u.task, u.prompt, u.done, u.at).Error).To(Succeed())
		}
		probes := func(days string) (string, []map[string]any) {
			res := admin.Client(h).Get("/api/v1/admin/ai/usage/daily?days=" + days)
			ExpectWithOffset(1, res).To(HaveStatus(200))
			var out []map[string]any
			for _, d := range res.Map()["days"].([]any) {
				if m := d.(map[string]any); m["task"] == "probe_a" || m["task"] == "probe_b" {
					out = append(out, m)
				}
			}
			return res.Map()["since"].(string), out
		}
		day := func(n int) string { return today.AddDate(0, 0, -n).Format(time.DateOnly) }
		since, rows := probes("30")
		Expect(since).To(Equal(day(29)))
		Expect(rows).To(Equal([]map[string]any{
			{"day": day(2), "task": "probe_b", "calls": 2.0, "prompt_tokens": 7.0, "completion_tokens": 7.0},
			{"day": day(1), "task": "probe_a", "calls": 1.0, "prompt_tokens": 7.0, "completion_tokens": 1.0},
			{"day": day(0), "task": "probe_a", "calls": 2.0, "prompt_tokens": 30.0, "completion_tokens": 10.0},
		}))
		since, rows = probes("2")
		Expect(since).To(Equal(day(1)))
		Expect(rows).To(HaveLen(2))
		Expect(rows[0]).To(HaveKeyWithValue("day", day(1)))

		Expect(admin.Client(h).Get("/api/v1/admin/ai/usage/daily?days=91")).To(HaveError(422, "invalid_request"))
		for _, role := range []auth.Role{auth.RoleUser, auth.RoleModerator} {
			Expect(h.NewUser(role).Client(h).Get("/api/v1/admin/ai/usage/daily")).To(HaveError(403, "forbidden"))
		}
	})
})
