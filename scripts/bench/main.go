// Command bench measures the hot paths against what this machine can do, in
// one run: it boots the service in-process on a private database of the
// local cluster (the e2e harness: a cloned database, a development sign-in
// provider, learners signed in through SSO), drives autosave and the quiz
// read over loopback HTTP with keep-alive, and beside each runs the
// machine's own limit: pgbench on the single-row upsert an autosave boils
// down to (same database, same table shape) with a bare net/http handler
// taking the same requests (the HTTP floor), and a bare handler serving the
// same bytes as the quiz read. It then submits 100-question
// attempts (1 client, then 10) and runs the scale benchmarks, each its own
// program on its own database of 100,000 questions (the bank's and the
// statistics' seeders are their stores' benchmarks, search's is
// scripts/bench/search): the bank listing through HTTP beside its
// page and count statements as raw SQL, and hybrid search through
// GET /search with the index's recall@10. It prints one Markdown table of
// every row, for docs/performance.md.
//
// Run it with `go tool task bench` (it needs the local cluster up);
// `-scale=false` skips the two 100,000-question benchmarks.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/sync/errgroup"

	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/loadkit"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/config"
)

type options struct {
	duration, warmup time.Duration
	questions        int
	learners         int
	cpuProfile       string
	scale            bool
	bankRequests     int
	storm, stormAt   int
	only             map[string]bool
}

// enabled says whether the load named is to run (-only names some; none:
// all).
func (o options) enabled(name string) bool { return len(o.only) == 0 || o.only[name] }

func main() {
	var o options
	flag.DurationVar(&o.duration, "duration", 10*time.Second, "measured time of each load")
	flag.DurationVar(&o.warmup, "warmup", 2*time.Second, "unmeasured time before each load")
	flag.IntVar(&o.questions, "questions", 50, "questions in the quiz")
	flag.IntVar(&o.learners, "learners", 1000, "learners signed in (the largest load)")
	flag.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of each load's measured window to this prefix + the load's name + .prof (server and generator share the process)")
	flag.BoolVar(&o.scale, "scale", true, "also run the 100,000-question benchmarks (bank listing, search)")
	flag.IntVar(&o.bankRequests, "bank-requests", 1400, "bank listing requests over the 100,000 questions (spread over its 14 filter shapes)")
	flag.IntVar(&o.storm, "storm", 1000, "learners in the exam-start storm (at most -learners)")
	flag.IntVar(&o.stormAt, "storm-at", 200, "learners of the storm starting at a time")
	only := flag.String("only", "", "run only these parts, comma-separated: autosave, quiz, storm, submit, scale (default: all)")
	flag.Parse()
	o.only = map[string]bool{}
	for _, name := range strings.Split(*only, ",") {
		if name = strings.TrimSpace(name); name != "" {
			o.only[name] = true
		}
	}
	o.scale = o.scale && o.enabled("scale")
	begin := time.Now()
	rows, goals, err := run(o)
	if err != nil {
		log.Fatal(err)
	}
	hot := time.Since(begin)
	if o.scale {
		scale, more, err := scaleRows(o)
		if err != nil {
			log.Fatal(err)
		}
		rows, goals = append(rows, scale...), append(goals, more...)
	}
	printTable(rows, goals, o, hot, time.Since(begin))
}

