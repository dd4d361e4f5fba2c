package events

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Lag reports the outbox at scrape time, per topic and consumer group: the
// messages the group has not handled yet and the age of the oldest of them
// (0 when none). A growing age means the workers are down, too few, or a
// handler is stuck retrying one message. Every process reports the same
// figures (they are read from the database), so dashboards take the max.
func (b *Bus) Lag() prometheus.Collector { return lag{b: b} }

var (
	lagLabels         = []string{"topic", "group"}
	undeliveredDesc   = prometheus.NewDesc("rounds_outbox_undelivered", "Outbox messages a consumer group has not handled yet.", lagLabels, nil)
	oldestUndelivDesc = prometheus.NewDesc("rounds_outbox_oldest_undelivered_seconds",
		"Age of the oldest outbox message a consumer group has not handled yet (0 when none).", lagLabels, nil)
)

type lag struct{ b *Bus }

func (lag) Describe(ch chan<- *prometheus.Desc) {
	ch <- undeliveredDesc
	ch <- oldestUndelivDesc
}

func (l lag) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	groups, err := l.b.Undelivered(ctx)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(undeliveredDesc, err) // counted by the handler; the other metrics still come
		return
	}
	for _, g := range groups {
		ch <- prometheus.MustNewConstMetric(undeliveredDesc, prometheus.GaugeValue, float64(g.Undelivered), g.Topic, g.Group)
		ch <- prometheus.MustNewConstMetric(oldestUndelivDesc, prometheus.GaugeValue, g.OldestSeconds, g.Topic, g.Group)
	}
}

// GroupLag is one consumer group's position on one topic: the messages it
// has not handled yet and the age of the oldest of them (0 when none).
type GroupLag struct {
	Topic         string
	Group         string
	Undelivered   int64
	OldestSeconds float64
}

// Undelivered reads every subscription's lag now, in the order they were
// registered (one statement; none when nothing subscribes).
func (b *Bus) Undelivered(ctx context.Context) ([]GroupLag, error) {
	b.mu.Lock()
	handlers := append([]handler(nil), b.handlers...)
	b.mu.Unlock()
	if len(handlers) == 0 {
		return nil, nil
	}
	query, args := lagQuery(handlers)
	var rows []struct {
		Topic, Grp  string
		Undelivered int64
		Oldest      float64
	}
	if err := b.db.Conn(ctx).Raw(query, args...).Scan(&rows).Error; err != nil {
		return nil, fmt.Errorf("events: outbox lag: %w", err)
	}
	out := make([]GroupLag, len(rows))
	for i, r := range rows {
		out[i] = GroupLag{Topic: r.Topic, Group: r.Grp, Undelivered: r.Undelivered, OldestSeconds: r.Oldest}
	}
	return out, nil
}

// PoisonedCount is how many events the poison topic holds (they are kept
// until someone replays or deletes them).
func (b *Bus) PoisonedCount(ctx context.Context) (int64, error) {
	var n int64
	err := b.db.Conn(ctx).Raw(fmt.Sprintf(`SELECT count(*) FROM %s`, messagesTable(PoisonTopic))).Scan(&n).Error
	return n, err
}

// lagQuery is one statement for every (topic, group): a group has handled
// exactly the messages up to its acknowledged (transaction_id, offset), the
// position Watermill reads from next, so the rest is a range scan of the
// topic's primary key that is empty when the group keeps up. created_at is
// a timestamp without time zone written in the session's zone, hence
// localtimestamp.
func lagQuery(handlers []handler) (string, []any) {
	parts := make([]string, 0, len(handlers))
	args := make([]any, 0, 4*len(handlers))
	for _, h := range handlers {
		offsets := offsetsTable(h.topic)
		parts = append(parts, fmt.Sprintf(`SELECT ?::text AS topic, ?::text AS grp, count(*) AS undelivered,
			coalesce(extract(epoch FROM localtimestamp - min(m.created_at)), 0) AS oldest
		FROM %s m
		WHERE (m.transaction_id, m."offset") > (
			coalesce((SELECT last_processed_transaction_id FROM %s WHERE consumer_group = ?), '0'::xid8),
			coalesce((SELECT offset_acked FROM %s WHERE consumer_group = ?), 0))`,
			messagesTable(h.topic), offsets, offsets))
		args = append(args, h.topic, h.group, h.group, h.group)
	}
	return strings.Join(parts, "\nUNION ALL\n"), args
}
