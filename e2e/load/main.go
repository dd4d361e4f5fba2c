// Command load drives the service as a crowd of learners would: each signed-in
// learner sits a timed test (autosaving it, now and then submitting and
// starting again), browses the bank, searches, reads articles and reviews
// flashcards, in the proportions of `mix`, with a think time between
// actions. The service runs in this process on a private database of the
// local cluster (the e2e harness: a cloned database, a development sign-in
// provider, learners signed in through SSO) and is reached over loopback
// HTTP with keep-alive. It prints throughput and p50/p95/p99 per route as a
// Markdown table; -soak runs long and samples the process's RSS, and exits
// non-zero on any error or when memory keeps growing.
//
// Run it with `go tool task load` (short) or `go tool task load -- -soak`.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"net/http"
	"os"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/loadkit"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/config"
)

type options struct {
	duration, warmup, think, sample time.Duration
	learners, questions             int
	soak                            bool
	growth                          float64
}

func main() {
	var o options
	flag.DurationVar(&o.duration, "duration", 20*time.Second, "measured time")
	flag.DurationVar(&o.warmup, "warmup", 3*time.Second, "unmeasured time before it")
	flag.DurationVar(&o.think, "think", time.Second, "a learner's mean pause between actions")
	flag.IntVar(&o.learners, "learners", 50, "learners signed in, each acting on its own")
	flag.IntVar(&o.questions, "questions", 40, "questions in the test the learners sit")
	flag.BoolVar(&o.soak, "soak", false, "soak: 500 learners for 10 minutes unless -learners/-duration say otherwise; RSS sampled")
	flag.DurationVar(&o.sample, "sample", 30*time.Second, "RSS sampling interval in soak mode")
	flag.Float64Var(&o.growth, "max-growth", 0.25, "soak fails when RSS at the end exceeds the first sample by more than this fraction")
	flag.Parse()
	if o.soak {
		set := map[string]bool{}
		flag.Visit(func(f *flag.Flag) { set[f.Name] = true })
		if !set["learners"] {
			o.learners = 500
		}
		if !set["duration"] {
			o.duration = 10 * time.Minute
		}
	}
	if err := run(o); err != nil {
		log.Fatal(err)
	}
}

// route names an action's request in the table (the path template).
type route string

const (
	autosave  route = "POST /attempts/progress"
	submit    route = "POST /attempts/{id}/submit"
	start     route = "POST /attempts/start"
	quizRead  route = "GET /quizzes/{id}"
	bank      route = "GET /questions/bank"
	search    route = "GET /search"
	article   route = "GET /articles/by-slug/{slug}"
	cardQueue route = "GET /flashcards/study/queue"
	review    route = "POST /flashcards/cards/{id}/review"
)

// mix is how often each action is chosen, out of 100: a learner mostly
// answers the test it sits (every answer autosaves).
var mix = []struct {
	weight int
	act    func(*world, *learner) error
}{
	{55, (*world).autosave},
	{3, (*world).submitAndRestart},
	{4, (*world).readQuiz},
	{10, (*world).browseBank},
	{8, (*world).search},
	{10, (*world).readArticle},
	{10, (*world).reviewCard},
}

func run(o options) error {
	defaults, err := config.Read()
	if err != nil {
		return err
	}
	h, err := harness.Start(harness.WithConfig(func(c *config.Config) {
		// The deployment's pool and caches, not the tests' small ones.
		c.Database.MaxOpenConns, c.Database.MaxIdleConns = defaults.Database.MaxOpenConns, defaults.Database.MaxIdleConns
		c.Auth.RoleCacheTTL = defaults.Auth.RoleCacheTTL
		c.Set("flashcards.reviews_per_day", 100000)
	}))
	if err != nil {
		return err
	}
	defer func() { _ = h.Stop() }()
	w, err := setUp(h, o)
	if err != nil {
		return err
	}
	log.Printf("%d learners acting for %s after %s warm-up (think time %s)", o.learners, o.duration, o.warmup, o.think)
	res, rss := w.drive(o)
	printTable(res, rss, o)
	var errs int
	for _, r := range res {
		errs += r.errors
	}
	if o.soak {
		if errs > 0 {
			return fmt.Errorf("soak: %d errors", errs)
		}
		if len(rss) > 2 && float64(rss[len(rss)-1].bytes) > float64(rss[1].bytes)*(1+o.growth) {
			return fmt.Errorf("soak: RSS grew from %s to %s", mib(rss[1].bytes), mib(rss[len(rss)-1].bytes))
		}
	}
	return nil
}

// world is what the learners act on.
type world struct {
	api       *loadkit.API
	quizID    int64
	questions []int64
	slugs     []string
	deckID    int64
	terms     []string
	learners  []*learner
	from, end time.Time

	mu    sync.Mutex
	stats map[route]*stat
}

type learner struct {
	i        int
	token    string
	attempt  int64
	revision int64
	rng      *rand.Rand
}

type stat struct {
	latencies []time.Duration
	errors    int
	firstErr  error
}

var topics = []string{"cardiology", "nephrology", "pharmacology", "anatomy", "microbiology", "endocrinology"}