func run(o options) ([]loadkit.Row, []loadkit.Goal, error) {
	defaults, err := config.Read()
	if err != nil {
		return nil, nil, err
	}
	h, err := harness.Start(harness.WithConfig(func(c *config.Config) {
		// The deployment's pool, caches and pollers, not the tests' small
		// pool and fast polling (a few hundred idle polls a second).
		c.Database.MaxOpenConns, c.Database.MaxIdleConns = defaults.Database.MaxOpenConns, defaults.Database.MaxIdleConns
		c.Auth.RoleCacheTTL = defaults.Auth.RoleCacheTTL
		c.Events.PollInterval, c.Jobs.PollInterval = defaults.Events.PollInterval, defaults.Jobs.PollInterval
		c.Scheduler.LeaderCheck = defaults.Scheduler.LeaderCheck
	}))
	if err != nil {
		return nil, nil, err
	}
	defer func() { _ = h.Stop() }()
	benchDB = loadkit.DatabaseName(h.DBURL)

	w, err := setUp(h, o)
	if err != nil {
		return nil, nil, err
	}
	if err := settle(h); err != nil {
		return nil, nil, err
	}
	var rows []row
	var goals []loadkit.Goal

	save := func(clients int, every time.Duration) (load, error) {
		name := fmt.Sprintf("autosave-%d", clients)
		if every > 0 {
			name += "-paced"
		}
		return drive(name, clients, every, o, func(i int) error { return w.autosave(i) })
	}
	if o.enabled("autosave") {
		for _, c := range []int{50, 200} {
			c = min(c, o.learners)
			rounds, err := save(c, 0)
			if err != nil {
				return nil, nil, err
			}
			limit, err := pgbenchUpsert(h.DBURL, c, o.duration)
			if err != nil {
				return nil, nil, err
			}
			floor, err := w.bareSaved(c, o)
			if err != nil {
				return nil, nil, err
			}
			rows = append(rows, row{fmt.Sprintf("`POST /attempts/progress`, %d learners back to back", c), rounds,
				fmt.Sprintf("pgbench single-row upsert, %d clients: %.0f TPS (a bare net/http handler reading the same requests: %.0f/s, Rounds at %.2f of it; %s)",
					c, limit, floor.rate(), rounds.rate()/floor.rate(), rounds.cpuPer()), rounds.rate() / limit})
		}
		paced, err := save(o.learners, 3*time.Second)
		if err != nil {
			return nil, nil, err
		}
		// The paced load's CPU a save is the capacity model's (docs/operations.md):
		// saves spread out as learners make them, few to a statement.
		rows = append(rows, row{fmt.Sprintf("`POST /attempts/progress`, %d learners every 3 s", o.learners), paced, paced.cpuPer(), 0})
	}

	if o.enabled("quiz") {
		quiz, err := drive("quiz", min(50, o.learners), 0, o, func(i int) error { return w.readQuiz(i) })
		if err != nil {
			return nil, nil, err
		}
		bare, err := w.bareRead(50, o)
		if err != nil {
			return nil, nil, err
		}
		rows = append(rows, row{fmt.Sprintf("`GET /quizzes/{id}`, %d questions, 50 clients", o.questions), quiz,
			fmt.Sprintf("bare net/http handler, same bytes: %.0f req/s (%s)", bare.rate(), quiz.cpuPer()), quiz.rate() / bare.rate()})
		again, err := drive("quiz-304", min(50, o.learners), 0, o, func(i int) error { return w.rereadQuiz(i) })
		if err != nil {
			return nil, nil, err
		}
		bare304, err := w.bareReread(50, o)
		if err != nil {
			return nil, nil, err
		}
		rows = append(rows, row{"`GET /quizzes/{id}` with `If-None-Match` (304), 50 clients", again,
			fmt.Sprintf("bare net/http handler answering the same 304: %.0f req/s (%s)", bare304.rate(), again.cpuPer()),
			again.rate() / bare304.rate()})
	}

	var out []loadkit.Row
	for _, r := range rows {
		t := loadkit.NewRow(r.path, r.rounds.latencies, r.rounds.window, r.rounds.errors)
		t.Limit, t.Ratio = r.limit, r.ratio
		out = append(out, t)
	}
	if o.enabled("storm") {
		r, g, err := w.storm(o)
		if err != nil {
			return nil, nil, err
		}
		out, goals = append(out, r), append(goals, g...)
	}
	if o.enabled("submit") {
		submits, err := w.submitRows(o)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, submits...)
	}
	return out, goals, nil
}

// world is what the loads act on: a published quiz and learners each with
// a started attempt of it.
type world struct {
	api       *loadkit.API
	mod       *harness.User
	quizID    int64
	questions []int64
	learners  []learner
	quizBody  []byte
	quizTag   string // the quiz read's ETag
}

type learner struct {
	token     string
	attemptID int64
	revision  int64 // the learner's device counts its saves across loads, as a client would
	wire      *loadkit.Wire
	req, body []byte // the learner's last request and save body, their buffers reused
}

