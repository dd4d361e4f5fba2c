package jobs

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Backlog reports the queue at scrape time: jobs waiting, jobs running and
// the age of the oldest waiting one (0 when none wait). A growing age is
// the sign that workers are too few or stuck.
func (q *Queue) Backlog() prometheus.Collector { return backlog{q: q} }

var (
	pendingDesc = prometheus.NewDesc("rounds_jobs_pending", "Jobs waiting for a worker.", nil, nil)
	runningDesc = prometheus.NewDesc("rounds_jobs_running", "Jobs a worker holds a lease on.", nil, nil)
	oldestDesc  = prometheus.NewDesc("rounds_jobs_oldest_pending_seconds", "Age of the oldest waiting job (0 when none).", nil, nil)
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
	// jobs_live_idx covers the live rows: the scan stays small however many finished jobs are kept.
	err := b.q.db.Conn(ctx).Raw(`SELECT count(*) FILTER (WHERE status = 'pending') AS pending,
			count(*) FILTER (WHERE status = 'running') AS running,
			coalesce(extract(epoch FROM now() - min(created_at) FILTER (WHERE status = 'pending')), 0) AS oldest
		FROM platform.jobs WHERE status IN ('pending', 'running')`).Scan(&row).Error
	if err != nil {
		ch <- prometheus.NewInvalidMetric(pendingDesc, err) // counted by the handler; the other metrics still come
		return
	}
	ch <- prometheus.MustNewConstMetric(pendingDesc, prometheus.GaugeValue, row.Pending)
	ch <- prometheus.MustNewConstMetric(runningDesc, prometheus.GaugeValue, row.Running)
	ch <- prometheus.MustNewConstMetric(oldestDesc, prometheus.GaugeValue, row.Oldest)
}
