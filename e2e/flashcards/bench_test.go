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
// 0.5 to 400 days) and the rest due over the next year. The rest of the
// site (siteCards, 10 million cards in all) is built with generate_series
// in SQL, not through the API. The daily cap is raised so every queue
// request runs the full query. The queue reads are timed first, then the
// reviews (each of a random card of the learner's decks).

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/loadkit"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/config"
)

const benchCards = 50_000

// siteCards is how many cards the whole site holds (issue 37's 10 million),
// in 2,000 private decks of other learners, each of whom has also studied
// 99 of its cards; ROUNDS_BENCH_SITE_CARDS sets fewer for a quick run.
func siteCards() int {
	if n, err := strconv.Atoi(os.Getenv("ROUNDS_BENCH_SITE_CARDS")); err == nil {
		return n
	}
	return 10_000_000
}

func BenchmarkFlashcards(b *testing.B) {
	ctx := context.Background()
	h, err := harness.Start(harness.WithConfig(func(c *config.Config) { c.Set("flashcards.reviews_per_day", 1_000_000) }))
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = h.Stop() }()
	mod, learner := h.NewUser(auth.RoleModerator), h.NewUser(auth.RoleUser)
	exec := func(ctx context.Context, q string, args ...any) error {
		return h.App.DB.Conn(ctx).Exec(q, args...).Error
	}
	site := siteCards()
	err = loadkit.Seed(ctx, exec,
		loadkit.Statement{SQL: `INSERT INTO flashcards.decks (title, category_id, user_id, is_shared)
			SELECT 'Bench ' || g, NULL, ?, true FROM generate_series(1, 10) g`, Args: []any{mod.ID}},
		loadkit.Statement{SQL: `INSERT INTO flashcards.cards (deck_id, card_type, front, back, created_by)
			SELECT d.id, 'basic', 'Question ' || g, 'Answer ' || g, ?
			FROM flashcards.decks d, generate_series(1, ?) g WHERE d.title LIKE 'Bench %'`, Args: []any{mod.ID, benchCards / 10}},
		loadkit.Statement{SQL: `INSERT INTO flashcards.decks (title, category_id, user_id, is_shared)
			SELECT 'Site ' || g, NULL, ? + 1000 + g, false FROM generate_series(1, 2000) g`, Args: []any{learner.ID}},
		loadkit.Statement{SQL: `INSERT INTO flashcards.cards (deck_id, card_type, front, back, created_by)
			SELECT d.id, 'basic', 'Q' || g, 'A' || g, d.user_id
			FROM flashcards.decks d, generate_series(1, ?) g WHERE d.title LIKE 'Site %'`, Args: []any{max(site-benchCards, 0) / 2000}},
		loadkit.Statement{SQL: `INSERT INTO flashcards.card_states (user_id, card_id, deck_id, due, stability, difficulty,
			elapsed_days, scheduled_days, reps, lapses, state, last_review)
			SELECT d.user_id, c.id, c.deck_id, now() + interval '3 days', 10, 5, 0, 10, 3, 0, 2, now() - interval '7 days'
			FROM flashcards.decks d JOIN flashcards.cards c ON c.deck_id = d.id
			WHERE d.title LIKE 'Site %' AND length(c.front) <= 3`}, // Q1 to Q99
		loadkit.Statement{SQL: `INSERT INTO flashcards.card_states (user_id, card_id, deck_id, due, stability, difficulty,
			elapsed_days, scheduled_days, reps, lapses, state, last_review)
			SELECT ?, c.id, c.deck_id, r.last + make_interval(days => r.ivl), r.stab, 1 + random() * 9, 0, r.ivl, 3, 0, 2, r.last
			FROM flashcards.cards c JOIN flashcards.decks d ON d.id = c.deck_id AND d.title LIKE 'Bench %'
			CROSS JOIN LATERAL (SELECT now() - make_interval(days => 1 + (random() * 400)::int) AS last,
				(1 + random() * 400)::int AS ivl, 0.5 + random() * 400 AS stab WHERE c.id > 0) r`, Args: []any{learner.ID}},
		loadkit.Statement{SQL: `VACUUM ANALYZE flashcards.card_states`},
		loadkit.Statement{SQL: `VACUUM ANALYZE flashcards.cards`},
		loadkit.Statement{SQL: `ANALYZE flashcards.decks`})
	if err != nil {
		b.Fatal(err)
	}
	conn := h.App.DB.Conn(ctx)
	var due, cards int64
	conn.Raw(`SELECT count(*) FROM flashcards.card_states WHERE user_id = ? AND due <= now()`, learner.ID).Scan(&due)
	conn.Raw(`SELECT count(*) FROM flashcards.cards`).Scan(&cards)
	var ids []int64
	conn.Raw(`SELECT c.id FROM flashcards.cards c JOIN flashcards.decks d ON d.id = c.deck_id
		WHERE d.title LIKE 'Bench %' ORDER BY random() LIMIT ?`, max(b.N, 1)).Scan(&ids)

	api := loadkit.NewAPI(h.BaseURL, 2, 10*time.Second)
	if err := api.Get(learner.Token, "/api/v1/flashcards/study/queue"); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	queue, err := loadkit.Timed(b.N, func(int) error { return api.Get(learner.Token, "/api/v1/flashcards/study/queue?limit=50") })
	if err != nil {
		b.Fatal(err)
	}
	review, err := loadkit.Timed(b.N, func(i int) error {
		return api.Call(learner.Token, http.MethodPost, fmt.Sprintf("/api/v1/flashcards/cards/%d/review", ids[i%len(ids)]),
			nil, reviewBody{Rating: "good"}, nil)
	})
	if err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	b.ReportMetric(ms(loadkit.Percentile(queue, 0.95)), "queue-p95-ms")
	b.ReportMetric(ms(loadkit.Percentile(review, 0.99)), "review-p99-ms")
	fmt.Printf("site cards=%d learner cards=%d due=%d n=%d queue p50=%.2fms p95=%.2fms; review p50=%.2fms p99=%.2fms\n",
		cards, benchCards, due, b.N, ms(loadkit.Percentile(queue, 0.5)), ms(loadkit.Percentile(queue, 0.95)),
		ms(loadkit.Percentile(review, 0.5)), ms(loadkit.Percentile(review, 0.99)))
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