func setUp(h *harness.Harness, o options) (*world, error) {
	w := &world{api: loadkit.NewAPI(h.BaseURL, o.learners, 30*time.Second)}
	w.mod = h.NewUser(auth.RoleModerator)
	mod := w.mod
	quiz, err := w.api.PublishQuiz(mod.Token, "Bench", o.questions, func(int) string { return "the alphabet" })
	if err != nil {
		return nil, err
	}
	w.quizID, w.questions = quiz.ID, quiz.Questions

	log.Printf("signing in %d learners through SSO", o.learners)
	w.learners = make([]learner, o.learners)
	var g errgroup.Group
	g.SetLimit(8) // sign-ins in parallel, not all at once
	for i := range w.learners {
		g.Go(func() error {
			tok := h.NewUser(auth.RoleUser).Token
			id, err := w.api.Start(tok, w.quizID)
			if err != nil {
				return err
			}
			wire, err := loadkit.NewWire(h.BaseURL)
			w.learners[i] = learner{token: tok, attemptID: id, wire: wire}
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	body, err := w.get(w.learners[0].token, fmt.Sprintf("/api/v1/quizzes/%d", w.quizID))
	w.quizBody = body
	if err != nil {
		return nil, err
	}
	w.quizTag, err = w.tag(w.learners[0].token, fmt.Sprintf("%s/api/v1/quizzes/%d", h.BaseURL, w.quizID))
	return w, err
}

// tag is the ETag a read of url answers.
func (w *world) tag(tok, url string) (string, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return "", err
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, res.Body)
	if tag := res.Header.Get("ETag"); res.StatusCode == http.StatusOK && tag != "" {
		return tag, nil
	}
	return "", fmt.Errorf("GET %s: %d without an ETag", url, res.StatusCode)
}

// settle waits until the service has handled the events and jobs the
// set-up left behind (a thousand sign-ups and starts), so that the first
// load measures the hot path, not the backlog draining beside it. It reads
// the figures the service exports as metrics.
func settle(h *harness.Harness) error {
	reg := prometheus.NewRegistry()
	reg.MustRegister(h.App.Bus.Lag(), h.App.Queue.Backlog())
	begin := time.Now()
	for {
		families, err := reg.Gather()
		if err != nil {
			return err
		}
		left := 0.0
		for _, f := range families {
			switch f.GetName() {
			case "rounds_outbox_undelivered", "rounds_jobs_pending", "rounds_jobs_running":
				for _, m := range f.GetMetric() {
					left += m.GetGauge().GetValue()
				}
			}
		}
		if left == 0 {
			log.Printf("the set-up's events and jobs were handled %s after it", time.Since(begin).Round(time.Millisecond))
			return nil
		}
		if time.Since(begin) > 2*time.Minute {
			return fmt.Errorf("the set-up's events and jobs were not all handled in 2 minutes (%v left)", left)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// autosave sends learner i's next revision of its progress (one worker
// drives a learner at a time), on the learner's own connection.
func (w *world) autosave(i int) error {
	return w.learners[i].wire.Do(w.saveRequest(i, w.learners[i].wire))
}

// saveRequest is learner i's next autosave as wire sends it, the same
// bytes for Rounds and the bare handler.
func (w *world) saveRequest(i int, wire *loadkit.Wire) []byte {
	l := &w.learners[i]
	l.req = wire.AppendRequest(l.req[:0], http.MethodPost, "/api/v1/attempts/progress", l.token,
		[]loadkit.Header{{Name: "X-Quiz-Session", Value: "bench-device-" + strconv.Itoa(i)}}, w.nextSave(i))
	return l.req
}

// nextSave is learner i's next revision of its progress, as a client
// sends it.
func (w *world) nextSave(i int) []byte {
	l := &w.learners[i]
	l.revision++
	l.body = loadkit.AppendSave(l.body[:0], w.quizID, l.attemptID, w.questions, l.revision)
	return l.body
}

// readQuiz reads the quiz and drops the body, as the bare handler's load
// does: decoding 50 KB per read in the generator (which shares the
// process with the service) would count against Rounds alone.
func (w *world) readQuiz(i int) error {
	return w.learners[i].wire.Do(w.quizRequest(i, w.learners[i].wire))
}

// rereadQuiz is learner i's quiz read from a client holding the quiz: it
// must be answered 304.
func (w *world) rereadQuiz(i int) error {
	return notModified(w.learners[i].wire, w.quizRereq(i, w.learners[i].wire))
}

// quizRequest is learner i's quiz read as wire sends it.
func (w *world) quizRequest(i int, wire *loadkit.Wire) []byte {
	l := &w.learners[i]
	l.req = wire.AppendRequest(l.req[:0], http.MethodGet, fmt.Sprintf("/api/v1/quizzes/%d", w.quizID), l.token, nil, nil)
	return l.req
}

// quizRereq is quizRequest from a client holding the quiz's current copy.
func (w *world) quizRereq(i int, wire *loadkit.Wire) []byte {
	l := &w.learners[i]
	l.req = wire.AppendRequest(l.req[:0], http.MethodGet, fmt.Sprintf("/api/v1/quizzes/%d", w.quizID), l.token,
		[]loadkit.Header{{Name: "If-None-Match", Value: w.quizTag}}, nil)
	return l.req
}

// notModified sends req on wire and wants 304.
func notModified(wire *loadkit.Wire, req []byte) error {
	status, err := wire.Status(req)
	if err == nil && status != http.StatusNotModified {
		err = fmt.Errorf("want 304, got %d", status)
	}
	return err
}

// sent sends req on wire and wants 2xx.
func sent(wire *loadkit.Wire, req []byte) error { return wire.Do(req) }

func (w *world) get(tok, path string) ([]byte, error) {
	var raw json.RawMessage
	err := w.api.Call(tok, http.MethodGet, path, nil, nil, &raw)
	return raw, err
}

// load is what one driven load measured.
type load struct {
	latencies []time.Duration
	errors    int
	firstErr  error
	window    time.Duration
	// CPU time used over the window by this process (service and load
	// generator) and by the cluster's Postgres processes: a cost per
	// request that the host's speed of the moment moves less than a rate.
	cpu, cpuDB time.Duration
}

// cpuPer says what the load cost a request in CPU.
func (l load) cpuPer() string {
	n := time.Duration(max(1, len(l.latencies)))
	return fmt.Sprintf("CPU a request: %d µs here (service and generator), %d µs Postgres",
		(l.cpu / n).Microseconds(), (l.cpuDB / n).Microseconds())
}

func (l load) rate() float64 { return float64(len(l.latencies)) / l.window.Seconds() }

// drive runs op from clients workers (back to back when every is 0, else
// each worker once per every, starts spread over one period) through the
// warm-up and the measured window, and keeps what the window saw (and,
// with -cpuprofile, profiles the window as name).
func drive(name string, clients int, every time.Duration, o options, op func(worker int) error) (load, error) {
	begin := time.Now()
	from, end := begin.Add(o.warmup), begin.Add(o.warmup+o.duration)
	results := make([]load, clients)
	var wg sync.WaitGroup
	var cpu, cpuDB time.Duration
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(time.Until(from))
		self0, db0 := cpuTimes()
		time.Sleep(time.Until(end))
		self1, db1 := cpuTimes()
		cpu, cpuDB = self1-self0, db1-db0
	}()
	if o.cpuProfile != "" {
		wg.Add(1)
		go func() {
			defer wg.Done()
			profile(o.cpuProfile+name+".prof", from, end)
		}()
	}
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := &results[i]
			if every > 0 {
				time.Sleep(time.Duration(int64(every) * int64(i) / int64(clients)))
			}
			for time.Now().Before(end) {
				next := time.Now().Add(every)
				t0 := time.Now()
				err := op(i)
				took := time.Since(t0)
				if t0.After(from) && t0.Before(end) {
					if err != nil {
						r.errors++
						if r.firstErr == nil {
							r.firstErr = err
						}
					} else {
						r.latencies = append(r.latencies, took)
					}
				}
				time.Sleep(time.Until(next))
			}
		}()
	}
	wg.Wait()
	all := load{window: o.duration, cpu: cpu, cpuDB: cpuDB}
	for _, r := range results {
		all.latencies = append(all.latencies, r.latencies...)
		all.errors += r.errors
		if all.firstErr == nil {
			all.firstErr = r.firstErr
		}
	}
	slices.Sort(all.latencies)
	if all.firstErr != nil {
		log.Printf("%d errors; first: %v", all.errors, all.firstErr)
	}
	return all, nil
}

// bare runs handler as a plain net/http server and drives it from clients
// workers, each on its own connection, with the request build makes for
// the worker: the ceiling of HTTP on this machine for the same requests
// and answers.
func bare(name string, handler http.HandlerFunc, clients int, o options, build func(worker int, wire *loadkit.Wire) []byte,
	send func(*loadkit.Wire, []byte) error) (load, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return load{}, err
	}
	srv := &http.Server{Handler: handler}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	wires := make([]*loadkit.Wire, clients)
	for i := range wires {
		if wires[i], err = loadkit.NewWire("http://" + ln.Addr().String()); err != nil {
			return load{}, err
		}
		defer wires[i].Close()
	}
	return drive(name, clients, 0, o, func(i int) error { return send(wires[i], build(i, wires[i])) })
}

// cpuTimes reads the CPU time used so far by this process and by the
// Postgres backends of the bench's database (loadkit.CPUTimes).
func cpuTimes() (self, db time.Duration) { return loadkit.CPUTimes(benchDB) }

// benchDB is the database the bench's service runs on.
var benchDB string

// profile writes a CPU profile of the process from from to end to path.
func profile(path string, from, end time.Time) {
	time.Sleep(time.Until(from))
	profileDuring(path, func() { time.Sleep(time.Until(end)) })
}

// profileDuring writes a CPU profile of the process to path while wait
// runs.
func profileDuring(path string, wait func()) {
	f, err := os.Create(path)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		log.Printf("cpu profile %s: %v", path, err)
		wait()
		return
	}
	wait()
	pprof.StopCPUProfile()
	_ = f.Close()
}

