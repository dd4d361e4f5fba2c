package platform_test

import (
	"context"
	"database/sql"
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

var _ = Describe("Graceful shutdown", func() {
	It("finishes in-flight requests and jobs, stops accepting, and releases scheduler leadership", func() {
		const work = 800 * time.Millisecond
		s, err := harness.Start(harness.BeforeStart(func(a *app.App) {
			httpapi.Register(a.HTTP.Router(), auth.Public, huma.Operation{Method: http.MethodGet, Path: "/test/slow", Tags: []string{"public"}},
				func(context.Context, *struct{}) (*echoOutput, error) {
					time.Sleep(work)
					out := &echoOutput{}
					out.Body.Name = "finished"
					return out, nil
				})
			a.Runner.Handle("test.slow", func(context.Context, *jobs.Run) (any, error) {
				time.Sleep(work) // ignores cancellation on purpose: shutdown must wait for it
				return map[string]string{"done": "yes"}, nil
			})
		}))
		Expect(err).NotTo(HaveOccurred())
		dbURL := s.DBURL
		DeferCleanup(func() { _ = harness.DropDatabase(context.Background(), dbURL) })
		ctx := context.Background()

		Eventually(func() bool { return s.App.Scheduler.Leading(ctx) }, "5s").Should(BeTrue())
		id, err := s.App.Queue.Enqueue(ctx, "test.slow", nil, nil)
		Expect(err).NotTo(HaveOccurred())
		Eventually(func() jobs.Status {
			rec, err := s.App.Queue.Get(ctx, id)
			Expect(err).NotTo(HaveOccurred())
			return rec.Status
		}, "5s", "20ms").Should(Equal(jobs.Running))

		inFlight := make(chan *harness.Response, 1)
		go func() { defer GinkgoRecover(); inFlight <- s.Anon().Get("/api/v1/test/slow") }()
		time.Sleep(150 * time.Millisecond) // the request is being served

		stopped := make(chan error, 1)
		go func() { stopped <- s.App.Stop() }()

		res := <-inFlight
		Expect(res).To(harness.HaveStatus(200))
		Expect(res.Map()).To(HaveKeyWithValue("name", "finished"))
		Eventually(stopped, "10s").Should(Receive(BeNil()))

		_, err = http.Get(s.BaseURL + "/api/health")
		Expect(err).To(HaveOccurred(), "a stopped server must not accept connections")

		conn, err := sql.Open("pgx", dbURL)
		Expect(err).NotTo(HaveOccurred())
		defer conn.Close()
		var status string
		Expect(conn.QueryRow(`SELECT status FROM platform.jobs WHERE id = $1`, id).Scan(&status)).To(Succeed())
		Expect(status).To(Equal("completed"), "the in-flight job finished before the worker stopped")

		u, _ := url.Parse(dbURL)
		var held int
		Expect(conn.QueryRow(`SELECT count(*) FROM pg_locks l JOIN pg_database d ON d.oid = l.database
			WHERE l.locktype = 'advisory' AND d.datname = $1 AND l.pid <> pg_backend_pid()`, u.Path[1:]).Scan(&held)).To(Succeed())
		Expect(held).To(BeZero(), "the scheduler leader lock is released")
	})
})
