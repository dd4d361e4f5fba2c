package telemetry_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"go.opentelemetry.io/otel/trace"

	"github.com/roundsedu/rounds/platform/config"
	"github.com/roundsedu/rounds/platform/telemetry"
)

func TestOffByDefault(t *testing.T) {
	cfg, err := config.Read()
	if err != nil {
		t.Fatal(err)
	}
	stop, err := telemetry.Setup(context.Background(), cfg, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer stop(context.Background())
	if telemetry.Enabled() {
		t.Fatal("tracing is on without an endpoint")
	}
	_, span := telemetry.Start(context.Background(), "x", trace.SpanKindInternal)
	if span.IsRecording() {
		t.Fatal("a span records while tracing is off")
	}
}

func TestExportsToTheConfiguredEndpoint(t *testing.T) {
	var posts atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.URL.Path == "/v1/traces" {
			posts.Add(1)
		}
	}))
	defer srv.Close()
	cfg, err := config.Read()
	if err != nil {
		t.Fatal(err)
	}
	cfg.Set("telemetry.otlp_endpoint", srv.URL)
	stop, err := telemetry.Setup(context.Background(), cfg, "test")
	if err != nil {
		t.Fatal(err)
	}
	ctx, span := telemetry.Start(context.Background(), "work", trace.SpanKindInternal)
	if !span.IsRecording() || telemetry.TraceID(ctx) == "" {
		t.Fatal("no span recorded with an endpoint set")
	}
	telemetry.End(span, nil)
	if err := stop(context.Background()); err != nil { // flushes the batch
		t.Fatal(err)
	}
	if posts.Load() == 0 {
		t.Fatal("nothing was exported to /v1/traces")
	}
	if telemetry.Enabled() {
		t.Fatal("tracing still on after shutdown")
	}
}

func TestRefusesABadSampleRatio(t *testing.T) {
	cfg, err := config.Read()
	if err != nil {
		t.Fatal(err)
	}
	cfg.Set("telemetry.sample_ratio", 2)
	if _, err := telemetry.Setup(context.Background(), cfg, "test"); err == nil {
		t.Fatal("sample_ratio 2 accepted")
	}
}
