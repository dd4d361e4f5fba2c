package attempts_test

// BenchmarkAutosave measures POST /attempts/progress through the whole app
// on loopback (HTTP, auth, body decode, the one-statement upsert), 50
// learners each saving their own attempt back to back, as scripts/bench's
// 50-learner row does; profile it with -cpuprofile. It is not run by
// `go test` without -bench:
//
//	go test ./e2e/attempts/ -run '^$' -bench Autosave -benchtime 5000x

import (
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/loadkit"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/config"
)

const savers = 50

func BenchmarkAutosave(b *testing.B) {
	defaults, err := config.Read()
	if err != nil {
		b.Fatal(err)
	}
	h, err := harness.Start(harness.WithConfig(func(c *config.Config) {
		// The deployment's pool and caches, not the tests' small ones.
		c.Database.MaxOpenConns, c.Database.MaxIdleConns = defaults.Database.MaxOpenConns, defaults.Database.MaxIdleConns
		c.Auth.RoleCacheTTL = defaults.Auth.RoleCacheTTL
	}))
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = h.Stop() }()
	api := loadkit.NewAPI(h.BaseURL, savers, 30*time.Second)
	quiz, err := api.PublishQuiz(h.NewUser(auth.RoleModerator).Token, "Bench", 50, func(int) string { return "the alphabet" })
	if err != nil {
		b.Fatal(err)
	}
	type learner struct {
		token     string
		attempt   int64
		rev       int64
		wire      *loadkit.Wire
		req, body []byte
	}
	learners := make([]*learner, savers)
	for i := range learners {
		tok := h.NewUser(auth.RoleUser).Token
		id, err := api.Start(tok, quiz.ID)
		if err != nil {
			b.Fatal(err)
		}
		wire, err := loadkit.NewWire(h.BaseURL)
		if err != nil {
			b.Fatal(err)
		}
		defer wire.Close()
		learners[i] = &learner{token: tok, attempt: id, wire: wire}
	}
	// As scripts/bench saves: the body and request built by hand, each
	// learner on its own connection (the generator shares the process).
	save := func(i int) error {
		l := learners[i]
		l.rev++
		l.body = loadkit.AppendSave(l.body[:0], quiz.ID, l.attempt, quiz.Questions, l.rev)
		l.req = l.wire.AppendRequest(l.req[:0], http.MethodPost, "/api/v1/attempts/progress", l.token,
			[]loadkit.Header{{Name: "X-Quiz-Session", Value: "bench-device-" + strconv.Itoa(i)}}, l.body)
		return l.wire.Do(l.req)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, savers)
	b.ResetTimer()
	t0 := time.Now()
	for i := range savers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(b.N) {
				if err := save(i); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	b.ReportMetric(float64(b.N)/time.Since(t0).Seconds(), "saves/s")
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
}
