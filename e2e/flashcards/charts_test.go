package flashcards_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

func cardCharts(u *User) map[string]any {
	res := u.Client(h).Get(api + "/flashcards/stats/charts")
	ExpectWithOffset(1, res).To(HaveStatus(200))
	return res.Map()
}

// dueRow is one day of the due chart as numbers.
type dueRow struct{ New, Learning, Review int }

func dueRows(c map[string]any) ([]string, []dueRow) {
	var days []string
	var rows []dueRow
	for _, d := range c["due"].([]any) {
		m := d.(map[string]any)
		days = append(days, m["day"].(string))
		rows = append(rows, dueRow{int(m["new"].(float64)), int(m["learning"].(float64)), int(m["review"].(float64))})
	}
	return days, rows
}

var _ = Describe("Flashcard statistics", func() {
	It("counts cards due per day by state, true retention by interval and the stability spread from what is stored", func() {
		learner, other := h.NewUser(auth.RoleUser), h.NewUser(auth.RoleUser)
		before := cardCharts(learner)
		d, cards := sharedDeck("Statistics",
			map[string]any{"card_type": "basic", "front": "1", "back": "1"},
			map[string]any{"card_type": "basic", "front": "2", "back": "2"},
			map[string]any{"card_type": "basic", "front": "3", "back": "3"},
			map[string]any{"card_type": "basic", "front": "4", "back": "4"},
			map[string]any{"card_type": "basic", "front": "5", "back": "5"},
			map[string]any{"card_type": "basic", "front": "6", "back": "6"},
			map[string]any{"card_type": "basic", "front": "7", "back": "7"})
		Expect(cardCharts(learner)["unseen"]).To(BeNumerically("==", before["unseen"].(float64)+7))

		// Five cards started today (five new ones of the twenty a day), then
		// moved to known states and due dates; two stay unseen.
		for _, c := range cards[:5] {
			Expect(review(learner, c, map[string]any{"rating": "good"})).To(HaveStatus(200))
		}
		today := time.Now().UTC().Truncate(24 * time.Hour)
		for i, st := range []struct {
			state     int
			due       time.Time
			stability float64
		}{
			{2, today.AddDate(0, 0, -2).Add(time.Hour), 5},     // overdue: today, 3 to 7 days
			{2, today.AddDate(0, 0, 3).Add(9 * time.Hour), 40}, // day 3, 30 to 90 days
			{1, today.AddDate(0, 0, 5).Add(time.Hour), 0.5},    // learning on day 5, under a day
			{3, today.AddDate(0, 0, 5).Add(2 * time.Hour), 2},  // relearning on day 5, 1 to 3 days
			{2, today.AddDate(0, 0, 40), 400},                  // beyond the chart, over a year
		} {
			Expect(h.App.DB.Conn(ctxb).Exec(`UPDATE flashcards.card_states SET state = ?, due = ?, stability = ?
				WHERE user_id = ? AND card_id = ?`, st.state, st.due, st.stability, learner.ID, cards[i]).Error).To(Succeed())
		}
		// Reviews of cards in review after known intervals (the five above
		// were of new cards: they are not retention).
		for _, r := range []struct{ elapsed, rating int }{{1, 3}, {1, 1}, {10, 3}, {12, 2}, {14, 1}, {100, 4}} {
			Expect(h.App.DB.Conn(ctxb).Exec(`INSERT INTO flashcards.review_logs (user_id, card_id, deck_id, rating, state,
				elapsed_days, scheduled_days, reviewed_at) VALUES (?, ?, ?, ?, 2, ?, ?, now() - interval '3 days')`,
				learner.ID, cards[0], d, r.rating, r.elapsed, r.elapsed).Error).To(Succeed())
		}
		// A relearning review is not counted.
		Expect(h.App.DB.Conn(ctxb).Exec(`INSERT INTO flashcards.review_logs (user_id, card_id, deck_id, rating, state,
			elapsed_days, scheduled_days, reviewed_at) VALUES (?, ?, ?, 1, 3, 1, 1, now() - interval '3 days')`,
			learner.ID, cards[0], d).Error).To(Succeed())

		c := cardCharts(learner)
		unseen := int(c["unseen"].(float64))
		Expect(unseen).To(Equal(int(before["unseen"].(float64)) + 2))
		Expect(c["new_per_day"]).To(BeNumerically("==", 20))
		days, rows := dueRows(c)
		Expect(days).To(HaveLen(30))
		Expect(days[0]).To(Equal(today.Format(time.DateOnly)))
		Expect(days[29]).To(Equal(today.AddDate(0, 0, 29).Format(time.DateOnly)))
		// New cards: fifteen left today, twenty a day after, until the unseen run out.
		left := unseen
		for i, r := range rows {
			room := 20
			if i == 0 {
				room = 15
			}
			Expect(r.New).To(Equal(min(left, room)), "new cards on day %d", i)
			left -= r.New
		}
		started := make([]dueRow, 30)
		for i, r := range rows {
			started[i] = dueRow{Learning: r.Learning, Review: r.Review}
		}
		want := make([]dueRow, 30)
		want[0], want[3], want[5] = dueRow{Review: 1}, dueRow{Review: 1}, dueRow{Learning: 2}
		Expect(started).To(Equal(want))

		type bucket = map[string]any
		Expect(c["retention"]).To(Equal([]any{
			bucket{"min_days": 0.0, "max_days": 1.0, "reviews": 2.0, "passed": 1.0, "retention": 50.0},
			bucket{"min_days": 2.0, "max_days": 3.0, "reviews": 0.0, "passed": 0.0, "retention": nil},
			bucket{"min_days": 4.0, "max_days": 7.0, "reviews": 0.0, "passed": 0.0, "retention": nil},
			bucket{"min_days": 8.0, "max_days": 14.0, "reviews": 3.0, "passed": 2.0, "retention": 66.67},
			bucket{"min_days": 15.0, "max_days": 30.0, "reviews": 0.0, "passed": 0.0, "retention": nil},
			bucket{"min_days": 31.0, "max_days": 90.0, "reviews": 0.0, "passed": 0.0, "retention": nil},
			bucket{"min_days": 91.0, "max_days": nil, "reviews": 1.0, "passed": 1.0, "retention": 100.0},
		}))
		var spread []float64
		for _, b := range c["stability"].([]any) {
			spread = append(spread, b.(map[string]any)["cards"].(float64))
		}
		// Bounds 0, 1, 3, 7, 14, 30, 90, 180, 365 days.
		Expect(spread).To(Equal([]float64{1, 1, 1, 0, 0, 1, 0, 0, 1}))
		Expect(c["stability"].([]any)[8]).To(Equal(bucket{"min_days": 365.0, "max_days": nil, "cards": 1.0}))

		By("a binned deck's cards leave the due chart and the spread; the reviews stay history")
		Expect(mod.Client(h).Delete(deckPath(d, ""))).To(HaveStatus(204))
		c = cardCharts(learner)
		_, rows = dueRows(c)
		for _, r := range rows {
			Expect(r.Learning + r.Review).To(BeZero())
		}
		for _, b := range c["stability"].([]any) {
			Expect(b.(map[string]any)["cards"]).To(BeNumerically("==", 0))
		}
		Expect(c["retention"].([]any)[0]).To(HaveKeyWithValue("reviews", 2.0))

		By("another learner sees only their own")
		o := cardCharts(other)
		_, rows = dueRows(o)
		for _, r := range rows {
			Expect(r.Learning + r.Review).To(BeZero())
		}
		for _, b := range o["retention"].([]any) {
			Expect(b.(map[string]any)["reviews"]).To(BeNumerically("==", 0))
		}
	})
})
