package platform_test

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"sync"

	"github.com/google/uuid"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/pressly/goose/v3"

	"github.com/roundsedu/rounds/app"
	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/migrations"
	"github.com/roundsedu/rounds/platform/config"
	"github.com/roundsedu/rounds/platform/db"
	"github.com/roundsedu/rounds/platform/jobs"
)

var _ = Describe("Migrations", func() {
	It("migrate an empty database per module, each in its schema with its own version table (River's first), and two runs at once are harmless", func() {
		ctx := context.Background()
		name := fmt.Sprintf("rounds_t_migrate_%d", GinkgoRandomSeed())
		Expect(openDB(harness.AdminURL()).Conn(ctx).Exec(fmt.Sprintf("CREATE DATABASE %q", name)).Error).To(Succeed())
		u, _ := url.Parse(harness.AdminURL())
		u.Path = "/" + name
		DeferCleanup(func() { _ = harness.DropDatabase(ctx, u.String()) })

		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer GinkgoRecover()
				d, err := db.Open(ctx, config.Database{URL: u.String(), MaxOpenConns: 3, MaxIdleConns: 1}, slog.New(slog.DiscardHandler))
				Expect(err).NotTo(HaveOccurred())
				defer d.Close()
				errs[i] = db.Migrate(ctx, d, migrations.FS, slog.New(slog.DiscardHandler))
			}()
		}
		wg.Wait()
		Expect(errs).To(HaveEach(BeNil()))

		conn := openDB(u.String())
		folders, err := db.Folders(migrations.FS)
		Expect(err).NotTo(HaveOccurred())
		Expect(folders[0]).To(Equal("platform"), "the platform migrates first")
		for _, module := range folders {
			var versions int
			Expect(conn.Conn(ctx).Raw(fmt.Sprintf(`SELECT count(*) FROM %q.goose_db_version WHERE version_id > 0`, module)).
				Scan(&versions).Error).To(Succeed(), module)
			files, err := fs.Glob(migrations.FS, module+"/*.sql")
			Expect(err).NotTo(HaveOccurred())
			Expect(versions).To(Equal(len(files)), "each of %s's migrations applied exactly once", module)
		}
		var river int
		Expect(conn.Conn(ctx).Raw(`SELECT count(*) FROM river.river_migration`).Scan(&river).Error).To(Succeed())
		files, err := fs.Glob(db.RiverMigrations(), "migration/main/*.up.sql")
		Expect(err).NotTo(HaveOccurred())
		Expect(files).NotTo(BeEmpty())
		Expect(river).To(Equal(len(files)), "River's own migrations applied, each once, in River's version table")
		var vector bool
		Expect(conn.Conn(ctx).Raw(`SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector')`).Scan(&vector).Error).To(Succeed())
		Expect(vector).To(BeTrue())
	})
})

