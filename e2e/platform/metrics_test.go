package platform_test

import (
	"net/http/httptest"
	"strconv"
	"strings"

	"github.com/roundsedu/rounds/platform/config"
	"github.com/roundsedu/rounds/platform/metrics"
)

// metricValue scrapes the registry and sums the samples of name whose labels
// include every given pair.
func metricValue(m *metrics.Registry, name string, labels map[string]string) float64 {
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	return sampleSum(rec.Body.String(), name, labels)
}

// sampleSum sums the samples of name in a /metrics text whose labels
// include every given pair.
func sampleSum(text, name string, labels map[string]string) float64 {
	total := 0.0
	for _, line := range strings.Split(text, "\n") {
		if !strings.HasPrefix(line, name+"{") {
			continue
		}
		match := true
		for k, v := range labels {
			if !strings.Contains(line, k+`="`+v+`"`) {
				match = false
			}
		}
		if !match {
			continue
		}
		f, err := strconv.ParseFloat(line[strings.LastIndex(line, " ")+1:], 64)
		if err == nil {
			total += f
		}
	}
	return total
}

func withMaxPending(c config.Jobs, n int) config.Jobs {
	c.MaxPending = n
	return c
}
