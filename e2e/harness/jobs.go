package harness

import (
	"context"
	"strconv"
	"time"

	"github.com/onsi/gomega"
)

// StartJob posts body to path, a route that queues a job, expects 202 and
// returns the job's id.
func (c *Client) StartJob(path string, body any) string {
	res := c.Post(path, body)
	gomega.ExpectWithOffset(1, res).To(HaveStatus(202))
	return res.Map()["job_id"].(string)
}

// AwaitJob polls path, a job's status route, until the job has ended
// (completed, failed or cancelled) and returns its last state.
func (c *Client) AwaitJob(path string) map[string]any { return c.awaitJob(path, jobBound).Map() }

// AwaitJobWithin is AwaitJob for jobs that may run longer than half a
// minute (OCR reads a page in seconds, more on a shared machine).
func (c *Client) AwaitJobWithin(path string, bound time.Duration) map[string]any {
	return c.awaitJob(path, bound).Map()
}

// AwaitJobAs is AwaitJob reading the job's last state into T, a contract
// type: `job := harness.AwaitJobAs[contract.JobResponse](c, path)`.
func AwaitJobAs[T any](c *Client, path string) T { return Body[T](c.awaitJob(path, jobBound)) }

// AwaitJobWithinAs is AwaitJobAs with AwaitJobWithin's longer bound.
func AwaitJobWithinAs[T any](c *Client, path string, bound time.Duration) T {
	return Body[T](c.awaitJob(path, bound))
}

// jobBound is how long AwaitJob waits.
const jobBound = 30 * time.Second

// awaitJob returns the job's last answer; its Eventually names the caller
// of its caller (AwaitJob and the others).
func (c *Client) awaitJob(path string, bound time.Duration) *Response {
	var last *Response
	gomega.EventuallyWithOffset(2, func(g gomega.Gomega) string {
		last = c.Get(path)
		g.Expect(last).To(HaveStatus(200))
		var job struct {
			Status string `json:"status"`
		}
		last.JSON(&job)
		return job.Status
	}, bound, 50*time.Millisecond).Should(gomega.BeElementOf("completed", "failed", "cancelled"))
	return last
}

// RetryJob has River run a job again, as an operator does from the job UI
// (admin must be an admin), and waits until that run has ended: it is what
// a worker dying after the job's work committed leads to.
func (h *Harness) RetryJob(admin *User, jobID string) {
	var before struct {
		ID      int64
		Attempt int
	}
	gomega.ExpectWithOffset(1, h.App.DB.Conn(context.Background()).Raw(`SELECT j.id, j.attempt FROM river.river_job j
		JOIN platform.job_progress p ON p.job_id = j.id WHERE p.public_id = ?`, jobID).Scan(&before).Error).To(gomega.Succeed())
	gomega.ExpectWithOffset(1, admin.Client(h).Post("/admin/jobs/api/jobs/retry",
		map[string]any{"ids": []string{strconv.FormatInt(before.ID, 10)}})).To(HaveStatus(200))
	gomega.EventuallyWithOffset(1, func(g gomega.Gomega) bool {
		var after struct {
			Attempt     int
			FinalizedAt *time.Time
		}
		g.Expect(h.App.DB.Conn(context.Background()).Raw(`SELECT attempt, finalized_at FROM river.river_job WHERE id = ?`,
			before.ID).Scan(&after).Error).To(gomega.Succeed())
		return after.Attempt > before.Attempt && after.FinalizedAt != nil
	}, "30s", "50ms").Should(gomega.BeTrue())
}
