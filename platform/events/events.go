// Package events is the in-process event bus between modules, carried by
// Watermill over Postgres (watermill-sql).
//
// Publish writes the event inside the caller's database transaction (the
// outbox): a rolled-back write publishes nothing, a committed one is
// delivered. Subscribe delivers each event once per consumer group (one group
// per module handler); a handler runs in its own transaction together with a
// record of the message id, so a redelivered message is a no-op. A handler
// that keeps failing is retried with backoff, then moved to the poison topic
// where it stays visible instead of blocking the events behind it.
//
// Each topic's tables are created by the owning module's migration with
// SELECT events.ensure_topic('<module>.<event>.v1').
package events

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	wsql "github.com/ThreeDotsLabs/watermill-sql/v4/pkg/sql"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/message/router/middleware"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/roundsedu/rounds/platform/config"
	"github.com/roundsedu/rounds/platform/db"
	"github.com/roundsedu/rounds/platform/metrics"
	"github.com/roundsedu/rounds/platform/telemetry"
)

// PoisonTopic receives events whose handler kept failing.
const PoisonTopic = "platform.poison.v1"

// Topic is a topic's name bound to its payload type: Publish and Subscribe
// take a Topic[T] with a T, so a payload of another type does not compile.
// Each module declares its topics once, in its public events file; the name
// is what the outbox tables and the wire know, so it never changes for a
// given payload shape (a shape old consumers cannot read gets a new topic,
// .v2).
type Topic[T any] struct{ name string }

// NewTopic declares the topic name carrying payloads of type T.
func NewTopic[T any](name string) Topic[T] { return Topic[T]{name: name} }

// Name is the topic's name on the wire ('<module>.<event>.v1').
func (t Topic[T]) Name() string { return t.name }

// Publisher is what a module needs to publish (events.Publish); only *Bus
// implements it.
type Publisher interface {
	publish(ctx context.Context, topic string, data []byte) error
}

// Meta describes the delivered message.
type Meta struct {
	MessageID string
	Topic     string
}

type handler struct {
	group, topic string
	fn           func(ctx context.Context, payload []byte, m Meta) error
}

// Bus publishes and, in worker processes, runs the subscribers.
type Bus struct {
	db       *db.DB
	cfg      config.Events
	log      *slog.Logger
	wlog     watermill.LoggerAdapter
	metrics  *metrics.Registry
	schema   wsql.DefaultPostgreSQLSchema
	offsets  wsql.DefaultPostgreSQLOffsetsAdapter
	mu       sync.Mutex
	handlers []handler
}

// New creates the bus.
func New(d *db.DB, cfg config.Events, log *slog.Logger, m *metrics.Registry) *Bus {
	return &Bus{
		db: d, cfg: cfg, log: log, metrics: m,
		wlog:    watermill.NewSlogLoggerWithLevelMapping(log, map[slog.Level]slog.Level{slog.LevelInfo: slog.LevelDebug}),
		schema:  wsql.DefaultPostgreSQLSchema{GenerateMessagesTableName: messagesTable, SubscribeBatchSize: 1},
		offsets: wsql.DefaultPostgreSQLOffsetsAdapter{GenerateMessagesOffsetsTableName: offsetsTable},
	}
}

func messagesTable(topic string) string { return fmt.Sprintf(`events.%q`, topic) }
func offsetsTable(topic string) string  { return fmt.Sprintf(`events.%q`, topic+":offsets") }

// ErrNoTx is what Publish answers without a transaction on ctx: an event
// must commit or roll back with the change it announces (the outbox), so
// publishing on its own is a bug, refused rather than quietly given a
// transaction of its own.
var ErrNoTx = errors.New("events: publish needs the transaction of the change it announces (db.Tx)")

// Publish writes payload (JSON-encoded) to topic inside the transaction on
// ctx, which it requires.
func Publish[T any](ctx context.Context, p Publisher, topic Topic[T], payload T) error {
	data, err := json.Marshal(payload)
	if err != nil {
		return fmt.Errorf("events: encode %s: %w", topic.name, err)
	}
	return p.publish(ctx, topic.name, data)
}

