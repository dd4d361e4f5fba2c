package platform_test

import (
	"context"
	"io"
	"net/http"

	"github.com/google/uuid"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/platform/events"
)

// scrape reads the metrics listener's /metrics text.
func scrape() string {
	res, err := http.Get("http://" + h.App.MetricsAddr() + "/metrics")
	Expect(err).NotTo(HaveOccurred())
	body, err := io.ReadAll(res.Body)
	Expect(res.Body.Close()).To(Succeed())
	Expect(err).NotTo(HaveOccurred())
	Expect(res.StatusCode).To(Equal(http.StatusOK), body)
	return string(body)
}

var _ = Describe("Outbox lag", func() {
	gated := map[string]string{"topic": lagTopic.Name(), "group": "test.gated"}
	undelivered := func() float64 { return sampleSum(scrape(), "rounds_outbox_undelivered", gated) }
	oldest := func() float64 { return sampleSum(scrape(), "rounds_outbox_oldest_undelivered_seconds", gated) }

	It("reports the messages a group has not handled and the oldest one's age, back to 0 once handled", func() {
		opened := false
		open := func() {
			if !opened {
				opened = true
				close(lagGate)
			}
		}
		DeferCleanup(open) // never leave the handler holding the suite's shutdown
		Expect(undelivered()).To(BeZero(), "an idle group has no lag")
		Expect(oldest()).To(BeZero())

		ids := []string{uuid.NewString(), uuid.NewString()}
		for _, id := range ids {
			Expect(h.App.DB.Tx(context.Background(), func(ctx context.Context) error {
				return events.Publish(ctx, h.App.Bus, lagTopic, ping{ID: id})
			})).To(Succeed())
		}
		// The handler holds the first message: both are still undelivered.
		Expect(undelivered()).To(Equal(2.0))
		Expect(oldest()).To(BeNumerically(">", 0))
		Expect(deliveries("test.gated", ids[0])).To(BeZero())

		open()
		Eventually(undelivered, "10s", "50ms").Should(BeZero())
		Expect(oldest()).To(BeZero())
		for _, id := range ids {
			Expect(deliveries("test.gated", id)).To(Equal(1), "handled once each")
		}
		// Other groups on other topics keep their own figures.
		Expect(scrape()).To(MatchRegexp(`rounds_outbox_undelivered\{group="test.alpha",topic="test.ping.v1"\} \d+`))
	})
})
