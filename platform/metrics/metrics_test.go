package metrics_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/roundsedu/rounds/platform/metrics"
)

// failing is a scrape-time collector whose source (the database) is down.
type failing struct{ desc *prometheus.Desc }

func (f failing) Describe(ch chan<- *prometheus.Desc) { ch <- f.desc }
func (f failing) Collect(ch chan<- prometheus.Metric) {
	ch <- prometheus.NewInvalidMetric(f.desc, errors.New("database: connection refused"))
}

func TestAFailingCollectorLeavesTheOtherMetrics(t *testing.T) {
	m := metrics.New()
	m.Register(failing{prometheus.NewDesc("rounds_test_backlog", "from the database", nil, nil)})
	m.ObserveRequest(http.MethodGet, "/api/v1/health", http.StatusServiceUnavailable, 0)

	scrape := func() string {
		rec := httptest.NewRecorder()
		m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
		if rec.Code != http.StatusOK {
			t.Fatalf("status %d, want 200: %s", rec.Code, rec.Body)
		}
		return rec.Body.String()
	}
	body := scrape()
	if !strings.Contains(body, `rounds_http_requests_total{method="GET",route="/api/v1/health",status="503"} 1`) {
		t.Fatal("the request counter is missing")
	}
	if strings.Contains(body, "rounds_test_backlog ") {
		t.Fatal("the failed collector reported a value")
	}
	// The handler counts a failure after serving the scrape it happened in.
	if !strings.Contains(scrape(), `promhttp_metric_handler_errors_total{cause="gathering"} 1`) {
		t.Fatal("the failed gathering is not counted")
	}
}
