// Package loadkit is what the load suite (e2e/load) and the benchmarks
// (scripts/bench and the scale benchmarks it runs) share: a JSON client of
// the API as a learner's device uses it, the quiz both sit, latency
// percentiles and the bench table's rows.
package loadkit

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// API calls one running service.
type API struct {
	Base string
	HTTP *http.Client
}

// NewAPI is a client with an idle connection for each of conns callers
// (a load keeps every learner's connection open, as browsers do).
func NewAPI(base string, conns int, timeout time.Duration) *API {
	return &API{Base: base, HTTP: &http.Client{Timeout: timeout, Transport: &http.Transport{
		MaxIdleConns: conns + 10, MaxIdleConnsPerHost: conns + 10, IdleConnTimeout: time.Minute}}}
}

// Call sends one JSON request with the bearer token (and any extra
// header) and decodes a 2xx answer into out (nil to discard it); any
// other status is an error carrying the body. A json.RawMessage body is
// sent as it is (a load's generator builds its bodies without reflection:
// it shares the machine with the service it measures).
func (a *API) Call(tok, method, path string, header http.Header, body, out any) error {
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case json.RawMessage:
		rd = bytes.NewReader(b)
	default:
		enc, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(enc)
	}
	req, err := http.NewRequest(method, a.Base+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header[k] = v
	}
	res, err := a.HTTP.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode/100 == 2 && out == nil {
		_, err = io.Copy(io.Discard, res.Body)
		return err
	}
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

// Quiz is the published quiz a load sits.
type Quiz struct {
	ID        int64
	Questions []int64
}

// PublishQuiz files n four-option MCQs as a moderator (tok), topic(i)
// naming what question i is about, and publishes them as one quiz with a
// ten-hour limit, so no sitting runs out during a load.
func (a *API) PublishQuiz(tok, title string, n int, topic func(i int) string) (*Quiz, error) {
	quiz := &Quiz{}
	for i := range n {
		var q struct{ ID int64 }
		body := map[string]any{"question_text": fmt.Sprintf("%s question %d on %s: which is the second letter?", title, i, topic(i)),
			"question_type": "mcq", "options": []string{"Alpha", "Bravo", "Charlie", "Delta"},
			"correct_answer": "Bravo", "explanation": "Bravo is the second letter of the NATO alphabet, in " + topic(i) + "."}
		if err := a.Call(tok, http.MethodPost, "/api/v1/questions/create", nil, body, &q); err != nil {
			return nil, err
		}
		quiz.Questions = append(quiz.Questions, q.ID)
	}
	var made struct{ ID int64 }
	if err := a.Call(tok, http.MethodPost, "/api/v1/questions/from-bank", nil,
		map[string]any{"title": title, "question_ids": quiz.Questions, "time_limit_minutes": 600}, &made); err != nil {
		return nil, err
	}
	quiz.ID = made.ID
	return quiz, a.Call(tok, http.MethodPatch, fmt.Sprintf("/api/v1/quizzes/%d/publish?published=true", quiz.ID), nil, nil, nil)
}

// Spread calls fn once per item from clients workers at once, each taking
// the next item, and returns the latency of every call that succeeded, how
// many failed and the first failure.
func Spread[T any](clients int, items []T, fn func(T) error) (latencies []time.Duration, failed int, first error) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	next := make(chan T)
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for it := range next {
				t0 := time.Now()
				err := fn(it)
				took := time.Since(t0)
				mu.Lock()
				if err != nil {
					failed++
					first = cmp.Or(first, err)
				} else {
					latencies = append(latencies, took)
				}
				mu.Unlock()
			}
		}()
	}
	for _, it := range items {
		next <- it
	}
	close(next)
	wg.Wait()
	return latencies, failed, first
}

// TimedRequest sends req on c and reads the answer whole, giving how long that
// took; a status not among want (200 when none) is an error.
func TimedRequest(c *http.Client, req *http.Request, want ...int) (time.Duration, error) {
	t0 := time.Now()
	res, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, res.Body)
	d := time.Since(t0)
	if len(want) == 0 {
		want = []int{http.StatusOK}
	}
	if !slices.Contains(want, res.StatusCode) {
		return 0, fmt.Errorf("%s %s: status %d", req.Method, req.URL.Path, res.StatusCode)
	}
	return d, nil
}

// Percentile reads the p-th quantile (0 to 1) of sorted latencies; 0 for none.
func Percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[min(len(sorted)-1, int(float64(len(sorted))*p))]
}

// Millis writes a latency for a report table.
func Millis(d time.Duration) string {
	return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 1, 64) + " ms"
}

