package platform_test

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/migrations"
	"github.com/roundsedu/rounds/platform/config"
	"github.com/roundsedu/rounds/platform/db"
)

var _ = Describe("Migrations", func() {
	It("migrate an empty database per module, each in its schema with its own version table, and two runs at once are harmless", func() {
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
		var vector bool
		Expect(conn.Conn(ctx).Raw(`SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector')`).Scan(&vector).Error).To(Succeed())
		Expect(vector).To(BeTrue())
	})
})
