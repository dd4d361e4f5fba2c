package interchange_test

import (
	"context"
	"encoding/csv"
	"fmt"
	"strconv"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/modules/interchange/ankifixtures"
	"github.com/roundsedu/rounds/platform/auth"
)

// schedRow is a learner's stored state of a card.
type schedRow struct {
	CardID                             int64
	Due                                time.Time
	Stability, Difficulty              float64
	ScheduledDays, Reps, Lapses, State int
	LastReview                         time.Time
}

// logRow is a stored review.
type logRow struct {
	CardID                     int64
	Rating, State, ElapsedDays int
	ScheduledDays              int
	ReviewedAt                 time.Time
	DurationMs                 *int
}

// cardIDs lists a deck's card ids in the order written.
func cardIDs(deck int64) []int64 {
	var ids []int64
	Expect(h.App.DB.Conn(context.Background()).Raw(`SELECT id FROM flashcards.cards WHERE deck_id = ? ORDER BY id`,
		deck).Scan(&ids).Error).To(Succeed())
	return ids
}

// schedules reads a learner's states of a deck's cards and their reviews,
// keyed by the card's position in the deck (-1: not a card of it).
func schedules(u *User, deck int64) (map[int]schedRow, map[int][]logRow) {
	pos := map[int64]int{}
	for i, id := range cardIDs(deck) {
		pos[id] = i
	}
	conn := h.App.DB.Conn(context.Background())
	var states []schedRow
	Expect(conn.Raw(`SELECT card_id, due, stability, difficulty, scheduled_days, reps, lapses, state, last_review
		FROM flashcards.card_states WHERE user_id = ? AND deck_id = ?`, u.ID, deck).Scan(&states).Error).To(Succeed())
	var logs []logRow
	Expect(conn.Raw(`SELECT card_id, rating, state, elapsed_days, scheduled_days, reviewed_at, duration_ms
		FROM flashcards.review_logs WHERE user_id = ? AND deck_id = ? ORDER BY card_id, reviewed_at`, u.ID, deck).
		Scan(&logs).Error).To(Succeed())
	byState, byLog := map[int]schedRow{}, map[int][]logRow{}
	for _, s := range states {
		byState[pos[s.CardID]] = s
	}
	for _, l := range logs {
		byLog[pos[l.CardID]] = append(byLog[pos[l.CardID]], l)
	}
	return byState, byLog
}

func review(u *User, card int64, rating string, ms int) {
	Expect(u.Client(h).Post(fmt.Sprintf("/api/v1/flashcards/cards/%d/review", card),
		map[string]any{"rating": rating, "duration_ms": ms})).To(HaveStatus(200))
}

// studiedDeck imports a deck of a basic, a reversed and a cloze note (five
// cards) and has the moderator study four of them: a review card, a
// learning step, a lapse into relearning, and a card left new.
func studiedDeck(title string) int64 {
	cat := newCategory(title)
	res := importApkg(mod, fmt.Sprintf("category_id=%d", cat), apkg(ankifixtures.Package{DeckName: title,
		Notes: []ankifixtures.Note{
			{Model: ankifixtures.Basic, Fields: []string{"Mitral valve", "between LA and LV"}, Ords: []int{0}},
			{Model: ankifixtures.Reversed, Fields: []string{"Tachycardia", "HR > 100"}, Ords: []int{0, 1}},
			{Model: ankifixtures.Cloze, Fields: []string{"The {{c1::aorta}} leaves the {{c2::LV}}", ""}, Ords: []int{0, 1}},
		}}))
	Expect(res).To(HaveStatus(201))
	deck := int64(res.Map()["deck_id"].(float64))
	ids := cardIDs(deck)
	Expect(ids).To(HaveLen(5))
	review(mod, ids[0], "easy", 3100)  // basic: a review card, due in days
	review(mod, ids[1], "good", 2000)  // reversed, front to back: a learning step
	review(mod, ids[3], "easy", 1500)  // cloze c1: review...
	review(mod, ids[3], "again", 8000) // ...then a lapse: relearning
	review(mod, ids[4], "hard", 0)     // cloze c2: learning
	return deck
}

