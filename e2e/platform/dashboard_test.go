package platform_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"regexp"
	"strings"

	"github.com/google/uuid"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/jobs"
)

// dashboardMetrics are the metric names the Grafana dashboard queries.
func dashboardMetrics() []string {
	raw, err := os.ReadFile("../../deploy/grafana/rounds.json")
	Expect(err).NotTo(HaveOccurred())
	var dash struct {
		Panels []struct {
			Title   string `json:"title"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	Expect(json.Unmarshal(raw, &dash)).To(Succeed())
	Expect(dash.Panels).NotTo(BeEmpty())
	// A metric is a name followed by its label matcher: rate(x{...}[...]).
	name := regexp.MustCompile(`([a-z_][a-z0-9_]*)\{`)
	seen := map[string]bool{}
	var out []string
	for _, p := range dash.Panels {
		Expect(p.Targets).NotTo(BeEmpty(), "panel %q queries nothing", p.Title)
		for _, t := range p.Targets {
			m := name.FindAllStringSubmatch(t.Expr, -1)
			Expect(m).NotTo(BeEmpty(), "no metric in %q", t.Expr)
			for _, s := range m {
				if !seen[s[1]] {
					seen[s[1]] = true
					out = append(out, s[1])
				}
			}
		}
	}
	return out
}

var _ = Describe("The Grafana dashboard", func() {
	It("queries only metrics the running service exports", func() {
		// Every family has samples once a request, a job and an event went by.
		Expect(h.Anon().Get("/api/health")).To(harness.HaveStatus(http.StatusOK))
		owner := int64(9)
		id, err := h.App.Queue.Enqueue(context.Background(), &owner, stepsPayload{Steps: 1})
		Expect(err).NotTo(HaveOccurred())
		Eventually(func() jobs.Status {
			rec, err := h.App.Queue.Get(context.Background(), id)
			Expect(err).NotTo(HaveOccurred())
			return rec.Status
		}, "10s", "50ms").Should(Equal(jobs.Completed))
		marker := uuid.NewString()
		Expect(publish(ping{ID: marker})).To(Succeed())
		Eventually(func() int { return deliveries("test.alpha", marker) }, "5s").Should(Equal(1))

		exported := map[string]bool{}
		for _, line := range strings.Split(scrape(), "\n") {
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			exported[line[:strings.IndexAny(line, "{ ")]] = true
		}
		queried := dashboardMetrics()
		Expect(queried).To(ContainElements("rounds_http_requests_total", "rounds_jobs_pending", "go_sql_in_use_connections",
			"rounds_jobs_oldest_pending_seconds", "rounds_outbox_undelivered", "rounds_outbox_oldest_undelivered_seconds"))
		var missing []string
		for _, m := range queried {
			if !exported[m] {
				missing = append(missing, m)
			}
		}
		Expect(missing).To(BeEmpty(), "the dashboard queries metrics /metrics does not export")
	})
})
