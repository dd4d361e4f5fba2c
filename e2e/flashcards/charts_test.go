package flashcards_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/contract"
	"github.com/roundsedu/rounds/platform/auth"
)

func cardCharts(u *User) contract.CardChartsResponse {
	res := u.Client(h).Get(api + "/flashcards/stats/charts")
	ExpectWithOffset(1, res).To(HaveStatus(200))
	return Body[contract.CardChartsResponse](res)
}

// dueRow is one day of the due chart as numbers.
type dueRow struct{ New, Learning, Review int }

func dueRows(c contract.CardChartsResponse) ([]string, []dueRow) {
	var days []string
	var rows []dueRow
	for _, d := range Items(c.Due) {
		days = append(days, d.Day)
		rows = append(rows, dueRow{int(d.New), int(d.Learning), int(d.Review)})
	}
	return days, rows
}

var _ = Describe("Flashcard statistics", func() {
	It("counts cards due per day by state, true retention by interval and the stability spread from what is stored", func() {
		learner, other := h.NewUser(auth.RoleUser), h.NewUser(auth.RoleUser)
		before := cardCharts(learner)
		d, cards := sharedDeck("Statistics",
			cardBody{CardType: "basic", Front: "1", Back: new("1")},
			cardBody{CardType: "basic", Front: "2", Back: new("2")},
			cardBody{CardType: "basic", Front: "3", Back: new("3")},
			cardBody{CardType: "basic", Front: "4", Back: new("4")},
			cardBody{CardType: "basic", Front: "5", Back: new("5")},
			cardBody{CardType: "basic", Front: "6", Back: new("6")},
			cardBody{CardType: "basic", Front: "7", Back: new("7")})
		Expect(cardCharts(learner).Unseen).To(Equal(before.Unseen + 7))

		// Five cards started today (five new ones of the twenty a day), then
		// moved to known states and due dates; two stay unseen.
		for _, c := range cards[:5] {
			Expect(review(learner, c, reviewBody{Rating: "good"})).To(HaveStatus(200))
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
		unseen := int(c.Unseen)
		Expect(c.Unseen).To(Equal(before.Unseen + 2))
		Expect(c.NewPerDay).To(BeEquivalentTo(20))
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

		type bucket = contract.RetentionBucketResponse
		Expect(Items(c.Retention)).To(Equal([]bucket{
			{MinDays: 0, MaxDays: new(int64(1)), Reviews: 2, Passed: 1, Retention: new(50.0)},
			{MinDays: 2, MaxDays: new(int64(3))},
			{MinDays: 4, MaxDays: new(int64(7))},
			{MinDays: 8, MaxDays: new(int64(14)), Reviews: 3, Passed: 2, Retention: new(66.67)},
			{MinDays: 15, MaxDays: new(int64(30))},
			{MinDays: 31, MaxDays: new(int64(90))},
			{MinDays: 91, Reviews: 1, Passed: 1, Retention: new(100.0)},
		}), "no reviews: a null retention")
		var spread []int64
		for _, b := range Items(c.Stability) {
			spread = append(spread, b.Cards)
		}
		// Bounds 0, 1, 3, 7, 14, 30, 90, 180, 365 days.
		Expect(spread).To(Equal([]int64{1, 1, 1, 0, 0, 1, 0, 0, 1}))
		Expect(Items(c.Stability)[8]).To(Equal(contract.StabilityBucketResponse{MinDays: 365, Cards: 1}), "no upper end")

		By("a binned deck's cards leave the due chart and the spread; the reviews stay history")
		Expect(mod.Client(h).Delete(deckPath(d, ""))).To(HaveStatus(204))
		c = cardCharts(learner)
		_, rows = dueRows(c)
		for _, r := range rows {
			Expect(r.Learning + r.Review).To(BeZero())
		}
		for _, b := range Items(c.Stability) {
			Expect(b.Cards).To(BeZero())
		}
		Expect(Items(c.Retention)[0].Reviews).To(BeEquivalentTo(2))

		By("another learner sees only their own")
		o := cardCharts(other)
		_, rows = dueRows(o)
		for _, r := range rows {
			Expect(r.Learning + r.Review).To(BeZero())
		}
		for _, b := range Items(o.Retention) {
			Expect(b.Reviews).To(BeZero())
		}
	})
})
