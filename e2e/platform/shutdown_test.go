package platform_test

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"github.com/danielgtaylor/huma/v2"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/app"
	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
	"github.com/roundsedu/rounds/platform/jobs"
)

// slowPayload is a test.slow job: it holds until the test releases it.
type slowPayload struct{}

func (slowPayload) Kind() string { return "test.slow" }

var _ = Describe("Graceful shutdown", func() {
	It("finishes in-flight requests and jobs, stops accepting, and releases scheduler leadership", func() {
		// The request and the job each hold until the test releases them,
		// and ignore cancellation on purpose: shutdown must wait for both.
		requestServing, jobRunning, release := make(chan struct{}), make(chan struct{}), make(chan struct{})
		s, err := harness.Start(harness.BeforeStart(func(a *app.App) {
			httpapi.Register(a.HTTP.Router(), auth.Public, huma.Operation{Method: http.MethodGet, Path: "/test/slow", Tags: []string{"public"}},
				func(context.Context, *struct{}) (*echoOutput, error) {
					close(requestServing)
					<-release
					out := &echoOutput{}
					out.Body.Name = "finished"
					return out, nil
				})
			jobs.Register(a.Runner, jobs.Kind[slowPayload]{Timeout: time.Minute, Handle: func(context.Context, *jobs.Run[slowPayload]) (any, error) {
				close(jobRunning)
				<-release
				return map[string]string{"done": "yes"}, nil
			}})
		}))
		Expect(err).NotTo(HaveOccurred())
		dbURL := s.DBURL
		// The test stops the app itself; the harness still drops the
		// database, stops the provider and removes the files.
		DeferCleanup(func() { _ = s.Stop() })
		ctx := context.Background()

		Eventually(func() bool { return s.App.Scheduler.Leading(ctx) }, "5s").Should(BeTrue())
		id, err := s.App.Queue.Enqueue(ctx, nil, slowPayload{})
		Expect(err).NotTo(HaveOccurred())
		Eventually(jobRunning, "5s").Should(BeClosed())

		inFlight := make(chan *harness.Response, 1)
		go func() { defer GinkgoRecover(); inFlight <- s.Anon().Get("/api/v1/test/slow") }()
		Eventually(requestServing, "5s").Should(BeClosed())

		stopped := make(chan error, 1)
		go func() { stopped <- s.App.Stop() }()
		Eventually(func() error {
			_, err := http.Get(s.BaseURL + "/api/health")
			return err
		}, "5s", "10ms").Should(HaveOccurred(), "a stopping server accepts no new connections")
		Expect(stopped).NotTo(Receive(), "Stop waits for the request and the job it let finish")
		close(release)

		res := <-inFlight
		Expect(res).To(harness.HaveStatus(200))
		Expect(res.Map()).To(HaveKeyWithValue("name", "finished"))
		Eventually(stopped, "10s").Should(Receive(BeNil()))

		conn := openDB(dbURL) // the app's own pool is closed now
		var status string
		Expect(conn.Conn(ctx).Raw(`SELECT j.state FROM river.river_job j JOIN platform.job_progress p ON p.job_id = j.id
			WHERE p.public_id = ?`, id).Scan(&status).Error).To(Succeed())
		Expect(status).To(Equal("completed"), "the in-flight job finished before the worker stopped")

		u, _ := url.Parse(dbURL)
		var held int
		Expect(conn.Conn(ctx).Raw(`SELECT count(*) FROM pg_locks l JOIN pg_database d ON d.oid = l.database
			WHERE l.locktype = 'advisory' AND d.datname = ? AND l.pid <> pg_backend_pid()`, u.Path[1:]).Scan(&held).Error).To(Succeed())
		Expect(held).To(BeZero(), "the scheduler leader lock is released")
	})
})
