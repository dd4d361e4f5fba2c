// Package replica_test runs the service with a read replica (database.
// read_url): a primary and a hot standby streaming from it, both clusters
// of the test's own, the standby's replay paused on purpose so that it
// lags. Listings, search and statistics are read from it, and a caller's
// own writes are read back from the primary.
package replica_test

import (
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/config"
)

func TestReplica(t *testing.T) { RunSuite(t, "Replica") }

var (
	primary, standby *Cluster
	h                *Harness
)

// onTheClusters points a deployment at the primary's database with the
// standby as its read replica, lagging at most maxLag before it is left.
func onTheClusters(maxLag time.Duration, migrate bool) Option {
	return WithConfig(func(c *config.Config) {
		c.Database.URL = primary.URL("rounds")
		c.Database.MigrateOnStart = migrate
		c.Database.ReadURL = standby.URL("rounds")
		c.Database.ReadMaxLag = maxLag
		c.Database.ReadCheck = 50 * time.Millisecond
	})
}

// serveWith starts a further deployment on the clusters.
func serveWith(maxLag time.Duration, migrate bool) *Harness {
	started, err := Start(onTheClusters(maxLag, migrate))
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	return started
}

// The suite's own clusters, a primary and a standby fed by streaming
// replication, start before its app and stop after it.
var _ = Suite(&h, nil, BeforeApps(func() {
	var err error
	primary, err = StartCluster()
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(func() { Expect(primary.Stop()).To(Succeed()) })
	standby, err = primary.Standby()
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(func() { Expect(standby.Stop()).To(Succeed()) })
}), onTheClusters(10*time.Minute, true))

// replay pauses or resumes the standby's replay of the primary's WAL and
// waits until it has done so.
func replay(on bool) {
	fn, state := "pg_wal_replay_pause()", "paused"
	if on {
		fn, state = "pg_wal_replay_resume()", "not paused"
	}
	_, err := standby.SQL("postgres", "SELECT "+fn)
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	EventuallyWithOffset(1, func() string {
		out, err := standby.SQL("postgres", "SELECT pg_get_wal_replay_pause_state()")
		Expect(err).NotTo(HaveOccurred())
		return strings.TrimSpace(out)
	}, "20s", "20ms").Should(Equal(state))
}

// caughtUp waits until the standby has replayed everything the primary
// has written so far.
func caughtUp() {
	at, err := primary.SQL("postgres", "SELECT pg_current_wal_flush_lsn()")
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	EventuallyWithOffset(1, func() bool {
		out, err := standby.SQL("postgres", fmt.Sprintf("SELECT pg_last_wal_replay_lsn() >= '%s'::pg_lsn", strings.TrimSpace(at)))
		Expect(err).NotTo(HaveOccurred())
		return strings.TrimSpace(out) == "t"
	}, "30s", "20ms").Should(BeTrue())
}

func createQuestion(c *Client, text string) int64 {
	res := c.Post("/api/v1/questions/create", map[string]any{"question_text": text, "question_type": "mcq",
		"options": []string{"Alpha", "Bravo", "Charlie"}, "correct_answer": "Bravo", "explanation": "The second letter."})
	ExpectWithOffset(1, res).To(HaveStatus(http.StatusCreated))
	return int64(res.Map()["id"].(float64))
}

// bankTotal is how many questions the caller's bank listing finds for text.
func bankTotal(c *Client, text string) float64 {
	res := c.Get("/api/v1/questions/bank?search_mode=keyword&q=" + text)
	ExpectWithOffset(1, res).To(HaveStatus(http.StatusOK))
	return res.Map()["total"].(float64)
}

// searchHits is how many questions the caller's search finds for text
// whose title holds it (the vector ranker may add looser neighbours).
func searchHits(c *Client, text string) int {
	var body struct {
		Results []struct {
			Hits []struct{ Title string }
		}
	}
	res := c.Get("/api/v1/search?kinds=question&q=" + text)
	ExpectWithOffset(1, res).To(HaveStatus(http.StatusOK))
	res.JSON(&body)
	n := 0
	for _, section := range body.Results {
		for _, hit := range section.Hits {
			if strings.Contains(strings.ToLower(hit.Title), text) {
				n++
			}
		}
	}
	return n
}

// dashboardAttempts is the attempt count on the caller's dashboard.
func dashboardAttempts(c *Client) float64 {
	res := c.Get("/api/v1/attempts/stats/dashboard")
	ExpectWithOffset(1, res).To(HaveStatus(http.StatusOK))
	return res.Map()["attempts"].(float64)
}

// metric reads one unlabelled value from a deployment's /metrics.
func metric(on *Harness, name string) float64 {
	res, err := http.Get("http://" + on.App.MetricsAddr() + "/metrics")
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	m := regexp.MustCompile(`(?m)^` + name + ` (\S+)$`).FindSubmatch(body)
	ExpectWithOffset(1, m).NotTo(BeNil(), "%s in /metrics", name)
	v, err := strconv.ParseFloat(string(m[1]), 64)
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	return v
}