func (b *Bus) publish(ctx context.Context, topic string, data []byte) error {
	tx, err := db.SQLTx(ctx)
	if err != nil {
		return fmt.Errorf("events: publish %s: %w", topic, ErrNoTx)
	}
	pub, err := wsql.NewPublisher(wsql.TxFromStdSQL(tx), wsql.PublisherConfig{SchemaAdapter: b.schema}, b.wlog)
	if err == nil {
		msg := message.NewMessage(watermill.NewUUID(), data)
		msg.SetContext(ctx)
		telemetry.Inject(ctx, msg.Metadata) // the handlers continue this trace
		err = pub.Publish(topic, msg)
	}
	if err != nil {
		return fmt.Errorf("events: publish %s: %w", topic, err)
	}
	b.metrics.ObserveEvent(topic, "", "published")
	return nil
}

// Subscribe registers a typed handler for topic under a consumer group (name
// it "<module>.<purpose>"). The handler's context carries its transaction;
// returning an error rolls it back and the event is retried. Register before
// Run.
func Subscribe[T any](b *Bus, group string, topic Topic[T], fn func(ctx context.Context, evt T, m Meta) error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.handlers = append(b.handlers, handler{group: group, topic: topic.name,
		fn: func(ctx context.Context, payload []byte, m Meta) error {
			var evt T
			if err := json.Unmarshal(payload, &evt); err != nil {
				return fmt.Errorf("decode %s: %w", m.Topic, err)
			}
			return fn(ctx, evt, m)
		}})
}

// Restart delays after the subscribers stopped on an error: the first wait,
// doubled per failed start up to the cap.
const (
	restartFirst = 250 * time.Millisecond
	restartCap   = 15 * time.Second
)

// Run starts every registered subscriber and blocks until ctx ends and the
// in-flight handlers have finished. An outage must not end the worker: when
// the subscribers stop on an error (the database went away while they
// subscribed), they are started again with backoff until ctx ends. A router
// that cannot even be built is a configuration error and is returned.
func (b *Bus) Run(ctx context.Context) error {
	wait := restartFirst
	for {
		router, err := b.router()
		if err != nil {
			return err
		}
		started := time.Now()
		err = router.Run(ctx)
		if ctx.Err() != nil {
			// Stopped, possibly while subscribers were still starting: a shutdown, not a failure.
			return nil
		}
		if time.Since(started) > restartCap {
			wait = restartFirst // it ran a while: this is a new outage
		}
		b.log.Warn("events: subscribers stopped; restarting", "error", err, "in", wait)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
		wait = min(2*wait, restartCap)
	}
}

// router builds a router with every registered subscriber on it.
func (b *Bus) router() (*message.Router, error) {
	router, err := message.NewRouter(message.RouterConfig{CloseTimeout: 30 * time.Second}, b.wlog)
	if err != nil {
		return nil, err
	}
	poisonPub, err := wsql.NewPublisher(wsql.BeginnerFromStdSQL(b.db.StdPool()), wsql.PublisherConfig{SchemaAdapter: b.schema}, b.wlog)
	if err != nil {
		return nil, err
	}
	poison, err := middleware.PoisonQueue(poisonPub, PoisonTopic)
	if err != nil {
		return nil, err
	}
	// Outermost first: the poison queue sees an error only after the retries.
	router.AddMiddleware(poison, middleware.Retry{
		MaxRetries:      b.cfg.MaxRetries,
		InitialInterval: b.cfg.RetryInterval,
		Multiplier:      2,
		MaxInterval:     30 * time.Second,
		Logger:          b.wlog,
	}.Middleware, middleware.Recoverer)

	b.mu.Lock()
	handlers := append([]handler(nil), b.handlers...)
	b.mu.Unlock()
	deadline := b.cfg.HandlerDeadline
	for _, h := range handlers {
		sub, err := wsql.NewSubscriber(wsql.BeginnerFromStdSQL(b.db.StdPool()), wsql.SubscriberConfig{
			ConsumerGroup:  h.group,
			PollInterval:   b.cfg.PollInterval,
			ResendInterval: b.cfg.RetryInterval,
			AckDeadline:    &deadline,
			SchemaAdapter:  b.schema,
			OffsetsAdapter: b.offsets,
		}, b.wlog)
		if err != nil {
			return nil, err
		}
		router.AddConsumerHandler(h.group+"@"+h.topic, h.topic, sub, b.wrap(h))
	}
	return router, nil
}

