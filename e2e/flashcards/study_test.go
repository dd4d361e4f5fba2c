package flashcards_test

import (
	"fmt"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	. "github.com/onsi/gomega/gstruct"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/contract"
	"github.com/roundsedu/rounds/platform/auth"
)

// reviewBody grades a card.
type reviewBody = contract.PostFlashcardsCardsByCardIdReviewRequest

func review(u *User, card int64, body reviewBody) *Response {
	return u.Client(h).Post(fmt.Sprintf("%s/flashcards/cards/%d/review", api, card), body)
}

// reviewed is the answer to a review that must have been taken.
func reviewed(res *Response) contract.FlashcardReview {
	ExpectWithOffset(1, res).To(HaveStatus(200))
	return Body[contract.FlashcardReview](res)
}

func queue(u *User, deckID int64) *Response {
	res := u.Client(h).Get(fmt.Sprintf("%s/flashcards/study/queue?deck_id=%d", api, deckID))
	ExpectWithOffset(1, res).To(HaveStatus(200))
	return res
}

func items(res *Response) []contract.FlashcardStudyItem {
	return Items(Body[contract.FlashcardQueue](res).Items)
}

func forecast(u *User, d int64) contract.FlashcardForecast {
	res := u.Client(h).Get(deckPath(d, "/forecast"))
	ExpectWithOffset(1, res).To(HaveStatus(200))
	return Body[contract.FlashcardForecast](res)
}

type stateRow struct {
	State, Reps   int
	ScheduledDays int
	Due           time.Time
}

func storedState(u *User, card int64) stateRow {
	var r stateRow
	Expect(h.App.DB.Conn(ctxb).Raw(`SELECT state, reps, scheduled_days, due FROM flashcards.card_states
		WHERE user_id = ? AND card_id = ?`, u.ID, card).Scan(&r).Error).To(Succeed())
	return r
}

// sharedDeck makes a shared deck with cards and gives their ids.
func sharedDeck(title string, cards ...cardBody) (int64, []int64) {
	d := deck(mod, title, category(0))
	Expect(mod.Client(h).Put(deckPath(d, "/share"), nil)).To(HaveStatus(200))
	var out []int64
	for _, c := range cards {
		res := addCard(mod, d, c)
		ExpectWithOffset(1, res).To(HaveStatus(201))
		out = append(out, cardIDs(res)...)
	}
	return d, out
}