var _ = Describe("A read replica that lags", Ordered, func() {
	var writer, reader, other *Client // moderators; each keeps its cookies, as a browser does
	var learner *User

	BeforeAll(func() {
		writer = h.NewUser(auth.RoleModerator).Client(h).WithCookies()
		reader = h.NewUser(auth.RoleModerator).Client(h).WithCookies()
		other = h.NewUser(auth.RoleModerator).Client(h).WithCookies()
		learner = h.NewUser(auth.RoleUser)
		createQuestion(other, "Warmup question about aardvarks")
		caughtUp()
		Eventually(func() float64 { return bankTotal(reader, "aardvarks") }, "20s", "20ms").Should(Equal(1.0))
		replay(false)
		DeferCleanup(replay, true)
	})

	It("answers listings and search from the replica, and a moderator's own new question from the primary", func() {
		res := writer.Post("/api/v1/questions/create", map[string]any{"question_text": "Which letter follows Alpha for zebracorns?",
			"question_type": "mcq", "options": []string{"Alpha", "Bravo", "Charlie"}, "correct_answer": "Bravo"})
		Expect(res).To(HaveStatus(http.StatusCreated))
		cookie := res.Header.Get("Set-Cookie")
		Expect(cookie).To(HavePrefix(h.Config.Service.Name + "_written="))
		Expect(cookie).To(And(ContainSubstring("HttpOnly"), ContainSubstring("SameSite=Lax"), ContainSubstring("Path=/")))

		// A read, and a write refused, leave the caller's position alone.
		Expect(reader.Get("/api/v1/questions/bank?search_mode=keyword&q=zebracorns").Header.Values("Set-Cookie")).To(BeEmpty())
		refused := reader.Post("/api/v1/questions/create", map[string]any{"question_text": "", "question_type": "mcq"})
		Expect(refused.Status).To(BeNumerically(">=", 400))
		Expect(refused.Header.Values("Set-Cookie")).To(BeEmpty())

		// The writer reads its own question back; the replica has not replayed it.
		Expect(bankTotal(writer, "zebracorns")).To(Equal(1.0))
		Expect(bankTotal(reader, "zebracorns")).To(BeZero())
		// The index row is written by an event handler on the primary after
		// the create; the writer's search reads the primary until the
		// replica shows its write, so it finds the question once indexed.
		Eventually(func() int { return searchHits(writer, "zebracorns") }, "20s", "50ms").Should(Equal(1))
		Expect(searchHits(reader, "zebracorns")).To(BeZero())
		Expect(metric(h, `rounds_db_replica_reads_total{target="replica"}`)).To(BeNumerically(">", 0))
	})

	It("answers a learner's statistics from the replica, and their own new attempt from the primary", func() {
		quiz := publishedQuiz(writer, 2)
		device := learner.Client(h).WithCookies()
		Expect(dashboardAttempts(device)).To(BeZero())
		Expect(device.Post(fmt.Sprintf("/api/v1/attempts/start?quiz_id=%d", quiz), nil)).To(HaveStatus(http.StatusOK))
		Expect(dashboardAttempts(device)).To(Equal(1.0))
		// Another device of the same learner has no cookie: it is served the
		// replica, which has not replayed the attempt yet.
		Expect(dashboardAttempts(learner.Client(h).WithCookies())).To(BeZero())
	})

	It("serves everyone the writes once the replica has replayed them, and the writer from the replica again", func() {
		replay(true)
		caughtUp()
		Eventually(func() float64 { return bankTotal(reader, "zebracorns") }, "20s", "20ms").Should(Equal(1.0))
		Expect(searchHits(reader, "zebracorns")).To(Equal(1))

		// The replica stops again and someone else writes: the writer, whose
		// own writes the replica now holds, is served the replica again.
		replay(false)
		createQuestion(other, "A question about okapis")
		Expect(bankTotal(other, "okapis")).To(Equal(1.0))
		Expect(bankTotal(writer, "okapis")).To(BeZero())
		Expect(bankTotal(reader, "okapis")).To(BeZero())
	})

	It("leaves a replica that lags more than read_max_lag: every read goes to the primary", func() {
		strict := serveWith(time.Second, false)
		DeferCleanup(strict.Stop)
		reader := strict.NewUser(auth.RoleModerator).Client(strict)
		// The replica is still paused, before the okapi question: once this
		// deployment sees it more than a second behind, it reads the primary.
		Eventually(func() float64 { return bankTotal(reader, "okapis") }, "20s", "50ms").Should(Equal(1.0))
		Expect(metric(strict, "rounds_db_replica_lag_seconds")).To(BeNumerically(">", 1))
		// The lenient deployment still reads the lagging replica.
		Expect(bankTotal(h.NewUser(auth.RoleModerator).Client(h), "okapis")).To(BeZero())
	})
})

// publishedQuiz files n questions and publishes them as one quiz.
func publishedQuiz(mod *Client, n int) int64 {
	var ids []int64
	for i := range n {
		ids = append(ids, createQuestion(mod, fmt.Sprintf("Replica quiz question %d", i)))
	}
	res := mod.Post("/api/v1/questions/from-bank", map[string]any{"title": "Replica quiz", "question_ids": ids})
	ExpectWithOffset(1, res).To(HaveStatus(http.StatusCreated))
	quiz := int64(res.Map()["id"].(float64))
	ExpectWithOffset(1, mod.Patch(fmt.Sprintf("/api/v1/quizzes/%d/publish?published=true", quiz), nil)).To(HaveStatus(http.StatusOK))
	return quiz
}