var _ = Describe("The move to River", func() {
	It("moves the old queue's jobs into River at upgrade, keeping their ids, steps and outcomes, and runs the waiting ones", func() {
		ctx := context.Background()
		name := fmt.Sprintf("rounds_t_river_%d", GinkgoRandomSeed())
		Expect(openDB(harness.AdminURL()).Conn(ctx).Exec(fmt.Sprintf("CREATE DATABASE %q", name)).Error).To(Succeed())
		u, _ := url.Parse(harness.AdminURL())
		u.Path = "/" + name
		DeferCleanup(func() { _ = harness.DropDatabase(ctx, u.String()) })

		// The platform as it was before River: its first three migrations.
		conn := openDB(u.String())
		Expect(conn.Conn(ctx).Exec(`CREATE SCHEMA platform`).Error).To(Succeed())
		sub, err := fs.Sub(migrations.FS, "platform")
		Expect(err).NotTo(HaveOccurred())
		old, err := goose.NewProvider(goose.DialectPostgres, conn.StdPool(), sub,
			goose.WithTableName("platform.goose_db_version"), goose.WithDisableGlobalRegistry(true))
		Expect(err).NotTo(HaveOccurred())
		_, err = old.UpTo(ctx, 3)
		Expect(err).NotTo(HaveOccurred())

		owner := int64(5)
		waiting, running, completed, failed, cancelled := uuid.New(), uuid.New(), uuid.New(), uuid.New(), uuid.New()
		Expect(conn.Conn(ctx).Exec(`INSERT INTO platform.jobs
			(id, kind, owner_id, status, payload, steps, result, error, attempts, max_attempts, worker, lease_until,
			 created_at, started_at, finished_at, trace) VALUES
			(?, 'test.steps', ?, 'pending', '{"steps": 2}', '[]', NULL, NULL, 0, 3, NULL, NULL,
			 now() - interval '5 minutes', NULL, NULL, '{"traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"}'),
			(?, 'test.steps', ?, 'running', '{"steps": 1}', '[{"name": "step", "at": "2026-01-01T00:00:00Z"}]', NULL, NULL, 1, 3,
			 'old-host/1/x', now() + interval '1 minute', now() - interval '4 minutes', now() - interval '4 minutes', NULL, NULL),
			(?, 'extract_quiz', ?, 'completed', '{"section_id": 1}', '[{"name": "saving drafts", "at": "2026-01-01T00:00:00Z"}]',
			 '{"batch_id": 9, "drafts": 4}', NULL, 1, 3, 'old-host/1/x', NULL,
			 now() - interval '3 minutes', now() - interval '3 minutes', now() - interval '2 minutes', NULL),
			(?, 'extract_quiz', ?, 'failed', '{"section_id": 1}', '[]', NULL, 'no questions were recognised', 1, 3,
			 'old-host/1/x', NULL, now() - interval '2 minutes', now() - interval '2 minutes', now() - interval '1 minute', NULL),
			(?, 'extract_quiz', ?, 'cancelled', '{"section_id": 1}', '[]', NULL, NULL, 1, 3, NULL, NULL,
			 now() - interval '1 minute', now() - interval '1 minute', now(), NULL)`,
			waiting, owner, running, owner, completed, owner, failed, owner, cancelled, owner).Error).To(Succeed())

		Expect(db.Migrate(ctx, conn, migrations.FS, slog.New(slog.DiscardHandler))).To(Succeed())

		var gone bool
		Expect(conn.Conn(ctx).Raw(`SELECT to_regclass('platform.jobs') IS NULL`).Scan(&gone).Error).To(Succeed())
		Expect(gone).To(BeTrue(), "the old table is dropped")
		var states []string
		Expect(conn.Conn(ctx).Raw(`SELECT j.state::text FROM river.river_job j JOIN platform.job_progress p ON p.job_id = j.id
			ORDER BY j.id`).Scan(&states).Error).To(Succeed())
		Expect(states).To(Equal([]string{"available", "available", "completed", "discarded", "cancelled"}),
			"in the order they were queued")
		var trace string
		Expect(conn.Conn(ctx).Raw(`SELECT j.metadata->>'traceparent' FROM river.river_job j JOIN platform.job_progress p
			ON p.job_id = j.id WHERE p.public_id = ?`, waiting).Scan(&trace).Error).To(Succeed())
		Expect(trace).To(Equal("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"))

		// The service on the upgraded database: clients find every job by
		// the id they had, and the waiting ones run.
		cfg, err := harness.TestConfig(u.String(), GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		a, err := app.New(ctx, cfg, slog.New(slog.DiscardHandler))
		Expect(err).NotTo(HaveOccurred())
		registerTestJobs(a)
		Expect(a.Start(ctx, app.RoleWorker)).To(Succeed())
		DeferCleanup(a.Stop)
		get := func(id uuid.UUID) *jobs.Record {
			rec, err := a.Queue.Get(ctx, id)
			Expect(err).NotTo(HaveOccurred())
			return rec
		}

		rec := get(completed)
		Expect(rec.Status).To(Equal(jobs.Completed))
		Expect(string(rec.Result)).To(MatchJSON(`{"batch_id": 9, "drafts": 4}`))
		Expect(rec.Steps).To(HaveLen(1))
		Expect(rec.FinishedAt).NotTo(BeNil())
		rec = get(failed)
		Expect(rec.Status).To(Equal(jobs.Failed))
		Expect(rec.Error).To(Equal("no questions were recognised"))
		Expect(get(cancelled).Status).To(Equal(jobs.Cancelled))
		Expect(a.Queue.Cancel(ctx, cancelled)).To(MatchError(jobs.ErrNotCancellable))

		Eventually(func() jobs.Status { return get(waiting).Status }, "20s", "50ms").Should(Equal(jobs.Completed))
		Expect(get(waiting).Steps).To(HaveLen(2))
		Eventually(func() jobs.Status { return get(running).Status }, "20s", "50ms").Should(Equal(jobs.Completed))
		rec = get(running)
		Expect(rec.Steps).To(HaveLen(2), "the step its first worker recorded, and the new run's")
		var result map[string]int
		Expect(rec.Decode(&result)).To(Succeed())
		Expect(result).To(HaveKeyWithValue("attempt", 2), "its run before the upgrade counts")

		list, err := a.Queue.ListByOwner(ctx, owner, []string{"test.steps", "extract_quiz"}, 10)
		Expect(err).NotTo(HaveOccurred())
		var ids []uuid.UUID
		for _, r := range list {
			ids = append(ids, r.ID)
		}
		Expect(ids).To(Equal([]uuid.UUID{cancelled, failed, completed, running, waiting}), "newest first, as before")
	})
})
