package flashcards_test

// BenchmarkFlashcards measures, through the whole app on loopback (HTTP,
// auth, service, queries), a learner's due queue across every deck they
// may study and a review, for a learner with 50,000 scheduled cards. It is
// not run by `go test` without -bench:
//
//	go test ./e2e/flashcards/ -run '^$' -bench Flashcards -benchtime 400x
//
// Data: 10 shared decks of 5,000 basic cards; the learner has a state for
// every card, about 40% overdue (last reviewed 1 to 400 days ago, stability
// 0.5 to 400 days) and the rest due over the next year. The daily cap is
// raised so every queue request runs the full query.

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/loadkit"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/config"
)

const benchCards = 50_000

func BenchmarkFlashcards(b *testing.B) {
	ctx := context.Background()
	h, err := harness.Start(harness.WithConfig(func(c *config.Config) { c.Set("flashcards.reviews_per_day", 1_000_000) }))
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = h.Stop() }()
	mod, learner := h.NewUser(auth.RoleModerator), h.NewUser(auth.RoleUser)
	conn := h.App.DB.Conn(ctx)
	for _, q := range []string{
		`INSERT INTO flashcards.decks (title, category_id, user_id, is_shared)
			SELECT 'Bench ' || g, NULL, ?, true FROM generate_series(1, 10) g`,
		`INSERT INTO flashcards.cards (deck_id, card_type, front, back, created_by)
			SELECT d.id, 'basic', 'Question ' || g, 'Answer ' || g, ?
			FROM flashcards.decks d, generate_series(1, ?) g WHERE d.title LIKE 'Bench %'`,
	} {
		args := []any{mod.ID}
		if strings.Contains(q, "generate_series(1, ?)") {
			args = append(args, benchCards/10)
		}
		if err := conn.Exec(q, args...).Error; err != nil {
			b.Fatal(err)
		}
	}
	err = conn.Exec(`INSERT INTO flashcards.card_states (user_id, card_id, deck_id, due, stability, difficulty,
		elapsed_days, scheduled_days, reps, lapses, state, last_review)
		SELECT ?, c.id, c.deck_id, r.last + make_interval(days => r.ivl), r.stab, 1 + random() * 9, 0, r.ivl, 3, 0, 2, r.last
		FROM flashcards.cards c
		CROSS JOIN LATERAL (SELECT now() - make_interval(days => 1 + (random() * 400)::int) AS last,
			(1 + random() * 400)::int AS ivl, 0.5 + random() * 400 AS stab WHERE c.id > 0) r`, learner.ID).Error
	if err != nil {
		b.Fatal(err)
	}
	if err := conn.Exec(`ANALYZE flashcards.card_states; ANALYZE flashcards.cards; ANALYZE flashcards.decks`).Error; err != nil {
		b.Fatal(err)
	}
	var due int64
	conn.Raw(`SELECT count(*) FROM flashcards.card_states WHERE user_id = ? AND due <= now()`, learner.ID).Scan(&due)
	var ids []int64
	conn.Raw(`SELECT id FROM flashcards.cards ORDER BY random() LIMIT ?`, max(b.N, 1)).Scan(&ids)

	client := &http.Client{Timeout: 10 * time.Second}
	do := func(method, path, body string) (time.Duration, error) {
		req, _ := http.NewRequest(method, h.BaseURL+"/api/v1"+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+learner.Token)
		req.Header.Set("Content-Type", "application/json")
		return loadkit.Timed(client, req)
	}
	if _, err := do(http.MethodGet, "/flashcards/study/queue", ""); err != nil {
		b.Fatal(err)
	}
	var queue, review []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		d, err := do(http.MethodGet, "/flashcards/study/queue?limit=50", "")
		if err != nil {
			b.Fatal(err)
		}
		queue = append(queue, d)
		d, err = do(http.MethodPost, fmt.Sprintf("/flashcards/cards/%d/review", ids[i%len(ids)]), `{"rating":"good"}`)
		if err != nil {
			b.Fatal(err)
		}
		review = append(review, d)
	}
	b.StopTimer()
	b.ReportMetric(ms(pct(queue, 95)), "queue-p95-ms")
	b.ReportMetric(ms(pct(review, 99)), "review-p99-ms")
	fmt.Printf("cards=%d due=%d n=%d queue p50=%.2fms p95=%.2fms; review p50=%.2fms p99=%.2fms\n", benchCards, due,
		b.N, ms(pct(queue, 50)), ms(pct(queue, 95)), ms(pct(review, 50)), ms(pct(review, 99)))
}

func pct(d []time.Duration, p int) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[max((len(s)*p+99)/100, 1)-1]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