var _ = Describe("Studying", func() {
	It("serves new cards rendered for their type and records each review as FSRS optimisers read it", func() {
		d, cards := sharedDeck("Study me",
			cardBody{CardType: "cloze", Front: "{{c1::Aortic::valve}} stenosis gives {{c2::syncope}}.", Back: new("SAD")},
			cardBody{CardType: "type_in", Front: "Acute polyneuropathy eponym", Back: new("Guillain-Barré|GBS")})
		learner := h.NewUser(auth.RoleUser)

		its := items(queue(learner, d))
		Expect(its).To(HaveLen(3))
		Expect(its[0]).To(Equal(contract.FlashcardStudyItem{CardId: cards[0], DeckId: d, CardType: "cloze", State: "new",
			Question: "[valve] stenosis gives syncope.", Answer: "Aortic stenosis gives syncope.\n\nSAD"}),
			"new: no due date, no retrievability, no picture")
		Expect(its[1]).To(MatchFields(IgnoreExtras, Fields{"CardId": Equal(cards[1]), "Question": Equal("Aortic stenosis gives [...].")}))

		rv := reviewed(review(learner, cards[0], reviewBody{Rating: "good", DurationMs: new(int64(4200))}))
		Expect(rv).To(MatchFields(IgnoreExtras, Fields{"CardId": Equal(cards[0]), "State": BeEquivalentTo("learning"),
			"ScheduledDays": BeZero(), "Correct": BeNil()}))
		st := storedState(learner, cards[0])
		Expect(st.State).To(Equal(1))
		Expect(st.Reps).To(Equal(1))
		var log struct {
			Rating, State, ElapsedDays, ScheduledDays, DeckID int
			DurationMs                                        int
		}
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT rating, state, elapsed_days, scheduled_days, deck_id, duration_ms
			FROM flashcards.review_logs WHERE user_id = ? AND card_id = ?`, learner.ID, cards[0]).Scan(&log).Error).To(Succeed())
		Expect(log.Rating).To(Equal(3))
		Expect(log.State).To(Equal(0))
		Expect(log.DeckID).To(BeEquivalentTo(d))
		Expect(log.DurationMs).To(Equal(4200))
		Expect(items(queue(learner, d))).To(HaveLen(2)) // the reviewed card is due again in minutes

		By("a typed answer is matched, without accents when the deck says so")
		Expect(reviewed(review(learner, cards[2], reviewBody{Rating: "good", Answer: new("  guillain-barré ")})).Correct).
			To(HaveValue(BeTrue()))
		Expect(reviewed(review(learner, cards[2], reviewBody{Rating: "again", Answer: new("Guillain-Barre")})).Correct).
			To(HaveValue(BeFalse()))
		Expect(mod.Client(h).Patch(deckPath(d, ""), contract.DeckFields{IgnoreAccents: new(true)})).To(HaveStatus(200))
		Expect(reviewed(review(learner, cards[2], reviewBody{Rating: "good", Answer: new("Guillain-Barre")})).Correct).
			To(HaveValue(BeTrue()))

		Expect(review(learner, cards[0], reviewBody{Rating: "perfect"})).To(HaveError(422, "invalid_request"))
	})

	It("lets learners study shared decks only, editors their unshared ones", func() {
		d := deck(mod, "Unshared study", category(0))
		card := cardIDs(addCard(mod, d, cardBody{CardType: "basic", Front: "Q", Back: new("A")}))[0]
		learner, holder := h.NewUser(auth.RoleUser), h.NewUser(auth.RoleUser)
		grant(holder, "deck", d)

		Expect(learner.Client(h).Get(fmt.Sprintf("%s/flashcards/study/queue?deck_id=%d", api, d))).To(HaveError(404, "not_found"))
		Expect(review(learner, card, reviewBody{Rating: "good"})).To(HaveError(404, "not_found"))
		Expect(learner.Client(h).Get(fmt.Sprintf("%s/flashcards/decks/%d/cards", api, d))).To(HaveError(404, "not_found"))
		Expect(items(queue(holder, d))).To(HaveLen(1))
		Expect(review(holder, card, reviewBody{Rating: "good"})).To(HaveStatus(200))
		Expect(review(mod, card, reviewBody{Rating: "easy"})).To(HaveStatus(200))
		Expect(review(learner, 999999, reviewBody{Rating: "good"})).To(HaveError(404, "not_found"))

		By("a binned deck is studied by nobody")
		Expect(mod.Client(h).Delete(deckPath(d, ""))).To(HaveStatus(204))
		Expect(review(holder, card, reviewBody{Rating: "good"})).To(HaveError(404, "not_found"))
	})

	It("orders a backlog by retrievability, lowest first, within the daily cap", func() {
		d, cards := sharedDeck("Backlog",
			cardBody{CardType: "basic", Front: "1", Back: new("1")},
			cardBody{CardType: "basic", Front: "2", Back: new("2")},
			cardBody{CardType: "basic", Front: "3", Back: new("3")},
			cardBody{CardType: "basic", Front: "4", Back: new("4")})
		learner := h.NewUser(auth.RoleUser)
		for _, c := range cards {
			Expect(review(learner, c, reviewBody{Rating: "easy"})).To(HaveStatus(200))
		}
		// After a break: all overdue, each last seen long ago with a different stability.
		for i, stability := range []float64{40, 2, 90, 10} {
			Expect(h.App.DB.Conn(ctxb).Exec(`UPDATE flashcards.card_states SET state = 2, stability = ?,
				last_review = now() - interval '60 days', due = now() - interval '30 days' WHERE user_id = ? AND card_id = ?`,
				stability, learner.ID, cards[i]).Error).To(Succeed())
		}
		res := learner.Client(h).Get(api + "/flashcards/study/queue")
		Expect(res).To(HaveStatus(200))
		// Four reviews today and a cap of five: one left.
		Expect(Body[contract.FlashcardQueue](res).ReviewsLeftToday).To(BeEquivalentTo(1))
		its := items(res)
		Expect(its).To(HaveLen(1))
		Expect(its[0]).To(MatchFields(IgnoreExtras, Fields{"CardId": Equal(cards[1]), "DeckId": Equal(d),
			"State": BeEquivalentTo("review"), "Due": Not(BeNil()), "Retrievability": Not(BeNil())}))

		Expect(h.App.DB.Conn(ctxb).Exec(`UPDATE flashcards.review_logs SET reviewed_at = reviewed_at - interval '2 days'
			WHERE user_id = ?`, learner.ID).Error).To(Succeed())
		its = items(queue(learner, d))
		var order []int64
		var last float64
		for _, it := range its {
			order = append(order, it.CardId)
			Expect(it.Retrievability).NotTo(BeNil(), "a reviewed card's recall now")
			r := *it.Retrievability
			Expect(r).To(BeNumerically(">=", last))
			last = r
		}
		Expect(order).To(Equal([]int64{cards[1], cards[3], cards[0], cards[2]}))
	})

	It("keeps each learner's desired retention, 0.9 until set", func() {
		learner := h.NewUser(auth.RoleUser)
		settings := func() contract.FlashcardSettings {
			res := learner.Client(h).Get(api + "/flashcards/study/settings")
			ExpectWithOffset(1, res).To(HaveStatus(200))
			return Body[contract.FlashcardSettings](res)
		}
		Expect(settings()).To(Equal(contract.FlashcardSettings{DesiredRetention: 0.9}))
		Expect(learner.Client(h).Put(api+"/flashcards/study/settings", contract.FlashcardSettings{DesiredRetention: 0.5})).
			To(HaveError(422, "invalid_request"))
		res := learner.Client(h).Put(api+"/flashcards/study/settings", contract.FlashcardSettings{DesiredRetention: 0.95})
		Expect(res).To(HaveStatus(200))
		Expect(Body[contract.FlashcardSettings](res)).To(Equal(contract.FlashcardSettings{DesiredRetention: 0.95}))
		Expect(settings()).To(Equal(contract.FlashcardSettings{DesiredRetention: 0.95}))
		var stored float64
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT desired_retention FROM flashcards.learner_settings WHERE user_id = ?`,
			learner.ID).Scan(&stored).Error).To(Succeed())
		Expect(stored).To(Equal(0.95))
	})

	It("schedules every card's last review before the exam and forecasts the days until it", func() {
		d, cards := sharedDeck("Exam prep",
			cardBody{CardType: "basic", Front: "1", Back: new("1")},
			cardBody{CardType: "basic", Front: "2", Back: new("2")})
		learner := h.NewUser(auth.RoleUser)
		today := time.Now().UTC().Truncate(24 * time.Hour)
		exam := today.AddDate(0, 0, 6)

		Expect(learner.Client(h).Put(deckPath(d, "/exam"), map[string]any{"exam_date": today.Format(time.DateOnly)})).
			To(HaveError(422, "invalid_request"))
		Expect(learner.Client(h).Put(deckPath(d, "/exam"), map[string]any{"exam_date": "next week"})).
			To(HaveError(422, "invalid_request"))
		res := learner.Client(h).Put(deckPath(d, "/exam"), map[string]any{"exam_date": exam.Format(time.DateOnly)})
		Expect(res).To(HaveStatus(200))
		Expect(Body[contract.DeckDetail](res)).To(MatchFields(IgnoreExtras, Fields{"Id": Equal(d),
			"ExamDate": HaveValue(Equal(exam.Format(time.DateOnly))), "CanEdit": BeFalse()}))

		for _, c := range cards {
			Expect(review(learner, c, reviewBody{Rating: "easy"})).To(HaveStatus(200))
			// A well-known card FSRS would next show in months.
			Expect(h.App.DB.Conn(ctxb).Exec(`UPDATE flashcards.card_states SET state = 2, stability = 300, difficulty = 3,
				last_review = now() - interval '200 days', due = now() WHERE user_id = ? AND card_id = ?`,
				learner.ID, c).Error).To(Succeed())
			res = review(learner, c, reviewBody{Rating: "easy"})
			Expect(res).To(HaveStatus(200))
			st := storedState(learner, c)
			Expect(st.Due).To(BeTemporally("<", exam))
			Expect(st.Due).To(BeTemporally(">=", time.Now().Add(2*24*time.Hour))) // within the final three days
		}
		days := map[string]int{}
		for _, c := range cards {
			days[storedState(learner, c).Due.UTC().Format(time.DateOnly)]++
		}
		Expect(days).To(HaveLen(2), "the final pass spreads over the least-loaded days")

		f := forecast(learner, d)
		Expect(f).To(MatchFields(IgnoreExtras, Fields{"ExamDate": HaveValue(Equal(exam.Format(time.DateOnly))),
			"ExamFrom": Equal("deck"), "Unseen": BeZero()}))
		fdays := Items(f.Days)
		Expect(fdays).To(HaveLen(6))
		Expect(fdays[0].Date).To(Equal(today.Format(time.DateOnly)))
		total := 0
		for _, day := range fdays {
			Expect(int(day.Reviews)).To(Equal(days[day.Date]), day.Date)
			total += int(day.Reviews)
		}
		Expect(total).To(Equal(2))

		res = learner.Client(h).Delete(deckPath(d, "/exam"))
		Expect(res).To(HaveStatus(200))
		Expect(Body[contract.DeckDetail](res).ExamDate).To(BeNil())
		Expect(Items(forecast(learner, d).Days)).To(HaveLen(30))
	})

	It("aims the schedule at the learner's study-plan exam where they set no date for the deck", func() {
		d, cards := sharedDeck("Plan prep", cardBody{CardType: "basic", Front: "Q", Back: new("A")})
		learner := h.NewUser(auth.RoleUser)
		today := time.Now().UTC().Truncate(24 * time.Hour)
		planExam, deckExam := today.AddDate(0, 0, 5), today.AddDate(0, 0, 9)

		// A published plan with an exam date, and a nearer one the learner is not enrolled in.
		res := mod.Client(h).Post(api+"/questions/create", map[string]any{"question_text": "Plan exam question?",
			"question_type": "mcq", "options": []string{"Yes", "No"}, "correct_answer": "Yes"})
		Expect(res).To(HaveStatus(201))
		question := res.ID()
		plan := func(exam time.Time) int64 {
			res := mod.Client(h).Post(api+"/study-plans", map[string]any{"title": "Finals", "kind": "set",
				"exam_date": exam.Format(time.DateOnly)})
			ExpectWithOffset(1, res).To(HaveStatus(201))
			p := res.ID()
			ExpectWithOffset(1, mod.Client(h).Post(fmt.Sprintf("%s/study-plans/%d/blocks", api, p),
				map[string]any{"title": "Week 1", "question_ids": []int64{question}})).To(HaveStatus(201))
			ExpectWithOffset(1, mod.Client(h).Patch(fmt.Sprintf("%s/study-plans/%d/publish?published=true", api, p), nil)).
				To(HaveStatus(200))
			return p
		}
		plan(today.AddDate(0, 0, 2))
		mine := plan(planExam)

		Expect(forecast(learner, d)).To(MatchFields(IgnoreExtras, Fields{"ExamDate": BeNil(), "ExamFrom": BeEmpty()}),
			"a plan the learner is not enrolled in does not count")
		Expect(learner.Client(h).Post(fmt.Sprintf("%s/study-plans/%d/enrol", api, mine), nil)).To(HaveStatus(200))
		f := forecast(learner, d)
		Expect(f).To(MatchFields(IgnoreExtras, Fields{"ExamDate": HaveValue(Equal(planExam.Format(time.DateOnly))),
			"ExamFrom": Equal("plan")}))
		Expect(Items(f.Days)).To(HaveLen(5))

		// A well-known card FSRS would next show in months lands before the plan's exam.
		Expect(review(learner, cards[0], reviewBody{Rating: "easy"})).To(HaveStatus(200))
		Expect(h.App.DB.Conn(ctxb).Exec(`UPDATE flashcards.card_states SET state = 2, stability = 300, difficulty = 3,
			last_review = now() - interval '200 days', due = now() WHERE user_id = ? AND card_id = ?`,
			learner.ID, cards[0]).Error).To(Succeed())
		Expect(review(learner, cards[0], reviewBody{Rating: "easy"})).To(HaveStatus(200))
		Expect(storedState(learner, cards[0]).Due).To(BeTemporally("<", planExam))

		// The learner's own date for the deck wins.
		Expect(learner.Client(h).Put(deckPath(d, "/exam"), map[string]any{"exam_date": deckExam.Format(time.DateOnly)})).
			To(HaveStatus(200))
		Expect(forecast(learner, d)).To(MatchFields(IgnoreExtras, Fields{"ExamDate": HaveValue(Equal(deckExam.Format(time.DateOnly))),
			"ExamFrom": Equal("deck")}))
	})

	It("forgets a deleted learner's schedules and reviews", func() {
		_, cards := sharedDeck("Forget me", cardBody{CardType: "basic", Front: "Q", Back: new("A")})
		gone := h.NewUser(auth.RoleUser)
		Expect(review(gone, cards[0], reviewBody{Rating: "good"})).To(HaveStatus(200))
		Expect(admin.Client(h).Delete(fmt.Sprintf("%s/admin/users/%d", api, gone.ID))).To(HaveStatus(204))
		Eventually(func() int64 {
			var n int64
			Expect(h.App.DB.Conn(ctxb).Raw(`SELECT (SELECT count(*) FROM flashcards.card_states WHERE user_id = ?)
				+ (SELECT count(*) FROM flashcards.review_logs WHERE user_id = ?)`, gone.ID, gone.ID).Scan(&n).Error).To(Succeed())
			return n
		}).WithTimeout(15 * time.Second).Should(BeZero())
	})

	It("offers the new cards of every deck within reach when no deck is named, newest deck first", func() {
		_, old := sharedDeck("Older shared", cardBody{CardType: "basic", Front: "Old", Back: new("A")})
		_, cards := sharedDeck("Three new cards",
			cardBody{CardType: "basic", Front: "N1", Back: new("1")},
			cardBody{CardType: "basic", Front: "N2", Back: new("2")},
			cardBody{CardType: "basic", Front: "N3", Back: new("3")})
		hidden := deck(mod, "Unshared new", category(0))
		secret := cardIDs(addCard(mod, hidden, cardBody{CardType: "basic", Front: "S", Back: new("S")}))[0]
		learner, holder := h.NewUser(auth.RoleUser), h.NewUser(auth.RoleUser)
		grant(holder, "deck", hidden)

		cardsOf := func(its []contract.FlashcardStudyItem) []int64 {
			var out []int64
			for _, it := range its {
				Expect(it).To(MatchFields(IgnoreExtras, Fields{"State": BeEquivalentTo("new"), "Due": BeNil(), "Retrievability": BeNil()}))
				out = append(out, it.CardId)
			}
			return out
		}
		res := learner.Client(h).Get(api + "/flashcards/study/queue")
		Expect(res).To(HaveStatus(200))
		got := cardsOf(items(res))
		// Five a day at most (this suite's cap): the newest deck's three, then older decks'.
		Expect(len(got)).To(BeNumerically("<=", 5))
		Expect(got[:4]).To(Equal(append(cards, old...)))
		Expect(got).NotTo(ContainElement(secret), "an unshared deck is not the learner's to study")

		res = holder.Client(h).Get(api + "/flashcards/study/queue")
		Expect(res).To(HaveStatus(200))
		Expect(cardsOf(items(res))[0]).To(Equal(secret), "a granted deck's new cards count too")

		By("a new card reviewed today counts against the day's new cards")
		Expect(review(learner, cards[0], reviewBody{Rating: "easy"})).To(HaveStatus(200))
		got = cardsOf(items(queue(learner, 0)))
		Expect(got[:3]).To(Equal(append(cards[1:], old...)))
	})

	It("previews when each rating would bring a card back, as the review then schedules it", func() {
		_, cards := sharedDeck("Preview", cardBody{CardType: "basic", Front: "Q", Back: new("A")})
		learner, stranger := h.NewUser(auth.RoleUser), h.NewUser(auth.RoleUser)
		outcomes := func(card int64) []contract.FlashcardOutcome {
			res := learner.Client(h).Get(fmt.Sprintf("%s/flashcards/cards/%d/outcomes", api, card))
			ExpectWithOffset(1, res).To(HaveStatus(200))
			return Body[[]contract.FlashcardOutcome](res)
		}
		os := outcomes(cards[0])
		Expect(os).To(HaveLen(4))
		var names []string
		for _, o := range os {
			names = append(names, string(o.Rating))
		}
		Expect(names).To(Equal([]string{"again", "hard", "good", "easy"}))
		// A new card: again, hard and good are learning steps in minutes, easy is days away.
		Expect(os[0]).To(MatchFields(IgnoreExtras, Fields{"State": BeEquivalentTo("learning"), "ScheduledDays": BeZero()}))
		Expect(os[0].Due).To(BeTemporally("<", time.Now().Add(time.Hour)))
		Expect(os[3]).To(MatchFields(IgnoreExtras, Fields{"State": BeEquivalentTo("review"), "ScheduledDays": BeNumerically(">=", 1)}))
		for i := 1; i < 4; i++ {
			Expect(os[i].Due).To(BeTemporally(">=", os[i-1].Due), "a better rating never comes back sooner")
		}
		Expect(storedState(learner, cards[0]).Reps).To(BeZero(), "a preview writes nothing")

		rv := reviewed(review(learner, cards[0], reviewBody{Rating: "easy"}))
		Expect(rv.State).To(BeEquivalentTo(os[3].State))
		Expect(rv.ScheduledDays).To(Equal(os[3].ScheduledDays))
		Expect(storedState(learner, cards[0]).Due).To(BeTemporally("~", os[3].Due, 5*time.Second))

		Expect(stranger.Client(h).Get(fmt.Sprintf("%s/flashcards/cards/%d/outcomes", api, 999999))).To(HaveError(404, "not_found"))
		hidden := deck(mod, "Hidden preview", category(0))
		secret := cardIDs(addCard(mod, hidden, cardBody{CardType: "basic", Front: "S", Back: new("S")}))[0]
		Expect(stranger.Client(h).Get(fmt.Sprintf("%s/flashcards/cards/%d/outcomes", api, secret))).To(HaveError(404, "not_found"))
	})

	It("undoes the latest rating only: the schedule returns to what it was and the review leaves the log", func() {
		d, cards := sharedDeck("Undo",
			cardBody{CardType: "basic", Front: "U1", Back: new("1")},
			cardBody{CardType: "basic", Front: "U2", Back: new("2")})
		learner, other := h.NewUser(auth.RoleUser), h.NewUser(auth.RoleUser)
		undo := func(u *User, card int64) *Response {
			return u.Client(h).Delete(fmt.Sprintf("%s/flashcards/cards/%d/review", api, card))
		}
		logs := func(card int64) int64 {
			var n int64
			Expect(h.App.DB.Conn(ctxb).Raw(`SELECT count(*) FROM flashcards.review_logs WHERE user_id = ? AND card_id = ?`,
				learner.ID, card).Scan(&n).Error).To(Succeed())
			return n
		}
		hasState := func(card int64) bool {
			var n int64
			Expect(h.App.DB.Conn(ctxb).Raw(`SELECT count(*) FROM flashcards.card_states WHERE user_id = ? AND card_id = ?`,
				learner.ID, card).Scan(&n).Error).To(Succeed())
			return n == 1
		}

		Expect(undo(learner, cards[0])).To(HaveError(404, "not_found"), "nothing rated yet")
		Expect(review(learner, cards[0], reviewBody{Rating: "again"})).To(HaveStatus(200))
		res := undo(learner, cards[0])
		Expect(res).To(HaveStatus(200))
		Expect(Body[contract.FlashcardStudyItem](res)).To(Equal(contract.FlashcardStudyItem{CardId: cards[0], DeckId: d,
			CardType: "basic", State: "new", Question: "U1", Answer: "1"}), "new again: no due date, no retrievability")
		Expect(hasState(cards[0])).To(BeFalse(), "a new card is new again")
		Expect(logs(cards[0])).To(BeZero())
		Expect(undo(learner, cards[0])).To(HaveError(404, "not_found"))

		By("a card with a history returns to its state before the rating")
		Expect(review(learner, cards[0], reviewBody{Rating: "easy"})).To(HaveStatus(200))
		var before, after struct {
			Due                        time.Time
			Stability, Difficulty      float64
			Reps, Lapses, State        int
			ElapsedDays, ScheduledDays int
			LastReview                 time.Time
		}
		read := func(dst any) {
			Expect(h.App.DB.Conn(ctxb).Raw(`SELECT due, stability, difficulty, reps, lapses, state, elapsed_days,
				scheduled_days, last_review FROM flashcards.card_states WHERE user_id = ? AND card_id = ?`,
				learner.ID, cards[0]).Scan(dst).Error).To(Succeed())
		}
		read(&before)
		Expect(review(learner, cards[0], reviewBody{Rating: "again"})).To(HaveStatus(200))
		Expect(storedState(learner, cards[0]).State).To(Equal(3), "relearning after again")
		Expect(review(learner, cards[1], reviewBody{Rating: "good"})).To(HaveStatus(200))

		Expect(undo(learner, cards[0])).To(HaveError(409, "conflict"), "the latest rating is of the other card")
		Expect(logs(cards[0])).To(BeEquivalentTo(2))
		Expect(undo(other, cards[1])).To(HaveError(404, "not_found"), "someone else's rating")
		Expect(undo(learner, cards[1])).To(HaveStatus(200))
		Expect(hasState(cards[1])).To(BeFalse())
		res = undo(learner, cards[0])
		Expect(res).To(HaveStatus(200))
		Expect(Body[contract.FlashcardStudyItem](res)).To(MatchFields(IgnoreExtras, Fields{"CardId": Equal(cards[0]),
			"State": BeEquivalentTo("review"), "Due": HaveValue(BeTemporally("~", before.Due, time.Second))}))
		read(&after)
		Expect(after.Due).To(BeTemporally("==", before.Due))
		Expect(after.LastReview).To(BeTemporally("==", before.LastReview))
		after.Due, after.LastReview = before.Due, before.LastReview
		Expect(after).To(Equal(before))
		Expect(logs(cards[0])).To(BeEquivalentTo(1))

		By("a rating logged before undo existed stays")
		Expect(h.App.DB.Conn(ctxb).Exec(`UPDATE flashcards.review_logs SET prior = NULL WHERE user_id = ?`, learner.ID).Error).To(Succeed())
		Expect(undo(learner, cards[0])).To(HaveError(409, "conflict"))
		Expect(logs(cards[0])).To(BeEquivalentTo(1))

		hidden := deck(mod, "Hidden undo", category(0))
		secret := cardIDs(addCard(mod, hidden, cardBody{CardType: "basic", Front: "S", Back: new("S")}))[0]
		Expect(undo(learner, secret)).To(HaveError(404, "not_found"))
	})
})
