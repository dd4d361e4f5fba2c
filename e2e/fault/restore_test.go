package fault_test

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

// rowCounts is one line naming every table of the database with its row
// count, so two databases compare as two strings.
const rowCounts = `SELECT string_agg(format('%s.%s=%s', table_schema, table_name,
  (xpath('/row/c/text()', query_to_xml(format('SELECT count(*) AS c FROM %I.%I', table_schema, table_name), false, true, '')))[1]::text),
  ',' ORDER BY table_schema, table_name)
FROM information_schema.tables
WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`

var _ = Describe("The restore drill of docs/operations.md", Serial, func() {
	It("brings back every row from a pg_dump, and the restored database serves as it did", func() {
		pg := startCluster()
		DeferCleanup(pg.stop)
		src := pg.serve("rounds")
		quizID, questions := publishedQuizOn(src, src.NewUser(auth.RoleModerator), 3)
		learner := src.NewUser(auth.RoleUser)
		attempt := id(learner.Client(src).Post("/api/v1/attempts/start?quiz_id="+itoa(quizID), nil))
		answers := map[string]string{}
		for _, q := range questions {
			answers[itoa(q)] = "Bravo"
		}
		Expect(learner.Client(src).Post("/api/v1/attempts/"+itoa(attempt)+"/submit",
			map[string]any{"answers": answers})).To(HaveStatus(200))
		Expect(src.Stop()).To(Succeed()) // nothing writes while the drill runs

		psql := func(db, sql string) string {
			out, err := pg.SQL(db, sql)
			ExpectWithOffset(1, err).NotTo(HaveOccurred())
			return strings.TrimSpace(out)
		}
		before := psql("rounds", rowCounts)
		Expect(before).To(ContainSubstring("attempts.attempts=1"))

		dump := filepath.Join(pg.Dir, "rounds.dump")
		t0 := time.Now()
		pg.run("pg_dump", "-h", "127.0.0.1", "-p", strconv.Itoa(pg.Port), "-U", "postgres", "-Fc", "-f", dump, "rounds")
		dumped := time.Since(t0)
		psql("postgres", "CREATE DATABASE rounds_restored OWNER rounds")
		t0 = time.Now()
		pg.run("pg_restore", "-h", "127.0.0.1", "-p", strconv.Itoa(pg.Port), "-U", "postgres", "-d", "rounds_restored",
			"--no-owner", "--role=rounds", "--exit-on-error", dump)
		restored := time.Since(t0)
		Expect(psql("rounds_restored", rowCounts)).To(Equal(before))

		back := pg.serve("rounds_restored") // migrating it is a no-op: the version tables came back with the data
		DeferCleanup(back.Stop)
		res := back.NewUser(auth.RoleUser).Client(back).Get("/api/v1/quizzes/" + itoa(quizID))
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()["questions"]).To(HaveLen(len(questions)))
		var score float64
		Expect(back.App.DB.Conn(ctxb).Raw("SELECT percentage FROM attempts.attempts WHERE id = ?", attempt).Scan(&score).Error).To(Succeed())
		Expect(score).To(BeNumerically("==", 100))
		AddReportEntry("restore drill", fmt.Sprintf("pg_dump -Fc %s, pg_restore %s", dumped.Round(time.Millisecond), restored.Round(time.Millisecond)))
	})
})