// Start begins the caller's attempt at the quiz and returns its id.
func (a *API) Start(tok string, quizID int64) (int64, error) {
	var at struct{ ID int64 }
	err := a.Call(tok, http.MethodPost, fmt.Sprintf("/api/v1/attempts/start?quiz_id=%d", quizID), nil, nil, &at)
	return at.ID, err
}

// Row is one line of the bench table. The scale benchmarks, which run as
// their own programs (they seed 100,000 questions inside their modules),
// print theirs with EmitRow; scripts/bench reads them back with ParseRows
// and prints every row in one table with WriteTable.
type Row struct {
	Path   string  `json:"path"`
	Rate   float64 `json:"rate"` // requests per second
	P50    float64 `json:"p50_ms"`
	P95    float64 `json:"p95_ms"`
	P99    float64 `json:"p99_ms"`
	Errors int     `json:"errors"`
	Limit  string  `json:"limit"` // what the machine does without Rounds, or a quality figure; "" for none
	Ratio  float64 `json:"ratio"` // Rounds' rate over the limit's; 0 for none
}

// NewRow summarises latencies (in any order) taken over window.
func NewRow(path string, latencies []time.Duration, window time.Duration, errors int) Row {
	s := slices.Clone(latencies)
	slices.Sort(s)
	ms := func(p float64) float64 { return float64(Percentile(s, p)) / float64(time.Millisecond) }
	r := Row{Path: path, P50: ms(.50), P95: ms(.95), P99: ms(.99), Errors: errors}
	if window > 0 {
		r.Rate = float64(len(s)) / window.Seconds()
	}
	return r
}

// rowPrefix marks a row among a benchmark's other output, goalPrefix a
// goal.
const (
	rowPrefix  = "bench-row: "
	goalPrefix = "bench-goal: "
)

// EmitRow writes r as one line ParseRows finds.
func EmitRow(w io.Writer, r Row) error { return emit(w, rowPrefix, r) }

// EmitGoal writes g as one line ParseGoals finds.
func EmitGoal(w io.Writer, g Goal) error { return emit(w, goalPrefix, g) }

func emit(w io.Writer, prefix string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s%s\n", prefix, b)
	return err
}

// ParseRows reads the rows EmitRow wrote among other output (go test's
// lines, progress), in order.
func ParseRows(out io.Reader) ([]Row, error) { return parse[Row](out, rowPrefix) }

// ParseGoals reads the goals EmitGoal wrote among other output, in order.
func ParseGoals(out io.Reader) ([]Goal, error) { return parse[Goal](out, goalPrefix) }

func parse[T any](out io.Reader, prefix string) ([]T, error) {
	var got []T
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		_, js, ok := strings.Cut(sc.Text(), prefix)
		if !ok {
			continue
		}
		var v T
		if err := json.Unmarshal([]byte(js), &v); err != nil {
			return nil, fmt.Errorf("%s%q: %w", prefix, js, err)
		}
		got = append(got, v)
	}
	return got, sc.Err()
}

// Goal is one of an issue's goals as a run measured it: what is asked
// (with its figure), what was measured, and whether that meets it.
type Goal struct {
	Goal     string `json:"goal"`
	Measured string `json:"measured"`
	Met      bool   `json:"met"`
}

// WriteGoals prints goals as a Markdown table: met or not met, each.
func WriteGoals(w io.Writer, goals []Goal) {
	fmt.Fprintln(w, "| Goal | Measured | |")
	fmt.Fprintln(w, "|---|---|---|")
	for _, g := range goals {
		verdict := "**not met**"
		if g.Met {
			verdict = "met"
		}
		fmt.Fprintf(w, "| %s | %s | %s |\n", g.Goal, g.Measured, verdict)
	}
}

// WriteTable prints rows as the Markdown table of docs/performance.md.
func WriteTable(w io.Writer, rows []Row) {
	fmt.Fprintln(w, "| Path | Rounds | p50 / p95 / p99 | errors | The machine's limit, same run | Ratio |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	dash := func(s string) string {
		if s == "" {
			return "—"
		}
		return s
	}
	for _, r := range rows {
		rate, ratio := "", ""
		if r.Rate > 0 {
			rate = strconv.FormatFloat(r.Rate, 'f', 0, 64) + "/s"
		}
		if r.Ratio > 0 {
			ratio = strconv.FormatFloat(r.Ratio, 'f', 2, 64)
		}
		fmt.Fprintf(w, "| %s | %s | %.1f / %.1f / %.1f ms | %d | %s | %s |\n", r.Path, dash(rate),
			r.P50, r.P95, r.P99, r.Errors, dash(r.Limit), dash(ratio))
	}
}
