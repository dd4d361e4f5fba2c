package bank_test

// BenchmarkQuizRead measures GET /quizzes/{id} of a published 50-question
// quiz through the whole app on loopback (HTTP, auth, service, queries,
// JSON), 50 keep-alive clients at once, beside a bare net/http handler
// serving the same bytes on the same machine in the same run (the issue 13
// ratio). It is not run by `go test` without -bench:
//
//	go test ./e2e/bank/ -run '^$' -bench QuizRead -benchtime 5000x

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/roundsedu/rounds/app"
	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/modules/bank"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/config"
)

const readClients = 50

func BenchmarkQuizRead(b *testing.B) {
	ctx := context.Background()
	h, err := harness.Start(harness.WithConfig(func(c *config.Config) { c.Auth.RoleCacheTTL = 5 * time.Second }))
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = h.Stop() }()
	if _, err := app.Lookup[*bank.Module](h.App).SeedDemo(ctx); err != nil {
		b.Fatal(err)
	}
	var quizID int64
	conn := h.App.DB.Conn(ctx)
	if err := conn.Raw(`INSERT INTO bank.quizzes (user_id, title, mode, is_published)
		VALUES (1, 'Bench quiz', 'timed', true) RETURNING id`).Scan(&quizID).Error; err != nil {
		b.Fatal(err)
	}
	if err := conn.Exec(`INSERT INTO bank.quiz_questions (quiz_id, question_id, position)
		SELECT ?, id, row_number() OVER (ORDER BY id) FROM bank.questions ORDER BY id LIMIT 50`, quizID).Error; err != nil {
		b.Fatal(err)
	}
	learner := h.NewUser(auth.RoleUser)
	for _, mode := range []string{"", "?study=true"} {
		url := fmt.Sprintf("%s/api/v1/quizzes/%d%s", h.BaseURL, quizID, mode)
		body, err := get(http.DefaultClient, url, learner.Token)
		if err != nil {
			b.Fatal(err)
		}
		bare := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(body)
		}))
		name := "timed"
		if mode != "" {
			name = "study"
		}
		b.Run(name+"/rounds", func(b *testing.B) { load(b, url, learner.Token, body) })
		b.Run(name+"/bare", func(b *testing.B) { load(b, bare.URL, learner.Token, body) })
		bare.Close()
	}
}

// load sends b.N requests from readClients keep-alive clients and reports
// requests per second; every answer must be the expected bytes.
func load(b *testing.B, url, token string, want []byte) {
	tr := &http.Transport{MaxIdleConnsPerHost: readClients}
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, readClients)
	b.ResetTimer()
	t0 := time.Now()
	for range readClients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(b.N) {
				got, err := get(c, url, token)
				if err == nil && !bytes.Equal(got, want) {
					err = fmt.Errorf("the answer changed")
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	b.ReportMetric(float64(b.N)/time.Since(t0).Seconds(), "req/s")
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
}

func get(c *http.Client, url, token string) ([]byte, error) {
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err == nil && res.StatusCode != http.StatusOK {
		err = fmt.Errorf("status %d: %s", res.StatusCode, body)
	}
	return body, err
}
