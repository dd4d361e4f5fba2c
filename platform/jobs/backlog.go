package jobs

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Backlog reports the queue at scrape time: jobs waiting, jobs running and
// how long the oldest job ready to run has waited for a worker (0 when
// none). A growing wait is the sign that workers are too few or stuck.
func (q *Queue) Backlog() prometheus.Collector { return backlog{q: q} }

var (
	pendingDesc = prometheus.NewDesc("rounds_jobs_pending", "Jobs waiting for a worker (River: available, scheduled, retryable).", nil, nil)
	runningDesc = prometheus.NewDesc("rounds_jobs_running", "Jobs a worker is running.", nil, nil)
	oldestDesc  = prometheus.NewDesc("rounds_jobs_oldest_pending_seconds", "How long the oldest job ready to run has waited (0 when none).", nil, nil)
)

type backlog struct{ q *Queue }

func (backlog) Describe(ch chan<- *prometheus.Desc) {
	ch <- pendingDesc
	ch <- runningDesc
	ch <- oldestDesc
}

func (b backlog) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	var row struct{ Pending, Running, Oldest float64 }
	// River's fetching index leads with the state: the scan covers live
	// jobs only, however many finished ones are kept.
	err := b.q.db.Conn(ctx).Raw(`SELECT count(*) FILTER (WHERE state <> 'running') AS pending,
			count(*) FILTER (WHERE state = 'running') AS running,
			coalesce(extract(epoch FROM now() - min(scheduled_at) FILTER (WHERE state = 'available')), 0) AS oldest
		FROM river.river_job WHERE state IN ('available', 'scheduled', 'retryable', 'running')`).Scan(&row).Error
	if err != nil {
		ch <- prometheus.NewInvalidMetric(pendingDesc, err) // counted by the handler; the other metrics still come
		return
	}
	ch <- prometheus.MustNewConstMetric(pendingDesc, prometheus.GaugeValue, row.Pending)
	ch <- prometheus.MustNewConstMetric(runningDesc, prometheus.GaugeValue, row.Running)
	ch <- prometheus.MustNewConstMetric(oldestDesc, prometheus.GaugeValue, max(row.Oldest, 0))
}
