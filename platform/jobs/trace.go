package jobs

import (
	"context"
	"encoding/json"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	"github.com/riverqueue/rivercontrib/otelriver"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/roundsedu/rounds/platform/telemetry"
)

// riverTelemetry is River's OpenTelemetry middleware: an insert stores the
// inserting span's W3C trace context in the job's metadata (a span
// river.insert_many under the request), and a run is a span
// river.work/<kind> with the job's attempt, kind and River id.
var riverTelemetry = otelriver.NewMiddleware(&otelriver.MiddlewareConfig{
	EnableTracePropagation:      true,
	EnableWorkSpanJobKindSuffix: true,
})

// tracing puts riverTelemetry on both River clients, following the
// service's switch (telemetry.Enabled: with tracing off nothing is stored
// or recorded), and makes a run a child of the span that queued it, as
// events are of the span that published them: otelriver only links to it,
// which leaves each job in a trace of its own.
type tracing struct{ river.MiddlewareDefaults }

func (*tracing) InsertMany(ctx context.Context, params []*rivertype.JobInsertParams,
	doInner func(context.Context) ([]*rivertype.JobInsertResult, error)) ([]*rivertype.JobInsertResult, error) {
	if !telemetry.Enabled() {
		return doInner(ctx)
	}
	return riverTelemetry.InsertMany(ctx, params, doInner)
}

func (*tracing) Work(ctx context.Context, job *rivertype.JobRow, doInner func(context.Context) error) error {
	if !telemetry.Enabled() {
		return doInner(ctx)
	}
	var meta map[string]any
	if err := json.Unmarshal(job.Metadata, &meta); err == nil {
		carrier := map[string]string{}
		for _, k := range []string{"traceparent", "tracestate"} {
			if v, ok := meta[k].(string); ok {
				carrier[k] = v
			}
		}
		ctx = telemetry.Extract(ctx, carrier)
	}
	return riverTelemetry.Work(ctx, job, doInner)
}

// spanJob names the job on its run's span by the id clients know.
func spanJob(ctx context.Context, id uuid.UUID) {
	trace.SpanFromContext(ctx).SetAttributes(attribute.String("job.id", id.String()))
}
