// Command loadtest-attempts measures autosave (POST /attempts/progress)
// against a running Rounds server on loopback: it makes N learners (rows in
// the server's database and tokens signed with its secret), a quiz through
// the bank's API, one started attempt per learner, and then drives every
// learner saving its progress every -interval (0: back to back, the closed
// loop that finds the ceiling) for -duration. It prints sustained saves per
// second and latency percentiles over the measured window (after -warmup).
//
// See run.sh beside it for the whole measurement (scratch database, server,
// pgbench baseline).
package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net/http"
	"os"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/roundsedu/rounds/platform/auth"
)

type options struct {
	base, dbURL, secret, issuer string
	learners                    int
	interval, duration, warmup  time.Duration
	questions                   int
}

func main() {
	var o options
	flag.StringVar(&o.base, "base", "http://127.0.0.1:18080", "server address")
	flag.StringVar(&o.dbURL, "db", "", "the server's database (learners are inserted there)")
	flag.StringVar(&o.secret, "secret", os.Getenv("ROUNDS_AUTH_TOKEN_SECRET"), "the server's auth.token_secret")
	flag.StringVar(&o.issuer, "issuer", "rounds", "the server's service.name (token issuer)")
	flag.IntVar(&o.learners, "learners", 200, "concurrent learners")
	flag.DurationVar(&o.interval, "interval", 3*time.Second, "time between one learner's saves (0: back to back)")
	flag.DurationVar(&o.duration, "duration", 30*time.Second, "measured time")
	flag.DurationVar(&o.warmup, "warmup", 5*time.Second, "time before measuring")
	flag.IntVar(&o.questions, "questions", 40, "questions in the quiz")
	flag.Parse()
	if o.dbURL == "" || len(o.secret) < 32 {
		log.Fatal("-db and -secret (at least 32 characters) are required")
	}
	if err := run(o); err != nil {
		log.Fatal(err)
	}
}

type learner struct {
	id        int64
	token     string
	attemptID int64
}

func run(o options) error {
	ctx := context.Background()
	signer := auth.NewSigner(o.secret, o.issuer)
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		MaxIdleConns: o.learners + 10, MaxIdleConnsPerHost: o.learners + 10, IdleConnTimeout: time.Minute}}

	db, err := sql.Open("pgx", o.dbURL)
	if err != nil {
		return err
	}
	defer db.Close()
	modID, err := insertUser(ctx, db, "moderator", fmt.Sprintf("load-mod-%d@example.test", time.Now().UnixNano()))
	if err != nil {
		return err
	}
	modTok, _, err := signer.Issue(modID)
	if err != nil {
		return err
	}
	quizID, questionIDs, err := makeQuiz(client, o, modTok)
	if err != nil {
		return err
	}
	learners := make([]*learner, o.learners)
	stamp := time.Now().UnixNano()
	for i := range learners {
		id, err := insertUser(ctx, db, "user", fmt.Sprintf("load-%d-%d@example.test", stamp, i))
		if err != nil {
			return err
		}
		tok, _, err := signer.Issue(id)
		if err != nil {
			return err
		}
		l := &learner{id: id, token: tok}
		var a struct{ ID int64 }
		if err := call(client, o.base, tok, http.MethodPost, fmt.Sprintf("/api/v1/attempts/start?quiz_id=%d", quizID),
			nil, nil, &a); err != nil {
			return fmt.Errorf("start: %w", err)
		}
		l.attemptID = a.ID
		learners[i] = l
	}
	log.Printf("setup: %d learners, quiz %d with %d questions; running %s (+%s warmup), interval %s",
		o.learners, quizID, len(questionIDs), o.duration, o.warmup, o.interval)

	res := drive(client, o, quizID, questionIDs, learners)
	res.print(o)
	return nil
}

func insertUser(ctx context.Context, db *sql.DB, role, email string) (int64, error) {
	var id int64
	err := db.QueryRowContext(ctx, `INSERT INTO identity.users (email, name, role) VALUES ($1, $2, $3) RETURNING id`,
		email, email, role).Scan(&id)
	return id, err
}