var _ = Describe("Anki scheduling and review history", func() {
	It("round-trips: an exported deck imports back with the same cards and the same schedule", func() {
		deck := studiedDeck("Anki schedule round trip")
		wantStates, wantLogs := schedules(mod, deck)
		Expect(wantStates).To(HaveLen(4))
		Expect(wantStates[3].Lapses).To(Equal(1))

		exp := mod.Client(h).Get(fmt.Sprintf("/api/v1/flashcard-decks/%d/export/apkg", deck))
		Expect(exp).To(HaveStatus(200))
		cat := newCategory("Anki schedule reimported")
		again := importApkg(mod, fmt.Sprintf("category_id=%d&title=Again", cat), exp.Body)
		Expect(again).To(HaveStatus(201))
		Expect(again.Map()["cards"]).To(BeNumerically("==", 5))
		copyDeck := int64(again.Map()["deck_id"].(float64))
		Expect(cardSides(copyDeck)).To(Equal(cardSides(deck)))

		gotStates, gotLogs := schedules(mod, copyDeck)
		Expect(gotStates).To(HaveLen(len(wantStates)))
		Expect(gotStates).NotTo(HaveKey(2), "the card never studied stays new")
		for i, want := range wantStates {
			got, ok := gotStates[i]
			Expect(ok).To(BeTrue(), "card %d", i)
			Expect([4]int{got.State, got.Reps, got.Lapses, got.ScheduledDays}).To(
				Equal([4]int{want.State, want.Reps, want.Lapses, want.ScheduledDays}), "card %d", i)
			Expect(got.Stability).To(Equal(want.Stability), "card %d", i)
			Expect(got.Difficulty).To(Equal(want.Difficulty), "card %d", i)
			Expect(got.LastReview).To(BeTemporally("~", want.LastReview, time.Second), "card %d", i)
			if want.ScheduledDays == 0 { // a step within the day: to the second
				Expect(got.Due).To(BeTemporally("~", want.Due, time.Second), "card %d", i)
			} else { // Anki keeps the day alone: the start of the due day
				Expect(got.Due.UTC()).To(Equal(want.Due.UTC().Truncate(24*time.Hour)), "card %d", i)
			}
			Expect(gotLogs[i]).To(HaveLen(len(wantLogs[i])), "card %d", i)
			for j, w := range wantLogs[i] {
				g := gotLogs[i][j]
				Expect([4]int{g.Rating, g.State, g.ElapsedDays, g.ScheduledDays}).To(
					Equal([4]int{w.Rating, w.State, w.ElapsedDays, w.ScheduledDays}), "card %d review %d", i, j)
				Expect(g.ReviewedAt).To(BeTemporally("~", w.ReviewedAt, 2*time.Millisecond), "card %d review %d", i, j)
				if w.DurationMs == nil || *w.DurationMs == 0 {
					Expect(g.DurationMs).To(BeNil())
				} else {
					Expect(g.DurationMs).To(HaveValue(Equal(*w.DurationMs)))
				}
			}
		}
		// The importing learner's schedule: the due cards are in their queue.
		q := mod.Client(h).Get(fmt.Sprintf("/api/v1/flashcards/study/queue?deck_id=%d", copyDeck))
		Expect(q).To(HaveStatus(200))
	})

	It("exports the caller's own schedule only, and imports it as the importer's", func() {
		deck := studiedDeck("Anki schedule of a learner")
		learner := h.NewUser(auth.RoleUser)
		Expect(mod.Client(h).Put(fmt.Sprintf("/api/v1/flashcards/%d/share", deck), nil)).To(HaveStatus(200))
		review(learner, cardIDs(deck)[2], "again", 500) // a card the moderator left new
		exp := learner.Client(h).Get(fmt.Sprintf("/api/v1/flashcard-decks/%d/export/apkg", deck))
		Expect(exp).To(HaveStatus(200))
		again := importApkg(mod, fmt.Sprintf("category_id=%d", newCategory("Anki learner copy")), exp.Body)
		Expect(again).To(HaveStatus(201))
		states, logs := schedules(mod, int64(again.Map()["deck_id"].(float64)))
		Expect(states).To(HaveLen(1), "the learner's one card, not the moderator's four")
		Expect(states[2].Reps).To(Equal(1))
		Expect(logs).To(HaveLen(1))
		Expect(logs[2]).To(HaveLen(1))
		Expect([2]int{logs[2][0].Rating, logs[2][0].State}).To(Equal([2]int{1, 0}))
	})
})

var _ = Describe("Review history for FSRS optimisers", func() {
	It("exports the caller's reviews of a deck as fsrs-optimizer's revlog CSV", func() {
		deck := studiedDeck("Anki revlog csv")
		_, logs := schedules(mod, deck)
		ids := cardIDs(deck)
		res := mod.Client(h).Get(fmt.Sprintf("/api/v1/flashcard-decks/%d/export/revlog", deck))
		Expect(res).To(HaveStatus(200))
		Expect(res.Header.Get("Content-Type")).To(HavePrefix("text/csv"))
		rows, err := csv.NewReader(strings.NewReader(string(res.Body))).ReadAll()
		Expect(err).NotTo(HaveOccurred())
		Expect(rows[0]).To(Equal([]string{"card_id", "review_time", "review_rating", "review_state", "review_duration"}))
		var want [][]string
		for i := range ids {
			for _, l := range logs[i] {
				ms := 0
				if l.DurationMs != nil {
					ms = *l.DurationMs
				}
				want = append(want, []string{strconv.FormatInt(l.CardID, 10), strconv.FormatInt(l.ReviewedAt.UnixMilli(), 10),
					strconv.Itoa(l.Rating), strconv.Itoa(l.State), strconv.Itoa(ms)})
			}
		}
		Expect(want).To(HaveLen(5))
		Expect(rows[1:]).To(Equal(want))
		// The lapse: the cloze card's second review, rated again (1) in state review (2).
		Expect(rows[4][2:]).To(Equal([]string{"1", "2", "8000"}))

		other := h.NewUser(auth.RoleModerator)
		mine := other.Client(h).Get(fmt.Sprintf("/api/v1/flashcard-decks/%d/export/revlog", deck))
		Expect(mine).To(HaveStatus(200))
		Expect(strings.TrimSpace(string(mine.Body))).To(Equal("card_id,review_time,review_rating,review_state,review_duration"))
		Expect(h.NewUser(auth.RoleUser).Client(h).Get(fmt.Sprintf("/api/v1/flashcard-decks/%d/export/revlog", deck))).
			To(HaveError(404, "not_found"))
	})
})