// bareRead serves body to every GET, as the quiz read answers it, to the
// quiz read's requests.
func (w *world) bareRead(clients int, o options) (load, error) {
	length := strconv.Itoa(len(w.quizBody))
	return bare("quiz-bare", func(rw http.ResponseWriter, _ *http.Request) {
		rw.Header().Set("Content-Type", "application/json")
		rw.Header().Set("Content-Length", length) // as Rounds sends it (not chunked)
		_, _ = rw.Write(w.quizBody)
	}, clients, o, w.quizRequest, sent)
}

// bareReread answers every request 304 with the quiz's ETag, doing
// nothing else: the floor of a conditional re-read.
func (w *world) bareReread(clients int, o options) (load, error) {
	return bare("quiz-304-bare", func(rw http.ResponseWriter, _ *http.Request) {
		rw.Header().Set("ETag", w.quizTag)
		rw.Header().Set("Cache-Control", "private, no-cache")
		rw.WriteHeader(http.StatusNotModified)
	}, clients, o, w.quizRereq, notModified)
}

// bareSaved reads each autosave's body (the same requests, sent the same
// way) and answers what a save answers, doing nothing else: the HTTP floor
// of an autosave beside pgbench's database floor.
func (w *world) bareSaved(clients int, o options) (load, error) {
	saved := []byte(`{"saved":true,"saved_at":"2026-11-26T21:00:00Z","expires_at":"2026-12-03T21:00:00Z"}` + "\n")
	return bare(fmt.Sprintf("autosave-%d-bare", clients), func(rw http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		rw.Header().Set("Content-Type", "application/json")
		_, _ = rw.Write(saved)
	}, clients, o, w.saveRequest, sent)
}

