package fault_test

import (
	"fmt"
	"net/http"
	"runtime"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/standin"
)

// gatewayTimeout is ai.timeout in this suite.
const gatewayTimeout = 2 * time.Second

var _ = Describe("The model gateway stalled", Serial, func() {
	It("cuts every call off at the timeout with a 502, and leaves no goroutine behind", func() {
		res := admin.Client(h).Post("/api/v1/admin/models", map[string]any{"model_id": "stalling", "task": "flashcard"})
		Expect(res.Status).To(BeNumerically("<", 300), string(res.Body))
		model := int64(res.List()[0].(map[string]any)["id"].(float64))
		settled := goroutines()

		proxy.Set(standin.Stall)
		DeferCleanup(func() { proxy.Set(standin.OK) })
		const callers = 8
		var wg sync.WaitGroup
		took := make([]time.Duration, callers)
		answers := make([]*Response, callers)
		for i := range callers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				t0 := time.Now()
				answers[i] = admin.Client(h).Post(fmt.Sprintf("/api/v1/admin/models/%d/test", model), nil)
				took[i] = time.Since(t0)
			}()
		}
		wg.Wait()
		slowest := time.Duration(0)
		for i, a := range answers {
			Expect(a).To(HaveError(http.StatusBadGateway, "upstream_failed"))
			Expect(a.Body).To(ContainSubstring("in time"))
			slowest = max(slowest, took[i])
		}
		// The timeout holds: bounded by it, not by the stalled gateway (which
		// would hold each call for a minute).
		Expect(slowest).To(BeNumerically("<", gatewayTimeout+15*time.Second))
		proxy.Set(standin.OK)
		Eventually(goroutines, "20s", "100ms").Should(BeNumerically("<=", settled+2))
		AddReportEntry("model gateway stalled", fmt.Sprintf("%d concurrent calls, ai.timeout %s: slowest answered in %s; goroutines %d before, back to <= %d after",
			callers, gatewayTimeout, slowest.Round(time.Millisecond), settled, settled+2))
	})
})

// goroutines counts this process's goroutines once idle keep-alive
// connections are closed (they each hold two that are not a leak).
func goroutines() int {
	h.HTTP.CloseIdleConnections()
	http.DefaultClient.CloseIdleConnections()
	return runtime.NumGoroutine()
}
