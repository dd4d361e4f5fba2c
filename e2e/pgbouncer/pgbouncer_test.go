// Package pgbouncer_test runs the service's API through PgBouncer in
// transaction pooling mode, where consecutive transactions of one client
// may run on different server connections: no named prepared statement, no
// session state may outlive a transaction. The setting that makes pgx
// fit is default_query_exec_mode=cache_describe in database.url (docs/operations.md).
package pgbouncer_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/app"
	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/config"
)

func TestPgBouncer(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "PgBouncer")
}

// bouncer is a pgbouncer process in front of the test cluster.
type bouncer struct {
	port int
	cmd  *exec.Cmd
	dir  string
}

// startBouncer runs pgbouncer (installed by go tool task db:start, from
// apt) with transaction pooling against the server at admin.
func startBouncer(admin *url.URL) *bouncer {
	bin, err := exec.LookPath("pgbouncer")
	Expect(err).NotTo(HaveOccurred(), "pgbouncer is not installed: go tool task db:start installs it (apt-get install pgbouncer)")
	dir, err := os.MkdirTemp("", "rounds-pgbouncer-")
	Expect(err).NotTo(HaveOccurred())
	Expect(os.Chmod(dir, 0o755)).To(Succeed())
	b := &bouncer{port: freePort(), dir: dir}
	ini := fmt.Sprintf(`[databases]
* = host=%s port=%s

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = %d
unix_socket_dir =
auth_type = trust
auth_file = %s/users.txt
pool_mode = transaction
max_client_conn = 200
default_pool_size = 8
server_reset_query =
ignore_startup_parameters = extra_float_digits
`, admin.Hostname(), admin.Port(), b.port, dir)
	Expect(os.WriteFile(filepath.Join(dir, "pgbouncer.ini"), []byte(ini), 0o644)).To(Succeed())
	Expect(os.WriteFile(filepath.Join(dir, "users.txt"), []byte(`"rounds" ""`+"\n"), 0o644)).To(Succeed())
	args := []string{filepath.Join(dir, "pgbouncer.ini")}
	if os.Geteuid() == 0 {
		args = append([]string{"-u", "postgres"}, args...) // pgbouncer refuses to run as root
	}
	b.cmd = exec.Command(bin, args...)
	b.cmd.Dir = "/"
	b.cmd.Stdout, b.cmd.Stderr = GinkgoWriter, GinkgoWriter
	Expect(b.cmd.Start()).To(Succeed())
	Eventually(func() error {
		c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", b.port), time.Second)
		if err == nil {
			c.Close()
		}
		return err
	}, "10s", "50ms").Should(Succeed())
	return b
}

func (b *bouncer) stop() {
	_ = b.cmd.Process.Kill()
	_ = b.cmd.Wait()
	_ = os.RemoveAll(b.dir)
}

// through rewrites a database URL to go through the bouncer, with the pgx
// mode that needs no prepared statement to survive a transaction.
func (b *bouncer) through(raw string) string {
	u, err := url.Parse(raw)
	Expect(err).NotTo(HaveOccurred())
	u.Host = fmt.Sprintf("127.0.0.1:%d", b.port)
	q := u.Query()
	q.Set("default_query_exec_mode", "cache_describe")
	u.RawQuery = q.Encode()
	return u.String()
}

func freePort() int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	Expect(err).NotTo(HaveOccurred())
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

func id(res *Response) int64 {
	ExpectWithOffset(1, res.Status).To(BeNumerically("<", 300), string(res.Body))
	return int64(res.Map()["id"].(float64))
}

