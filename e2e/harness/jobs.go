package harness

import (
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
func (c *Client) AwaitJob(path string) map[string]any { return c.awaitJob(path, 30*time.Second) }

// AwaitJobWithin is AwaitJob for jobs that may run longer than half a
// minute (OCR reads a page in seconds, more on a shared machine).
func (c *Client) AwaitJobWithin(path string, bound time.Duration) map[string]any {
	return c.awaitJob(path, bound)
}

func (c *Client) awaitJob(path string, bound time.Duration) map[string]any {
	var job map[string]any
	gomega.EventuallyWithOffset(2, func(g gomega.Gomega) any {
		res := c.Get(path)
		g.Expect(res).To(HaveStatus(200))
		job = res.Map()
		return job["status"]
	}, bound, 50*time.Millisecond).Should(gomega.BeElementOf("completed", "failed", "cancelled"))
	return job
}
