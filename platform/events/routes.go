package events

import (
	"cmp"
	"context"
	"net/http"
	"slices"
	"time"

	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

// Routes declares GET /admin/outbox (admin only): the lag /metrics exports,
// for the admins' screen.
func (b *Bus) Routes(r *httpapi.Router) {
	h := &lagHandlers{bus: b}
	httpapi.Register(r, auth.Admin, httpapi.Described(httpapi.Op(http.MethodGet, "/admin/outbox", "admin",
		"Outbox lag now: per topic and consumer group, the events not handled yet and the oldest one's age", 0),
		"Read from the outbox tables at request time, as `rounds_outbox_undelivered` and "+
			"`rounds_outbox_oldest_undelivered_seconds` are for /metrics; the groups that lag come first. "+
			"No history is kept here: the metrics are the history."), h.outbox)
}

type lagHandlers struct{ bus *Bus }

// OutboxGroupResponse is one consumer group's lag on one topic.
type OutboxGroupResponse struct {
	Topic         string  `json:"topic" doc:"'<module>.<event>.v1'"`
	Group         string  `json:"group" doc:"the consumer group, '<module>.<purpose>'"`
	Undelivered   int64   `json:"undelivered" doc:"events the group has not handled yet"`
	OldestSeconds float64 `json:"oldest_seconds" doc:"age of the oldest of them, 0 when none"`
}

// OutboxResponse is the outbox as read at read_at.
type OutboxResponse struct {
	ReadAt   time.Time             `json:"read_at"`
	Groups   []OutboxGroupResponse `json:"groups" doc:"every subscription; the oldest unhandled event first, then by topic and group"`
	Poisoned int64                 `json:"poisoned" doc:"events that failed every retry and wait in the poison topic (they no longer count as lag)"`
}

type outboxOut struct{ Body OutboxResponse }

func (h *lagHandlers) outbox(ctx context.Context, _ *struct{}) (*outboxOut, error) {
	groups, err := h.bus.Undelivered(ctx)
	if err != nil {
		return nil, err
	}
	poisoned, err := h.bus.PoisonedCount(ctx)
	if err != nil {
		return nil, err
	}
	return &outboxOut{Body: OutboxResponse{ReadAt: time.Now().UTC(), Groups: toOutboxGroups(groups), Poisoned: poisoned}}, nil
}

func toOutboxGroups(groups []GroupLag) []OutboxGroupResponse {
	out := make([]OutboxGroupResponse, len(groups))
	for i, g := range groups {
		out[i] = OutboxGroupResponse{Topic: g.Topic, Group: g.Group, Undelivered: g.Undelivered, OldestSeconds: g.OldestSeconds}
	}
	slices.SortFunc(out, func(a, b OutboxGroupResponse) int {
		return cmp.Or(cmp.Compare(b.OldestSeconds, a.OldestSeconds), cmp.Compare(b.Undelivered, a.Undelivered),
			cmp.Compare(a.Topic, b.Topic), cmp.Compare(a.Group, b.Group))
	})
	return out
}