func makeQuiz(client *http.Client, o options, tok string) (int64, []int64, error) {
	ids := make([]int64, o.questions)
	for i := range ids {
		var q struct{ ID int64 }
		body := map[string]any{"question_text": fmt.Sprintf("Load question %d?", i), "question_type": "mcq",
			"options": []string{"Alpha", "Bravo", "Charlie", "Delta"}, "correct_answer": "Bravo",
			"explanation": "Because Bravo."}
		if err := call(client, o.base, tok, http.MethodPost, "/api/v1/questions/create", nil, body, &q); err != nil {
			return 0, nil, fmt.Errorf("create question: %w", err)
		}
		ids[i] = q.ID
	}
	var z struct{ ID int64 }
	if err := call(client, o.base, tok, http.MethodPost, "/api/v1/questions/from-bank", nil,
		map[string]any{"title": "Load quiz", "question_ids": ids, "time_limit_minutes": 600}, &z); err != nil {
		return 0, nil, fmt.Errorf("create quiz: %w", err)
	}
	err := call(client, o.base, tok, http.MethodPatch, fmt.Sprintf("/api/v1/quizzes/%d/publish?published=true", z.ID),
		nil, nil, nil)
	return z.ID, ids, err
}

// call sends one JSON request and decodes a 2xx answer into out.
func call(client *http.Client, base, tok, method, path string, header http.Header, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, base+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header[k] = v
	}
	res, err := client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		return err
	}
	if res.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s: %d %s", method, path, res.StatusCode, data)
	}
	if out != nil {
		return json.Unmarshal(data, out)
	}
	return nil
}

type result struct {
	mu        sync.Mutex
	latencies []time.Duration
	errors    atomic.Int64
	firstErr  atomic.Value
	window    time.Duration
}

// drive runs every learner until the end and collects what happened in the
// measured window.
func drive(client *http.Client, o options, quizID int64, qids []int64, learners []*learner) *result {
	r := &result{window: o.duration}
	begin := time.Now()
	measureFrom, end := begin.Add(o.warmup), begin.Add(o.warmup+o.duration)
	var wg sync.WaitGroup
	for i, l := range learners {
		wg.Add(1)
		go func() {
			defer wg.Done()
			device := http.Header{"X-Quiz-Session": {"load-device-" + strconv.Itoa(i)}}
			// Spread the first saves over one interval, as real learners would.
			if o.interval > 0 {
				time.Sleep(time.Duration(rand.Int64N(int64(o.interval))))
			}
			answers := map[string]string{}
			var local []time.Duration
			for rev := int64(1); ; rev++ {
				next := time.Now().Add(o.interval)
				if time.Now().After(end) {
					break
				}
				answers[strconv.FormatInt(qids[int(rev)%len(qids)], 10)] = "Bravo"
				body := map[string]any{"quiz_id": quizID, "attempt_id": l.attemptID, "answers": answers,
					"current_idx": int(rev) % len(qids), "mode": "timed", "time_left": 3600 - rev, "revision": rev}
				t0 := time.Now()
				err := call(client, o.base, l.token, http.MethodPost, "/api/v1/attempts/progress", device, body, nil)
				took := time.Since(t0)
				if t0.After(measureFrom) && t0.Before(end) {
					if err != nil {
						r.errors.Add(1)
						r.firstErr.CompareAndSwap(nil, err.Error())
					} else {
						local = append(local, took)
					}
				}
				if o.interval > 0 {
					time.Sleep(time.Until(next))
				}
			}
			r.mu.Lock()
			r.latencies = append(r.latencies, local...)
			r.mu.Unlock()
		}()
	}
	wg.Wait()
	return r
}

func (r *result) print(o options) {
	slices.Sort(r.latencies)
	pct := func(p float64) time.Duration {
		if len(r.latencies) == 0 {
			return 0
		}
		return r.latencies[min(len(r.latencies)-1, int(float64(len(r.latencies))*p))]
	}
	fmt.Printf("learners=%d interval=%s window=%s saves=%d errors=%d saves/s=%.1f p50=%s p95=%s p99=%s max=%s\n",
		o.learners, o.interval, r.window, len(r.latencies), r.errors.Load(),
		float64(len(r.latencies))/r.window.Seconds(), pct(0.50).Round(10*time.Microsecond),
		pct(0.95).Round(10*time.Microsecond), pct(0.99).Round(10*time.Microsecond), pct(1).Round(10*time.Microsecond))
	if e := r.firstErr.Load(); e != nil {
		fmt.Printf("first error: %v\n", e)
	}
}
