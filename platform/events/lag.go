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
	l.b.mu.Lock()
	handlers := append([]handler(nil), l.b.handlers...)
	l.b.mu.Unlock()
	if len(handlers) == 0 {
		return
	}
	query, args := lagQuery(handlers)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	var rows []struct {
		Topic, Grp          string
		Undelivered, Oldest float64
	}
	if err := l.b.db.Conn(ctx).Raw(query, args...).Scan(&rows).Error; err != nil {
		ch <- prometheus.NewInvalidMetric(undeliveredDesc, err) // counted by the handler; the other metrics still come
		return
	}
	for _, r := range rows {
		ch <- prometheus.MustNewConstMetric(undeliveredDesc, prometheus.GaugeValue, r.Undelivered, r.Topic, r.Grp)
		ch <- prometheus.MustNewConstMetric(oldestUndelivDesc, prometheus.GaugeValue, r.Oldest, r.Topic, r.Grp)
	}
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