// upsertScript is the single-row upsert an autosave boils down to, on a
// table shaped like attempts.saved_progress, with no HTTP, auth or checks.
const upsertScript = `\set aid random(1, 1000)
INSERT INTO bench.progress (attempt_id, user_id, quiz_id, answers, current_idx, mode, device, revision, saved_at, expires_at)
VALUES (:aid, :aid, 1, '{"101":"Bravo","102":"Bravo","103":"Alpha","104":"Bravo","105":"Delta","106":"Bravo","107":"Bravo","108":"Charlie","109":"Bravo","110":"Bravo"}',
        :aid % 40, 'timed', 'device', :aid, now(), now() + interval '7 days')
ON CONFLICT (attempt_id) DO UPDATE SET answers = EXCLUDED.answers, current_idx = EXCLUDED.current_idx,
  revision = EXCLUDED.revision, saved_at = EXCLUDED.saved_at, expires_at = EXCLUDED.expires_at;
`

var tpsLine = regexp.MustCompile(`tps = ([0-9.]+) \(without initial connection time\)`)

// pgbenchUpsert runs pgbench's upsert with clients connections on the
// bench's own database and returns its transactions per second.
func pgbenchUpsert(dbURL string, clients int, d time.Duration) (float64, error) {
	bin, err := pgbench()
	if err != nil {
		return 0, err
	}
	psql := filepath.Join(filepath.Dir(bin), "psql")
	setup := exec.Command(psql, dbURL, "-qc", `CREATE SCHEMA IF NOT EXISTS bench;
		CREATE TABLE IF NOT EXISTS bench.progress (LIKE attempts.saved_progress INCLUDING ALL)`)
	if out, err := setup.CombinedOutput(); err != nil {
		return 0, fmt.Errorf("pgbench setup: %v: %s", err, out)
	}
	script := filepath.Join(os.TempDir(), fmt.Sprintf("rounds-bench-%d.sql", os.Getpid()))
	if err := os.WriteFile(script, []byte(upsertScript), 0o600); err != nil {
		return 0, err
	}
	defer os.Remove(script)
	cmd := exec.CommandContext(context.Background(), bin, "-n", "-M", "prepared", "-c", strconv.Itoa(clients),
		"-j", "2", "-T", strconv.Itoa(int(d.Seconds())), "-f", script, dbURL)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return 0, fmt.Errorf("pgbench: %v: %s", err, out)
	}
	m := tpsLine.FindSubmatch(out)
	if m == nil {
		return 0, fmt.Errorf("pgbench printed no tps: %s", out)
	}
	return strconv.ParseFloat(string(m[1]), 64)
}

