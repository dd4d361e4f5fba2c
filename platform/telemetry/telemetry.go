// Package telemetry is the service's OpenTelemetry tracing: off unless an
// OTLP endpoint is configured, then one trace per request (W3C trace
// context in and out) with spans for the database statements, the events
// it publishes and handles, and the jobs it runs.
package telemetry

import (
	"context"
	_ "embed"
	"fmt"
	"strings"
	"sync/atomic"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/roundsedu/rounds/platform/config"
)

//go:embed config.yaml
var defaults []byte

// Config is the telemetry section.
type Config struct {
	OTLPEndpoint string  `mapstructure:"otlp_endpoint" validate:"omitempty,url"`
	SampleRatio  float64 `mapstructure:"sample_ratio" validate:"gte=0,lte=1"`
}

// Scope names the instrumentation in every span.
const Scope = "github.com/roundsedu/rounds"

// tracer follows the global provider, so spans go wherever Install points.
var tracer = otel.Tracer(Scope)

// enabled lets the hot paths skip span bookkeeping while tracing is off.
var enabled atomic.Bool

// Enabled reports whether spans are being recorded.
func Enabled() bool { return enabled.Load() }

// Setup reads the telemetry section and, when an endpoint is set, installs
// an OTLP/HTTP exporter. The returned function flushes and stops it.
func Setup(ctx context.Context, cfg *config.Config, version string) (shutdown func(context.Context) error, err error) {
	var c Config
	if err := cfg.Section("telemetry", defaults, &c); err != nil {
		return nil, err
	}
	if c.OTLPEndpoint == "" {
		return func(context.Context) error { return nil }, nil
	}
	exp, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(strings.TrimSuffix(c.OTLPEndpoint, "/")+"/v1/traces"))
	if err != nil {
		return nil, fmt.Errorf("telemetry: %w", err)
	}
	res := resource.NewSchemaless(attribute.String("service.name", cfg.Service.Name),
		attribute.String("service.version", version))
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res),
		sdktrace.WithSampler(sdktrace.ParentBased(sdktrace.TraceIDRatioBased(c.SampleRatio))))
	Install(tp)
	return func(ctx context.Context) error {
		Install(nil)
		return tp.Shutdown(ctx)
	}, nil
}

// Install makes tp the process's tracer provider with W3C trace context
// propagation (tests install one over an in-memory exporter); nil turns
// tracing off again.
func Install(tp trace.TracerProvider) {
	if tp == nil {
		enabled.Store(false)
		otel.SetTracerProvider(noop.NewTracerProvider())
		otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator())
		return
	}
	otel.SetTracerProvider(tp)
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
	enabled.Store(true)
}

// off is the span that records nothing (never the caller's own, which
// End would close).
var off = trace.SpanFromContext(context.Background())

// Start opens a span when tracing is on; otherwise it returns ctx and a
// span that records nothing.
func Start(ctx context.Context, name string, kind trace.SpanKind, attrs ...attribute.KeyValue) (context.Context, trace.Span) {
	if !Enabled() {
		return ctx, off
	}
	return tracer.Start(ctx, name, trace.WithSpanKind(kind), trace.WithAttributes(attrs...))
}

// End closes span, marking it failed with err.
func End(span trace.Span, err error) {
	if !span.IsRecording() {
		return
	}
	if err != nil {
		span.RecordError(err)
		span.SetStatus(codes.Error, err.Error())
	}
	span.End()
}

// Inject writes ctx's trace context into carrier (an event's metadata).
func Inject(ctx context.Context, carrier map[string]string) {
	if Enabled() {
		otel.GetTextMapPropagator().Inject(ctx, propagation.MapCarrier(carrier))
	}
}

// Carrier is ctx's trace context, to be stored with work that runs later
// (a queued job); nil when tracing is off or ctx has no span to continue.
func Carrier(ctx context.Context) map[string]string {
	if !Enabled() || !trace.SpanContextFromContext(ctx).IsValid() {
		return nil
	}
	c := map[string]string{}
	otel.GetTextMapPropagator().Inject(ctx, propagation.MapCarrier(c))
	return c
}

// Extract continues the trace carried in carrier.
func Extract(ctx context.Context, carrier map[string]string) context.Context {
	if !Enabled() {
		return ctx
	}
	return otel.GetTextMapPropagator().Extract(ctx, propagation.MapCarrier(carrier))
}

// TraceID is the id of ctx's trace, or "" (for log lines).
func TraceID(ctx context.Context) string {
	if sc := trace.SpanContextFromContext(ctx); sc.HasTraceID() {
		return sc.TraceID().String()
	}
	return ""
}
