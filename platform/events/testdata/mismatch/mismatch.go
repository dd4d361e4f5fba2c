// Package mismatch publishes and subscribes with payloads of the wrong type:
// it must not compile (events_test.go builds it).
package mismatch

import (
	"context"

	"github.com/roundsedu/rounds/platform/events"
)

type ping struct{ ID string }

type pong struct{ ID string }

var pinged = events.NewTopic[ping]("test.ping.v1")

func wrongPayload(ctx context.Context, p events.Publisher) error {
	return events.Publish(ctx, p, pinged, pong{ID: "x"}) // want: cannot use pong
}

func wrongHandler(b *events.Bus) {
	events.Subscribe(b, "test.wrong", pinged, func(context.Context, pong, events.Meta) error { return nil }) // want: pong
}

func untypedTopic(ctx context.Context, p events.Publisher) error {
	return events.Publish(ctx, p, "test.ping.v1", ping{ID: "x"}) // want: a string is no topic
}