// pgbench finds the pgbench of the local cluster's PostgreSQL.
func pgbench() (string, error) {
	if p, err := exec.LookPath("pgbench"); err == nil {
		return p, nil
	}
	found, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pgbench")
	if len(found) == 0 {
		return "", fmt.Errorf("pgbench not found (install postgresql-contrib or the server package)")
	}
	return found[len(found)-1], nil
}

type row struct {
	path   string
	rounds load
	limit  string
	ratio  float64
}

// submitAnswered is how many questions the submitted attempts hold.
const submitAnswered = 100

// submitRows publishes a 100-question quiz, starts every learner's attempt
// at it (not timed: a submit completes its attempt, so each submit needs
// its own), and submits them with every question answered: a few to warm
// up, three in ten by one client back to back, the rest by 10 clients.
func (w *world) submitRows(o options) ([]loadkit.Row, error) {
	quiz, err := w.api.PublishQuiz(w.mod.Token, "Bench submit", submitAnswered, func(int) string { return "the alphabet" })
	if err != nil {
		return nil, err
	}
	answers := map[string]string{}
	for _, q := range quiz.Questions {
		answers[strconv.FormatInt(q, 10)] = "Bravo"
	}
	log.Printf("starting %d attempts of a %d-question quiz", len(w.learners), submitAnswered)
	attempts := make([]int64, len(w.learners))
	var g errgroup.Group
	g.SetLimit(8)
	for i, l := range w.learners {
		g.Go(func() (err error) {
			attempts[i], err = w.api.Start(l.token, quiz.ID)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	submit := func(i int) error {
		return w.api.Call(w.learners[i].token, http.MethodPost, fmt.Sprintf("/api/v1/attempts/%d/submit", attempts[i]),
			nil, map[string]any{"answers": answers}, nil)
	}
	warm := min(10, len(attempts)/10)
	for i := range warm {
		if err := submit(i); err != nil {
			return nil, err
		}
	}
	alone := warm + (len(attempts)-warm)*3/10
	var rows []loadkit.Row
	for _, part := range []struct {
		clients  int
		from, to int
	}{{1, warm, alone}, {10, alone, len(attempts)}} {
		rows = append(rows, submitLoad(part.clients, part.from, part.to, submit))
	}
	return rows, nil
}

// submitLoad submits attempts from..to-1 over clients workers, each taking
// the next one, and summarises them over the load's wall time.
func submitLoad(clients, from, to int, submit func(i int) error) loadkit.Row {
	begin := time.Now()
	lat, errs, firstErr := loadkit.Spread(clients, seq(from, to), submit)
	if firstErr != nil {
		log.Printf("%d errors; first: %v", errs, firstErr)
	}
	who := "1 client"
	if clients > 1 {
		who = fmt.Sprintf("%d clients", clients)
	}
	return loadkit.NewRow(fmt.Sprintf("`POST /attempts/{id}/submit`, %d answered questions, %s, %d attempts",
		submitAnswered, who, to-from), lat, time.Since(begin), errs)
}

// seq is from, from+1, ..., to-1.
func seq(from, to int) []int {
	out := make([]int, 0, max(0, to-from))
	for i := from; i < to; i++ {
		out = append(out, i)
	}
	return out
}

// scaleRows runs the two 100,000-question benchmarks and the statistics
// reads (1,000 attempts, 100,000 sittings) one after the other, each in
// its own process (the bank's and statistics' seeders are their stores'
// internal code), passes their output on to stderr as progress and keeps
// the rows and goals they print (loadkit.EmitRow, EmitGoal).
func scaleRows(o options) ([]loadkit.Row, []loadkit.Goal, error) {
	root, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		return nil, nil, fmt.Errorf("go list -m: %w", err)
	}
	var rows []loadkit.Row
	var goals []loadkit.Goal
	for _, args := range [][]string{
		{"test", "-count=1", "-timeout=0", "./modules/bank/internal/store/", "-run=^$", "-bench=BankListing",
			fmt.Sprintf("-benchtime=%dx", o.bankRequests)},
		{"run", "./scripts/bench/search", "-n=100000"},
		{"test", "-count=1", "-timeout=0", "./e2e/attempts/", "-run=^$", "-bench=Statistics",
			"-benchtime=200x"},
	} {
		log.Printf("go %s", strings.Join(args, " "))
		cmd := exec.Command("go", args...)
		cmd.Dir = strings.TrimSpace(string(root))
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = io.MultiWriter(os.Stderr, &out), os.Stderr
		if err := cmd.Run(); err != nil {
			return nil, nil, fmt.Errorf("go %s: %w", strings.Join(args, " "), err)
		}
		got, err := loadkit.ParseRows(bytes.NewReader(out.Bytes()))
		if err != nil {
			return nil, nil, err
		}
		if len(got) == 0 {
			return nil, nil, fmt.Errorf("go %s printed no bench row", strings.Join(args, " "))
		}
		met, err := loadkit.ParseGoals(&out)
		if err != nil {
			return nil, nil, err
		}
		rows, goals = append(rows, got...), append(goals, met...)
	}
	return rows, goals, nil
}

func printTable(rows []loadkit.Row, goals []loadkit.Goal, o options, hot, all time.Duration) {
	fmt.Printf("\nOne run on %s: the first rows %s per load after %s warm-up (%s with set-up and the submits)", machine(),
		o.duration, o.warmup, hot.Round(time.Second))
	if o.scale {
		fmt.Printf(", the 100,000-question rows their own programs (%s in all)", all.Round(time.Second))
	}
	fmt.Print(".\n\n")
	loadkit.WriteTable(os.Stdout, rows)
	if len(goals) > 0 {
		fmt.Print("\nThe goals of issue 37 on this run:\n\n")
		loadkit.WriteGoals(os.Stdout, goals)
	}
}

func machine() string {
	cpu := "?"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(line, "model name") {
				cpu = strings.TrimSpace(strings.SplitN(line, ":", 2)[1])
				break
			}
		}
	}
	n, _ := exec.Command("nproc").Output()
	return fmt.Sprintf("%s cores of %s", strings.TrimSpace(string(n)), cpu)
}
