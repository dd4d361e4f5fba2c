package platform_test

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/db"
	"github.com/roundsedu/rounds/platform/events"
	"github.com/roundsedu/rounds/platform/telemetry"
)

var _ = Describe("Traces", Ordered, func() {
	var (
		exp *tracetest.InMemoryExporter
		tp  *sdktrace.TracerProvider
	)
	BeforeAll(func() {
		exp = tracetest.NewInMemoryExporter()
		tp = sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
		telemetry.Install(tp)
		DeferCleanup(func() {
			telemetry.Install(nil)
			Expect(tp.Shutdown(context.Background())).To(Succeed())
		})
	})

	// inTrace is the ended spans of one trace.
	inTrace := func(id trace.TraceID) tracetest.SpanStubs {
		var out tracetest.SpanStubs
		for _, s := range exp.GetSpans() {
			if s.SpanContext.TraceID() == id {
				out = append(out, s)
			}
		}
		return out
	}
	named := func(spans tracetest.SpanStubs, name string) []tracetest.SpanStub {
		var out []tracetest.SpanStub
		for _, s := range spans {
			if s.Name == name {
				out = append(out, s)
			}
		}
		return out
	}
	attr := func(s tracetest.SpanStub, key string) string {
		for _, kv := range s.Attributes {
			if string(kv.Key) == key {
				return kv.Value.Emit()
			}
		}
		return ""
	}

	It("continues the caller's W3C trace: a server span named by route, with its statement as a child", func() {
		traceID, _ := trace.TraceIDFromHex("4bf92f3577b34da6a3ce929d0e0e4736")
		callerSpan, _ := trace.SpanIDFromHex("00f067aa0ba902b7")
		resp := h.Anon().With("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01").
			Get("/api/test/missing")
		Expect(resp).To(harness.HaveError(http.StatusNotFound, "not_found"))

		spans := inTrace(traceID)
		servers := named(spans, "GET /api/v1/test/missing")
		Expect(servers).To(HaveLen(1))
		server := servers[0]
		Expect(server.SpanKind).To(Equal(trace.SpanKindServer))
		Expect(server.Parent.SpanID()).To(Equal(callerSpan), "the caller's span is the parent")
		Expect(server.Parent.IsRemote()).To(BeTrue())
		Expect(attr(server, "http.route")).To(Equal("/api/v1/test/missing"))
		Expect(attr(server, "http.response.status_code")).To(Equal("404"))

		selects := named(spans, "db.select")
		Expect(selects).To(HaveLen(1))
		Expect(selects[0].Parent.SpanID()).To(Equal(server.SpanContext.SpanID()))
		Expect(selects[0].SpanKind).To(Equal(trace.SpanKindClient))
		Expect(attr(selects[0], "db.query.text")).To(ContainSubstring(`"platform"."settings" WHERE key = $1`))
		Expect(attr(selects[0], "db.query.text")).NotTo(ContainSubstring("no-such-key"), "parameter values stay out")
		Expect(selects[0].Status.Code.String()).To(Equal("Unset"), "no row is an answer, not a failure")
	})

	It("starts a new trace for a request that brings none", func() {
		before := len(exp.GetSpans())
		Expect(h.Anon().Get("/api/test/lookup/k")).To(harness.HaveStatus(http.StatusOK))
		spans := exp.GetSpans()[before:]
		servers := named(spans, "GET /api/v1/test/lookup/:key")
		Expect(servers).To(HaveLen(1))
		Expect(servers[0].Parent.IsValid()).To(BeFalse(), "a root span")
		Expect(attr(servers[0], "url.path")).To(Equal("/api/v1/test/lookup/k"))
	})

	It("carries the trace through the outbox to each consumer group's handler and its statements", func() {
		ctx, root := tp.Tracer("test").Start(context.Background(), "publish ping")
		id := uuid.NewString()
		Expect(h.App.DB.Tx(ctx, func(ctx context.Context) error {
			return events.Publish(ctx, h.App.Bus, pingTopic, ping{ID: id})
		})).To(Succeed())
		root.End()
		traceID := root.SpanContext().TraceID()

		Eventually(func() []tracetest.SpanStub { return named(inTrace(traceID), "event "+pingTopic.Name()) }, "10s", "50ms").
			Should(HaveLen(2))
		spans := inTrace(traceID)
		groups := []string{}
		for _, ev := range named(spans, "event "+pingTopic.Name()) {
			Expect(ev.SpanKind).To(Equal(trace.SpanKindConsumer))
			groups = append(groups, attr(ev, "messaging.consumer.group.name"))
			// The handler's transaction and its insert hang under the event span.
			var tx tracetest.SpanStub
			for _, s := range named(spans, "db.transaction") {
				if s.Parent.SpanID() == ev.SpanContext.SpanID() {
					tx = s
				}
			}
			Expect(tx.SpanContext.IsValid()).To(BeTrue(), "a transaction under the event span")
			var inserts int
			for _, s := range named(spans, "db.exec") {
				if s.Parent.SpanID() == tx.SpanContext.SpanID() && strings.Contains(attr(s, "db.query.text"), "test_deliveries") {
					inserts++
				}
			}
			Expect(inserts).To(Equal(1))
		}
		Expect(groups).To(ConsistOf("test.alpha", "test.beta"))
	})

	It("continues the trace of the request that queued a job in the job's run", func() {
		traceID, _ := trace.TraceIDFromHex("0af7651916cd43dd8448eb211c80319c")
		resp := h.Anon().With("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01").
			Post("/api/test/enqueue", nil)
		Expect(resp).To(harness.HaveStatus(http.StatusOK))
		var out struct{ ID string }
		resp.JSON(&out)

		var server, insert, job tracetest.SpanStub
		Eventually(func() bool {
			spans := inTrace(traceID)
			servers, inserts, jobs := named(spans, "POST /api/v1/test/enqueue"), named(spans, "river.insert_many"),
				named(spans, "river.work/test.steps")
			if len(servers) != 1 || len(inserts) != 1 || len(jobs) != 1 {
				return false
			}
			server, insert, job = servers[0], inserts[0], jobs[0]
			return true
		}, "10s", "50ms").Should(BeTrue(), "the request and the job it queued share one trace")
		// River's insert runs in the request's transaction.
		tx := named(inTrace(traceID), "db.transaction")
		Expect(tx).To(ContainElement(WithTransform(func(s tracetest.SpanStub) bool {
			return s.SpanContext.SpanID() == insert.Parent.SpanID() && s.Parent.SpanID() == server.SpanContext.SpanID()
		}, BeTrue())), "River's insert is under the request's transaction")
		Expect(insert.SpanKind).To(Equal(trace.SpanKindProducer))
		Expect(attr(job, "job.id")).To(Equal(out.ID))
		Expect(job.SpanKind).To(Equal(trace.SpanKindConsumer))
		Expect(job.Parent.SpanID()).To(Equal(insert.SpanContext.SpanID()), "the span that queued the job is its parent")
		Expect(job.Parent.IsRemote()).To(BeTrue(), "carried through the job's row, not the process")

		// Stored with the job where River keeps it: the W3C traceparent of
		// the span that queued it.
		var stored string
		Expect(h.App.DB.Conn(context.Background()).Raw(`SELECT j.metadata->>'traceparent' FROM river.river_job j
			JOIN platform.job_progress p ON p.job_id = j.id WHERE p.public_id = ?`, out.ID).Scan(&stored).Error).To(Succeed())
		Expect(stored).To(Equal("00-" + traceID.String() + "-" + insert.SpanContext.SpanID().String() + "-01"))
	})

	It("gives each job run a span with the job's statements under it", func() {
		owner := int64(7)
		id, err := h.App.Queue.Enqueue(context.Background(), &owner, stepsPayload{Steps: 2})
		Expect(err).NotTo(HaveOccurred())
		var job tracetest.SpanStub
		Eventually(func() bool {
			for _, s := range named(exp.GetSpans(), "river.work/test.steps") {
				if attr(s, "job.id") == id.String() {
					job = s
					return true
				}
			}
			return false
		}, "10s", "50ms").Should(BeTrue())
		Expect(attr(job, "attempt")).To(Equal("1"))
		Expect(attr(job, "kind")).To(Equal("test.steps"))
		children := 0
		for _, s := range inTrace(job.SpanContext.TraceID()) {
			if s.Parent.SpanID() == job.SpanContext.SpanID() && strings.HasPrefix(s.Name, "db.") {
				children++
			}
		}
		Expect(children).To(BeNumerically(">=", 2), "the steps and the outcome are recorded under the job")
	})

	// A long write transaction stalls every consumer group (the outbox
	// delivers only messages older than the oldest running transaction):
	// the prune deletes a month of rows in short statements instead.
	It("prunes in statements of at most db.PruneBatch rows each, so it never holds back event delivery", func() {
		ctx := context.Background()
		conn := h.App.DB.Conn(ctx)
		const topic = `events."test.pruned.v1"` // no consumer group: nothing delivers these
		Expect(conn.Exec(`SELECT events.ensure_topic('test.pruned.v1')`).Error).To(Succeed())
		old := 2*db.PruneBatch + 7
		Expect(conn.Exec(`INSERT INTO `+topic+` (uuid, payload, transaction_id, created_at)
			SELECT 'pruned-' || i, '{}', pg_current_xact_id(), now() - interval '40 days' FROM generate_series(1, ?) i`, old).
			Error).To(Succeed())
		Expect(conn.Exec(`INSERT INTO ` + topic + ` (uuid, payload, transaction_id) VALUES ('kept', '{}', pg_current_xact_id())`).
			Error).To(Succeed())
		Expect(conn.Exec(`INSERT INTO events.processed
			SELECT 'test.pruned', 'pruned-' || i, now() - interval '40 days' FROM generate_series(1, ?) i`, old).Error).To(Succeed())
		var processed int
		Expect(conn.Raw(`SELECT count(*) FROM events.processed WHERE processed_at < now() - interval '30 days'`).
			Scan(&processed).Error).To(Succeed())

		pctx, root := tp.Tracer("test").Start(ctx, "prune")
		_, err := h.App.Bus.Prune(pctx, 30*24*time.Hour)
		root.End()
		Expect(err).NotTo(HaveOccurred())

		deleted := map[string][]int64{} // rows each DELETE statement removed, by table
		for _, s := range inTrace(root.SpanContext().TraceID()) {
			query := attr(s, "db.query.text")
			for _, table := range []string{topic, "events.processed"} {
				if strings.HasPrefix(query, "DELETE FROM "+table+" ") {
					rows, err := strconv.ParseInt(attr(s, "db.response.returned_rows"), 10, 64)
					Expect(err).NotTo(HaveOccurred())
					deleted[table] = append(deleted[table], rows)
				}
			}
		}
		for table, want := range map[string]int{topic: old, "events.processed": processed} {
			Expect(len(deleted[table])).To(BeNumerically(">=", 3), table)
			sum := int64(0)
			for _, n := range deleted[table] {
				Expect(n).To(BeNumerically("<=", db.PruneBatch), table)
				sum += n
			}
			Expect(sum).To(BeEquivalentTo(want), table)
		}
		var left []string
		Expect(conn.Raw(`SELECT uuid FROM ` + topic).Scan(&left).Error).To(Succeed())
		Expect(left).To(Equal([]string{"kept"}), "every old message went, the recent one stays")
		Expect(conn.Raw(`SELECT count(*) FROM events.processed WHERE processed_at < now() - interval '30 days'`).
			Scan(&processed).Error).To(Succeed())
		Expect(processed).To(BeZero())
	})
})

var _ = Describe("Jobs with tracing off", func() {
	It("store no trace context, even when the caller's context carries one", func() {
		sc := trace.NewSpanContext(trace.SpanContextConfig{TraceID: trace.TraceID{1}, SpanID: trace.SpanID{2}, TraceFlags: trace.FlagsSampled})
		ctx := trace.ContextWithSpanContext(context.Background(), sc)
		Expect(telemetry.Enabled()).To(BeFalse())
		id, err := h.App.Queue.Enqueue(ctx, nil, stepsPayload{Steps: 1})
		Expect(err).NotTo(HaveOccurred())
		var stored string
		Expect(h.App.DB.Conn(ctx).Raw(`SELECT j.metadata::text FROM river.river_job j
			JOIN platform.job_progress p ON p.job_id = j.id WHERE p.public_id = ?`, id).Scan(&stored).Error).To(Succeed())
		Expect(stored).NotTo(ContainSubstring("traceparent"))
	})

})