var _ = Describe("Behind PgBouncer in transaction pooling mode", func() {
	It("serves autosaves and submits from many learners at once, every acknowledged save stored, and keeps no quiz row it cannot hear change", func() {
		admin, err := url.Parse(AdminURL())
		Expect(err).NotTo(HaveOccurred())
		b := startBouncer(admin)
		DeferCleanup(b.stop)
		// The API role: its transactions are all it needs of a connection.
		// The scheduler's leader lock is a session advisory lock, and
		// migrations hold one too: those keep a direct connection.
		h, err := Start(WithRole(app.RoleServe), WithConfig(func(c *config.Config) {
			c.Database.URL = b.through(c.Database.URL)
			c.Database.MaxOpenConns = 32 // more clients than the bouncer's 8 server connections
		}))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(h.Stop)
		Expect(h.Anon().Get("/api/health")).To(HaveStatus(http.StatusOK))

		mod := h.NewUser(auth.RoleModerator)
		var questions []int64
		for i := range 3 {
			questions = append(questions, id(mod.Client(h).Post("/api/v1/questions/create", map[string]any{
				"question_text": fmt.Sprintf("Pooled question %d: which is the second letter?", i), "question_type": "mcq",
				"options": []string{"Alpha", "Bravo", "Charlie"}, "correct_answer": "Bravo",
				"explanation": "Bravo is the second letter."})))
		}
		quiz := id(mod.Client(h).Post("/api/v1/questions/from-bank",
			map[string]any{"title": "Pooled quiz", "question_ids": questions, "time_limit_minutes": 60}))
		Expect(mod.Client(h).Patch(fmt.Sprintf("/api/v1/quizzes/%d/publish?published=true", quiz), nil)).
			To(HaveStatus(http.StatusOK))

		// A LISTEN behind transaction pooling hears nothing, its own probe
		// included, so no quiz row is kept in memory (docs/decisions/bank.md):
		// a write from elsewhere shows on the very next read.
		reader := h.NewUser(auth.RoleUser)
		for i := range 5 {
			title := fmt.Sprintf("Pooled quiz, renamed elsewhere %d", i)
			Expect(h.App.DB.Conn(context.Background()).Exec(`UPDATE bank.quizzes SET title = ? WHERE id = ?`, title, quiz).
				Error).To(Succeed())
			Expect(reader.Client(h).Get(fmt.Sprintf("/api/v1/quizzes/%d", quiz)).Map()["title"]).To(Equal(title))
		}

		const learners, saves = 16, 15
		var wg sync.WaitGroup
		start := time.Now()
		for l := range learners {
			wg.Add(1)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				u := h.NewUser(auth.RoleUser)
				attempt := id(u.Client(h).Post(fmt.Sprintf("/api/v1/attempts/start?quiz_id=%d", quiz), nil))
				for rev := int64(1); rev <= saves; rev++ {
					Expect(u.Client(h).With("X-Quiz-Session", "pooled").Post("/api/v1/attempts/progress", map[string]any{
						"quiz_id": quiz, "attempt_id": attempt, "mode": "timed", "revision": rev,
						"answers":     map[string]string{strconv.FormatInt(questions[rev%3], 10): "Bravo"},
						"current_idx": rev % 3})).To(HaveStatus(http.StatusOK), "learner %d save %d", l, rev)
				}
				var stored int64
				Expect(h.App.DB.Conn(context.Background()).
					Raw(`SELECT revision FROM attempts.saved_progress WHERE attempt_id = ?`, attempt).Scan(&stored).Error).To(Succeed())
				Expect(stored).To(Equal(int64(saves)))
				answers := map[string]string{}
				for _, q := range questions {
					answers[strconv.FormatInt(q, 10)] = "Bravo"
				}
				res := u.Client(h).Post(fmt.Sprintf("/api/v1/attempts/%d/submit", attempt), map[string]any{"answers": answers})
				Expect(res).To(HaveStatus(http.StatusOK))
				Expect(res.Map()["completed_at"]).NotTo(BeNil())
			}()
		}
		wg.Wait()
		elapsed := time.Since(start)
		var completed int
		Expect(h.App.DB.Conn(context.Background()).Raw(`SELECT count(*) FROM attempts.attempts WHERE quiz_id = ? AND completed_at IS NOT NULL`, quiz).
			Scan(&completed).Error).To(Succeed())
		Expect(completed).To(Equal(learners))
		AddReportEntry("through pgbouncer (transaction pooling, 8 server connections)",
			fmt.Sprintf("%d learners × %d autosaves + submit: %d requests in %s", learners, saves, learners*(saves+2), elapsed.Round(time.Millisecond)))
	})
})
