package loadkit

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestPercentile(t *testing.T) {
	var l []time.Duration
	for i := 1; i <= 100; i++ {
		l = append(l, time.Duration(i)*time.Millisecond)
	}
	for _, c := range []struct {
		p    float64
		want time.Duration
	}{{.5, 51 * time.Millisecond}, {.99, 100 * time.Millisecond}, {1, 100 * time.Millisecond}, {0, time.Millisecond}} {
		if got := Percentile(l, c.p); got != c.want {
			t.Errorf("Percentile(%v) = %v, want %v", c.p, got, c.want)
		}
	}
	if Percentile(nil, .5) != 0 {
		t.Error("no latencies have no percentile")
	}
	if got := Millis(1500 * time.Microsecond); got != "1.5 ms" {
		t.Errorf("Millis = %q", got)
	}
}

func TestRowsRoundTrip(t *testing.T) {
	var lat []time.Duration
	for i := 100; i >= 1; i-- { // any order
		lat = append(lat, time.Duration(i)*time.Millisecond)
	}
	search := NewRow("`GET /search`", lat, 2*time.Second, 0)
	search.Limit = "recall@10 0.966 at ef_search 200"
	bank := Row{Path: "`GET /questions/bank`", Rate: 80, P50: 10, P95: 15.94, P99: 20, Limit: "raw SQL", Ratio: 0.8}
	if search.Rate != 50 || search.P50 != 51 || search.P95 != 96 || search.P99 != 100 {
		t.Fatalf("NewRow = %+v", search)
	}
	var out strings.Builder
	out.WriteString("goos: linux\nBenchmarkBankListing-2  1400  1.2 ns/op\n")
	for _, r := range []Row{search, bank} {
		if err := EmitRow(&out, r); err != nil {
			t.Fatal(err)
		}
		out.WriteString("PASS\n")
	}
	got, err := ParseRows(strings.NewReader(out.String()))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, []Row{search, bank}) {
		t.Fatalf("ParseRows = %+v", got)
	}
	if _, err := ParseRows(strings.NewReader(rowPrefix + "{not json\n")); err == nil {
		t.Error("a garbled row is an error, not a silently missing row")
	}

	var table strings.Builder
	WriteTable(&table, []Row{bank, {Path: "submit", P50: 1, P95: 2, P99: 3, Errors: 2}})
	want := "| Path | Rounds | p50 / p95 / p99 | errors | The machine's limit, same run | Ratio |\n" +
		"|---|---|---|---|---|---|\n" +
		"| `GET /questions/bank` | 80/s | 10.0 / 15.9 / 20.0 ms | 0 | raw SQL | 0.80 |\n" +
		"| submit | — | 1.0 / 2.0 / 3.0 ms | 2 | — | — |\n"
	if table.String() != want {
		t.Errorf("WriteTable:\n%s\nwant:\n%s", table.String(), want)
	}
}

func TestSpreadCallsEachItemOnceAndCountsFailures(t *testing.T) {
	items := make([]int, 100)
	for i := range items {
		items[i] = i
	}
	var mu sync.Mutex
	seen := map[int]int{}
	boom := errors.New("boom")
	lat, failed, first := Spread(7, items, func(i int) error {
		mu.Lock()
		seen[i]++
		mu.Unlock()
		if i%10 == 0 {
			return boom
		}
		return nil
	})
	if len(seen) != 100 || len(lat) != 90 || failed != 10 || first != boom {
		t.Fatalf("seen %d items, %d latencies, %d failed, first %v", len(seen), len(lat), failed, first)
	}
	for i, n := range seen {
		if n != 1 {
			t.Fatalf("item %d called %d times", i, n)
		}
	}
}

func TestWireKeepsOneConnectionAndReadsEveryAnswer(t *testing.T) {
	var conns, requests atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		n := requests.Add(1)
		switch {
		case r.Header.Get("Authorization") != "Bearer tok" || r.Header.Get("X-Quiz-Session") != "dev" ||
			r.Header.Get("Content-Type") != "application/json" || string(body) != `{"n":1}`:
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, "got %v %q", r.Header, body)
		case n == 3:
			w.Header().Set("Connection", "close") // the next request dials again
			fmt.Fprint(w, strings.Repeat("x", 100_000))
		case n == 5:
			w.WriteHeader(http.StatusConflict)
			fmt.Fprint(w, "refused")
		default:
			fmt.Fprint(w, strings.Repeat("y", 100_000)) // more than the reader's buffer
		}
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	w, err := NewWire(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	req := w.AppendRequest(nil, http.MethodPost, "/save", "tok", []Header{{"X-Quiz-Session", "dev"}}, []byte(`{"n":1}`))
	for i := 1; i <= 4; i++ {
		if err := w.Do(req); err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
	}
	if err := w.Do(req); err == nil || err.Error() != "409 refused" {
		t.Fatalf("a 409 read as %v", err)
	}
	if err := w.Do(req); err != nil {
		t.Fatalf("after a refusal the connection should still serve: %v", err)
	}
	if got := conns.Load(); got != 2 {
		t.Fatalf("%d connections for 6 requests, one of them answered with Connection: close; want 2", got)
	}
}