// wrap runs the handler in a transaction that also records the message id
// for its consumer group; a message already recorded is skipped.
func (b *Bus) wrap(h handler) message.NoPublishHandlerFunc {
	return func(msg *message.Message) (err error) {
		meta := Meta{MessageID: msg.UUID, Topic: h.topic}
		duplicate := false
		ctx, span := telemetry.Start(telemetry.Extract(msg.Context(), msg.Metadata), "event "+h.topic,
			trace.SpanKindConsumer, attribute.String("messaging.destination.name", h.topic),
			attribute.String("messaging.consumer.group.name", h.group), attribute.String("messaging.message.id", msg.UUID))
		defer func() { telemetry.End(span, err) }()
		err = b.db.Tx(ctx, func(ctx context.Context) error {
			res := b.db.Conn(ctx).Exec(
				`INSERT INTO events.processed (consumer_group, message_id) VALUES (?, ?) ON CONFLICT DO NOTHING`,
				h.group, msg.UUID)
			if res.Error != nil {
				return res.Error
			}
			if res.RowsAffected == 0 {
				duplicate = true
				return nil
			}
			return h.fn(ctx, msg.Payload, meta)
		})
		switch {
		case err != nil:
			b.metrics.ObserveEvent(h.topic, h.group, "failed")
			b.log.Warn("event handler failed", "group", h.group, "topic", h.topic, "message_id", msg.UUID, "error", err)
		case duplicate:
			b.metrics.ObserveEvent(h.topic, h.group, "duplicate")
		default:
			b.metrics.ObserveEvent(h.topic, h.group, "handled")
		}
		return err
	}
}

// Prune deletes delivered messages and dedupe records older than retention,
// in short batches (db.DeleteInBatches: a long delete would stall delivery).
// The poison queue is kept. A consumer group stopped for longer than the
// retention would miss the pruned events; retention is therefore generous.
func (b *Bus) Prune(ctx context.Context, retention time.Duration) (int64, error) {
	cutoff := time.Now().Add(-retention)
	var topics []string
	err := b.db.Conn(ctx).Raw(`SELECT table_name FROM information_schema.tables
		WHERE table_schema = 'events' AND table_name NOT LIKE '%:offsets' AND table_name <> 'processed' AND table_name <> ?`,
		PoisonTopic).Scan(&topics).Error
	if err != nil {
		return 0, err
	}
	var total int64
	for _, t := range topics {
		n, err := b.db.DeleteInBatches(ctx, messagesTable(t), "created_at < ?", cutoff)
		total += n
		if err != nil {
			return total, err
		}
	}
	n, err := b.db.DeleteInBatches(ctx, "events.processed", "processed_at < ?", cutoff)
	return total + n, err
}

// Poisoned is an event that exhausted its retries.
type Poisoned struct {
	MessageID string
	Topic     string
	Handler   string
	Reason    string
	Payload   json.RawMessage
	At        time.Time
}

// Poisoned lists the poison queue, newest first.
func (b *Bus) Poisoned(ctx context.Context, limit int) ([]Poisoned, error) {
	var rows []struct {
		UUID      string
		Payload   []byte
		Metadata  []byte
		CreatedAt time.Time
	}
	err := b.db.Conn(ctx).Raw(fmt.Sprintf(
		`SELECT uuid, payload, metadata, created_at FROM %s ORDER BY "offset" DESC LIMIT ?`,
		messagesTable(PoisonTopic)), limit).Scan(&rows).Error
	if err != nil {
		return nil, err
	}
	out := make([]Poisoned, 0, len(rows))
	for _, r := range rows {
		md := map[string]string{}
		if err := json.Unmarshal(r.Metadata, &md); err != nil {
			return nil, errors.Join(errors.New("events: poison metadata"), err)
		}
		out = append(out, Poisoned{MessageID: r.UUID, Payload: r.Payload, At: r.CreatedAt,
			Topic: md[middleware.PoisonedTopicKey], Handler: md[middleware.PoisonedHandlerKey],
			Reason: md[middleware.ReasonForPoisonedKey]})
	}
	return out, nil
}