func setUp(h *harness.Harness, o options) (*world, error) {
	w := &world{api: loadkit.NewAPI(h.BaseURL, o.learners, 60*time.Second), stats: map[route]*stat{}, terms: topics}
	mod := h.NewUser(auth.RoleModerator)
	quiz, err := w.api.PublishQuiz(mod.Token, "Load", o.questions, func(i int) string { return topics[i%len(topics)] })
	if err != nil {
		return nil, err
	}
	w.quizID, w.questions = quiz.ID, quiz.Questions
	for i, topic := range topics {
		var a struct{ Slug string }
		body := map[string]any{"title": fmt.Sprintf("The %s handbook", topic), "status": "published",
			"summary": "What a learner needs about " + topic + ".",
			"sections": []map[string]any{{"heading": "Overview", "markdown": strings.Repeat(fmt.Sprintf("A paragraph on %s, part %d. ", topic, i), 60)},
				{"heading": "Details", "markdown": strings.Repeat("- a point worth remembering\n", 40)}}}
		if err := w.api.Call(mod.Token, http.MethodPost, "/api/v1/articles/", nil, body, &a); err != nil {
			return nil, err
		}
		w.slugs = append(w.slugs, a.Slug)
	}
	var cat, deck struct{ ID int64 }
	if err := w.api.Call(mod.Token, http.MethodPost, "/api/v1/question-categories/", nil, map[string]any{"name": "Load topics"}, &cat); err != nil {
		return nil, err
	}
	if err := w.api.Call(mod.Token, http.MethodPost, "/api/v1/flashcards/manual", nil, map[string]any{"title": "Load deck", "category_id": cat.ID}, &deck); err != nil {
		return nil, err
	}
	w.deckID = deck.ID
	if err := w.api.Call(mod.Token, http.MethodPut, fmt.Sprintf("/api/v1/flashcards/%d/share", deck.ID), nil, nil, nil); err != nil {
		return nil, err
	}
	for i := range 30 {
		card := map[string]any{"card_type": "basic", "front": fmt.Sprintf("Fact %d about %s?", i, topics[i%len(topics)]), "back": "Bravo"}
		if err := w.api.Call(mod.Token, http.MethodPost, fmt.Sprintf("/api/v1/flashcards/decks/%d/cards", deck.ID), nil, card, nil); err != nil {
			return nil, err
		}
	}

	log.Printf("signing in %d learners through SSO", o.learners)
	w.learners = make([]*learner, o.learners)
	var g errgroup.Group
	g.SetLimit(8) // sign-ins in parallel, not all at once
	for i := range w.learners {
		g.Go(func() error {
			w.learners[i] = &learner{i: i, token: h.NewUser(auth.RoleUser).Token, rng: rand.New(rand.NewPCG(uint64(i), 7))}
			return w.startAttempt(w.learners[i])
		})
	}
	return w, g.Wait()
}

func (w *world) startAttempt(l *learner) error {
	id, err := w.api.Start(l.token, w.quizID)
	l.attempt, l.revision = id, 0
	return err
}

// The actions. Each records its own requests.

func (w *world) autosave(l *learner) error {
	l.revision++
	body := json.RawMessage(loadkit.AppendSave(nil, w.quizID, l.attempt, w.questions, l.revision))
	return w.timed(autosave, l, http.MethodPost, "/api/v1/attempts/progress", body)
}

func (w *world) submitAndRestart(l *learner) error {
	answers := map[string]string{}
	for _, q := range w.questions {
		answers[strconv.FormatInt(q, 10)] = "Bravo"
	}
	if err := w.timed(submit, l, http.MethodPost, fmt.Sprintf("/api/v1/attempts/%d/submit", l.attempt),
		map[string]any{"answers": answers}); err != nil {
		return err
	}
	t0 := time.Now()
	err := w.startAttempt(l)
	w.record(start, t0, err)
	return err
}

func (w *world) readQuiz(l *learner) error {
	return w.timed(quizRead, l, http.MethodGet, fmt.Sprintf("/api/v1/quizzes/%d", w.quizID), nil)
}

func (w *world) browseBank(l *learner) error {
	return w.timed(bank, l, http.MethodGet, fmt.Sprintf("/api/v1/questions/bank?limit=20&offset=%d", 20*l.rng.IntN(2)), nil)
}

func (w *world) search(l *learner) error {
	return w.timed(search, l, http.MethodGet, "/api/v1/search?q="+w.terms[l.rng.IntN(len(w.terms))], nil)
}

func (w *world) readArticle(l *learner) error {
	return w.timed(article, l, http.MethodGet, "/api/v1/articles/by-slug/"+w.slugs[l.rng.IntN(len(w.slugs))], nil)
}

