package jobs

import (
	"fmt"

	"riverqueue.com/riverui"
)

// UI is River's web UI (riverqueue.com/riverui) over the queue, served
// under prefix: operators see every job with its arguments, attempts and
// errors, the queue's counts, and may cancel, retry or delete jobs (a job
// cancelled there reads as cancelled to its owner too). It runs on the
// queue's client, on the gorm pool; Start it before serving (it refreshes
// its state counts in the background).
func (q *Queue) UI(prefix string) (*riverui.Handler, error) {
	h, err := riverui.NewHandler(&riverui.HandlerOpts{Endpoints: riverui.NewEndpoints(q.client, nil),
		Logger: q.log, Prefix: prefix})
	if err != nil {
		return nil, fmt.Errorf("jobs: the operators' UI: %w", err)
	}
	return h, nil
}
