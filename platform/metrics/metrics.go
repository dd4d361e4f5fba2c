// Package metrics holds the Prometheus collectors every part of the service
// reports to, and the separate listener that exposes them.
package metrics

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/pprof"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Registry holds the service's collectors. Each App has its own, so several
// apps in one test process do not collide.
type Registry struct {
	reg        *prometheus.Registry
	requests   *prometheus.CounterVec
	latency    *prometheus.HistogramVec
	jobs       *prometheus.CounterVec
	jobLatency *prometheus.HistogramVec
	events     *prometheus.CounterVec
	leader     prometheus.Gauge
}

// New creates the collectors.
func New() *Registry {
	r := &Registry{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "rounds_http_requests_total", Help: "HTTP requests by route and status.",
		}, []string{"method", "route", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "rounds_http_request_duration_seconds", Help: "HTTP request latency by route.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"method", "route"}),
		jobs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "rounds_jobs_total", Help: "Background jobs and scheduled jobs finished, by kind and outcome.",
		}, []string{"kind", "outcome"}),
		jobLatency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "rounds_job_duration_seconds", Help: "Background job run time by kind.",
			Buckets: prometheus.ExponentialBuckets(0.01, 4, 10),
		}, []string{"kind"}),
		events: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "rounds_events_total", Help: "Events published and handled, by topic, consumer group and outcome.",
		}, []string{"topic", "group", "outcome"}),
		leader: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "rounds_scheduler_leader", Help: "1 while this process leads the scheduler.",
		}),
	}
	r.reg.MustRegister(r.requests, r.latency, r.jobs, r.jobLatency, r.events, r.leader,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return r
}

// Register adds collectors that read their values at scrape time (the
// database pool, the job queue).
func (r *Registry) Register(cs ...prometheus.Collector) { r.reg.MustRegister(cs...) }

// ObserveRequest records one HTTP request.
func (r *Registry) ObserveRequest(method, route string, status int, d time.Duration) {
	r.requests.WithLabelValues(method, route, strconv.Itoa(status)).Inc()
	r.latency.WithLabelValues(method, route).Observe(d.Seconds())
}

// ObserveJob records one finished job run.
func (r *Registry) ObserveJob(kind, outcome string, d time.Duration) {
	r.jobs.WithLabelValues(kind, outcome).Inc()
	r.jobLatency.WithLabelValues(kind).Observe(d.Seconds())
}

// ObserveEvent records one event published ("published") or handled.
func (r *Registry) ObserveEvent(topic, group, outcome string) {
	r.events.WithLabelValues(topic, group, outcome).Inc()
}

// SetLeader records scheduler leadership.
func (r *Registry) SetLeader(leading bool) {
	if leading {
		r.leader.Set(1)
	} else {
		r.leader.Set(0)
	}
}

// Handler serves the metrics in the Prometheus text format. A collector
// that reads the database fails while the database is down; the scrape then
// still serves every other family (the request rates and 503s matter most
// then) and counts the failure in promhttp_metric_handler_errors_total,
// instead of answering 500 for all of them.
func (r *Registry) Handler() http.Handler {
	return promhttp.HandlerFor(r.reg, promhttp.HandlerOpts{Registry: r.reg, ErrorHandling: promhttp.ContinueOnError})
}

// Serve runs the metrics listener until ctx ends. With profiling on, the
// Go profiler is served beside the metrics (/debug/pprof/), on this
// internal listener only.
func (r *Registry) Serve(ctx context.Context, ln net.Listener, profiling bool) error {
	mux := http.NewServeMux()
	mux.Handle("/metrics", r.Handler())
	if profiling {
		mux.HandleFunc("/debug/pprof/", pprof.Index)
		mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
		mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
		mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
		mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() {
		<-ctx.Done()
		shutdownCtx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdownCtx)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
