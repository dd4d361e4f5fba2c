package db

import (
	"errors"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	"gorm.io/gorm"

	"github.com/roundsedu/rounds/platform/telemetry"
)

// tracing is a gorm plugin that gives each statement a client span under the
// caller's (request, event or job) span. The statement is recorded with its
// placeholders, never its parameter values (tokens, emails, answers).
type tracing struct{}

const spanKey = "rounds:span"

func (tracing) Name() string { return "rounds:tracing" }

func (tracing) Initialize(g *gorm.DB) error {
	cb := g.Callback()
	return errors.Join(
		cb.Create().Before("*").Register("rounds:trace_insert", startSpan("insert")),
		cb.Create().After("*").Register("rounds:trace_insert_end", endSpan),
		cb.Query().Before("*").Register("rounds:trace_select", startSpan("select")),
		cb.Query().After("*").Register("rounds:trace_select_end", endSpan),
		cb.Update().Before("*").Register("rounds:trace_update", startSpan("update")),
		cb.Update().After("*").Register("rounds:trace_update_end", endSpan),
		cb.Delete().Before("*").Register("rounds:trace_delete", startSpan("delete")),
		cb.Delete().After("*").Register("rounds:trace_delete_end", endSpan),
		cb.Row().Before("*").Register("rounds:trace_query", startSpan("query")), // Raw(...).Scan, Row
		cb.Row().After("*").Register("rounds:trace_query_end", endSpan),
		cb.Raw().Before("*").Register("rounds:trace_exec", startSpan("exec")), // Exec
		cb.Raw().After("*").Register("rounds:trace_exec_end", endSpan),
	)
}

func startSpan(op string) func(*gorm.DB) {
	return func(tx *gorm.DB) {
		if !telemetry.Enabled() || tx.Statement.Context == nil {
			return
		}
		ctx, span := telemetry.Start(tx.Statement.Context, "db."+op, trace.SpanKindClient,
			attribute.String("db.system.name", "postgresql"), attribute.String("db.operation.name", op))
		tx.Statement.Context = ctx
		tx.InstanceSet(spanKey, span)
	}
}

func endSpan(tx *gorm.DB) {
	v, ok := tx.InstanceGet(spanKey)
	if !ok {
		return
	}
	span := v.(trace.Span)
	span.SetAttributes(attribute.String("db.query.text", tx.Statement.SQL.String()),
		attribute.Int64("db.response.returned_rows", tx.Statement.RowsAffected))
	if tx.Statement.Table != "" {
		span.SetAttributes(attribute.String("db.collection.name", tx.Statement.Table))
	}
	err := tx.Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		err = nil // an answer, not a failure
	}
	telemetry.End(span, err)
}
