package platform_test

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/google/uuid"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/events"
)

// outboxBody is GET /admin/outbox's answer.
type outboxBody struct {
	ReadAt time.Time `json:"read_at"`
	Groups []struct {
		Topic         string  `json:"topic"`
		Group         string  `json:"group"`
		Undelivered   int64   `json:"undelivered"`
		OldestSeconds float64 `json:"oldest_seconds"`
	} `json:"groups"`
	Poisoned int64 `json:"poisoned"`
}

var _ = Describe("The admins' outbox lag", func() {
	held := func(b outboxBody) (int64, float64) {
		for _, g := range b.Groups {
			if g.Topic == heldTopic.Name() && g.Group == "test.held" {
				return g.Undelivered, g.OldestSeconds
			}
		}
		Fail("test.held is not in the answer")
		return 0, 0
	}
	// stored reads what the outbox table holds past test.held's acknowledged
	// position: how many, and the oldest one's age now.
	stored := func() (n int64, age float64) {
		table := fmt.Sprintf(`events.%q`, heldTopic.Name())
		offsets := fmt.Sprintf(`events.%q`, heldTopic.Name()+":offsets")
		var row struct {
			N   int64
			Age float64
		}
		Expect(h.App.DB.Conn(context.Background()).Raw(fmt.Sprintf(`SELECT count(*) AS n,
			coalesce(extract(epoch FROM localtimestamp - min(created_at)), 0) AS age FROM %s m
			WHERE (m.transaction_id, m."offset") > (
				coalesce((SELECT last_processed_transaction_id FROM %s WHERE consumer_group = 'test.held'), '0'::xid8),
				coalesce((SELECT offset_acked FROM %s WHERE consumer_group = 'test.held'), 0))`, table, offsets, offsets)).
			Scan(&row).Error).To(Succeed())
		return row.N, row.Age
	}
	poisoned := func() (n int64) {
		Expect(h.App.DB.Conn(context.Background()).
			Raw(fmt.Sprintf(`SELECT count(*) FROM events.%q`, events.PoisonTopic)).Scan(&n).Error).To(Succeed())
		return n
	}

	It("shows an admin each group's waiting events and the oldest one's age, as stored, back to 0 once handled; others are refused", func() {
		opened := false
		open := func() {
			if !opened {
				opened = true
				close(heldGate)
			}
		}
		DeferCleanup(open) // never leave the handler holding the suite's shutdown
		admin := h.NewUser(auth.RoleAdmin).Client(h)
		read := func() (b outboxBody) {
			res := admin.Get("/api/v1/admin/outbox")
			Expect(res).To(harness.HaveStatus(http.StatusOK))
			res.JSON(&b)
			return b
		}

		// Nobody else reads it.
		Expect(h.Anon().Get("/api/v1/admin/outbox")).To(harness.HaveError(http.StatusUnauthorized, "unauthenticated"))
		for _, role := range []auth.Role{auth.RoleUser, auth.RoleModerator} {
			Expect(h.NewUser(role).Client(h).Get("/api/v1/admin/outbox")).To(harness.HaveError(http.StatusForbidden, "forbidden"), role)
		}

		idle := read()
		Expect(held(idle)).To(BeZero(), "an idle group has no lag, nor an age (Gomega wants the second value zero too)")
		Expect(idle.Poisoned).To(Equal(poisoned()))

		ids := []string{uuid.NewString(), uuid.NewString(), uuid.NewString()}
		for _, id := range ids {
			Expect(h.App.DB.Tx(context.Background(), func(ctx context.Context) error {
				return events.Publish(ctx, h.App.Bus, heldTopic, ping{ID: id})
			})).To(Succeed())
		}
		// The handler holds the first event: all three wait, as the table says.
		n, before := stored()
		Expect(n).To(Equal(int64(3)))
		lagging := read()
		_, after := stored()
		waiting, oldest := held(lagging)
		Expect(waiting).To(Equal(int64(3)))
		Expect(oldest).To(And(BeNumerically(">", 0), BeNumerically(">=", before), BeNumerically("<=", after)),
			"the oldest waiting event's age, read between two reads of the table")
		Expect(lagging.ReadAt).To(BeTemporally("~", time.Now(), time.Minute))
		for i := 1; i < len(lagging.Groups); i++ {
			Expect(lagging.Groups[i-1].OldestSeconds).To(BeNumerically(">=", lagging.Groups[i].OldestSeconds), "the oldest lag first")
		}
		Expect(deliveries("test.held", ids[0])).To(BeZero())

		open()
		Eventually(func() int64 { w, _ := held(read()); return w }, "10s", "50ms").Should(BeZero())
		drained := read()
		Expect(held(drained)).To(BeZero())
		Expect(stored()).To(BeZero(), "nothing past the group's position in the table")
		for _, id := range ids {
			Expect(deliveries("test.held", id)).To(Equal(1), "handled once each")
		}
		Expect(drained.Poisoned).To(Equal(poisoned()))
	})
})