// reviewCard opens the study queue and reviews its first card.
func (w *world) reviewCard(l *learner) error {
	var q struct {
		Items []struct {
			CardID int64 `json:"card_id"`
		} `json:"items"`
	}
	t0 := time.Now()
	err := w.api.Call(l.token, http.MethodGet, fmt.Sprintf("/api/v1/flashcards/study/queue?deck_id=%d", w.deckID), nil, nil, &q)
	w.record(cardQueue, t0, err)
	if err != nil || len(q.Items) == 0 {
		return err
	}
	card := q.Items[0].CardID
	ratings := []string{"again", "hard", "good", "good", "easy"}
	return w.timed(review, l, http.MethodPost, fmt.Sprintf("/api/v1/flashcards/cards/%d/review", card),
		map[string]any{"rating": ratings[l.rng.IntN(len(ratings))], "duration_ms": 3000 + l.rng.IntN(5000)})
}

func (w *world) timed(r route, l *learner, method, path string, body any) error {
	t0 := time.Now()
	err := w.api.Call(l.token, method, path, http.Header{"X-Quiz-Session": {"load-device-" + strconv.Itoa(l.i)}}, body, nil)
	w.record(r, t0, err)
	return err
}

// record keeps a request's latency (or error) when it began inside the
// measured window.
func (w *world) record(r route, t0 time.Time, err error) {
	if t0.Before(w.from) || t0.After(w.end) {
		return
	}
	took := time.Since(t0)
	w.mu.Lock()
	defer w.mu.Unlock()
	s := w.stats[r]
	if s == nil {
		s = &stat{}
		w.stats[r] = s
	}
	if err != nil {
		s.errors++
		if s.firstErr == nil {
			s.firstErr = err
		}
		return
	}
	s.latencies = append(s.latencies, took)
}

type rssSample struct {
	at    time.Duration
	bytes int64
}

// drive lets every learner act until the window ends, each pausing a
// random think time (mean o.think) between actions, and samples RSS.
func (w *world) drive(o options) (map[route]*stat, []rssSample) {
	begin := time.Now()
	w.from, w.end = begin.Add(o.warmup), begin.Add(o.warmup+o.duration)
	total := 0
	for _, m := range mix {
		total += m.weight
	}
	var wg sync.WaitGroup
	for _, l := range w.learners {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Spread the first actions over one think time.
			time.Sleep(time.Duration(l.rng.Int64N(int64(o.think) + 1)))
			for time.Now().Before(w.end) {
				pick := l.rng.IntN(total)
				for _, m := range mix {
					if pick < m.weight {
						_ = m.act(w, l) // recorded by the action
						break
					}
					pick -= m.weight
				}
				time.Sleep(time.Duration(l.rng.ExpFloat64() * float64(o.think)))
			}
		}()
	}
	var rss []rssSample
	if o.soak {
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			t := time.NewTicker(o.sample)
			defer t.Stop()
			for {
				rss = append(rss, rssSample{time.Since(begin), residentBytes()})
				select {
				case <-stop:
					return
				case <-t.C:
				}
			}
		}()
		wg.Wait()
		close(stop)
		<-done
		rss = append(rss, rssSample{time.Since(begin), residentBytes()})
	} else {
		wg.Wait()
	}
	return w.stats, rss
}

// residentBytes is VmRSS of this process (the service and the load
// generator share it).
func residentBytes() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

func printTable(stats map[route]*stat, rss []rssSample, o options) {
	routes := make([]route, 0, len(stats))
	for r := range stats {
		routes = append(routes, r)
	}
	sort.Slice(routes, func(i, j int) bool { return len(stats[routes[i]].latencies) > len(stats[routes[j]].latencies) })
	fmt.Printf("\n%d learners, think time %s, %s measured after %s warm-up, %d CPUs (%s).\n\n",
		o.learners, o.think, o.duration, o.warmup, runtime.NumCPU(), runtime.Version())
	fmt.Println("| Route | Requests | Throughput | p50 | p95 | p99 | Errors |")
	fmt.Println("|---|---|---|---|---|---|---|")
	var all []time.Duration
	errs := 0
	for _, r := range routes {
		s := stats[r]
		slices.Sort(s.latencies)
		all = append(all, s.latencies...)
		errs += s.errors
		fmt.Printf("| `%s` | %d | %.1f/s | %s | %s | %s | %d |\n", r, len(s.latencies), float64(len(s.latencies))/o.duration.Seconds(),
			loadkit.Millis(loadkit.Percentile(s.latencies, .5)), loadkit.Millis(loadkit.Percentile(s.latencies, .95)), loadkit.Millis(loadkit.Percentile(s.latencies, .99)), s.errors)
		if s.firstErr != nil {
			log.Printf("%s: %d errors; first: %v", r, s.errors, s.firstErr)
		}
	}
	slices.Sort(all)
	fmt.Printf("| all | %d | %.1f/s | %s | %s | %s | %d |\n", len(all), float64(len(all))/o.duration.Seconds(),
		loadkit.Millis(loadkit.Percentile(all, .5)), loadkit.Millis(loadkit.Percentile(all, .95)), loadkit.Millis(loadkit.Percentile(all, .99)), errs)
	if len(rss) > 0 {
		fmt.Println("\n| Elapsed | RSS (service and load generator, one process) |")
		fmt.Println("|---|---|")
		for _, s := range rss {
			fmt.Printf("| %s | %s |\n", s.at.Round(time.Second), mib(s.bytes))
		}
	}
}

func mib(b int64) string { return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20)) }
