package app

import (
	"context"
	"time"

	fsrs "github.com/open-spaced-repetition/go-fsrs/v3"

	"github.com/roundsedu/rounds/modules/flashcards/internal/cloze"
	"github.com/roundsedu/rounds/modules/flashcards/internal/srs"
	"github.com/roundsedu/rounds/modules/flashcards/internal/store"
	"github.com/roundsedu/rounds/modules/flashcards/internal/typein"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
)

// Ratings by name, as go-fsrs numbers them.
var Ratings = map[string]fsrs.Rating{"again": fsrs.Again, "hard": fsrs.Hard, "good": fsrs.Good, "easy": fsrs.Easy}

// RatingOrder lists the ratings from worst to best.
var RatingOrder = []string{"again", "hard", "good", "easy"}

// StateNames name go-fsrs's card states.
var StateNames = []string{"new", "learning", "review", "relearning"}

// Study is a card as a learner studies it: the question and answer sides
// rendered for its type.
type Study struct {
	Card           Card
	Question       string
	Answer         string
	Due            *time.Time
	State          string
	Retrievability *float64
}

// render gives a card's two sides (a cloze passage is parsed again: it was
// valid when stored).
func render(c *Card) (question, answer string) {
	if c.CardType != Cloze || c.ClozeNumber == nil {
		return c.Front, c.Back
	}
	p, err := cloze.Parse(c.Front)
	if err != nil {
		return c.Front, c.Back
	}
	q, full, _ := p.Render(*c.ClozeNumber)
	if c.Back != "" {
		full += "\n\n" + c.Back
	}
	return q, full
}

func study(it *store.QueueItem) Study {
	q, a := render(&it.Card)
	st := StateNames[0]
	if it.State != nil && *it.State >= 0 && *it.State < len(StateNames) {
		st = StateNames[*it.State]
	}
	return Study{Card: it.Card, Question: q, Answer: a, Due: it.Due, State: st, Retrievability: it.Retrievability}
}

// Queue is what a learner studies now.
type Queue struct {
	ReviewsLeftToday int
	Items            []Study
}

func startOfDay(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

// Queue gives the learner's due cards, least retrievable first, across the
// decks they may study or in one deck, within the daily cap on reviews;
// new cards of those decks (up to new_per_day a day) follow, so a shared
// deck nobody has started counts as something to study.
func (s *Service) Queue(ctx context.Context, p auth.Principal, deckID int64, limit int) (*Queue, error) {
	if deckID != 0 {
		if _, err := s.deck(ctx, p, deckID, db.NoLock); err != nil {
			return nil, err
		}
	}
	r, err := s.reach(ctx, p)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	done, fresh, err := s.store.ReviewedSince(ctx, p.UserID, deckID, startOfDay(now))
	if err != nil {
		return nil, err
	}
	left := max(0, s.cfg.ReviewsPerDay-done)
	factor, decay := srs.Curve()
	items, err := s.store.DueCards(ctx, p.UserID, r, deckID, now, store.Curve{Factor: factor, Decay: decay}, min(limit, left))
	if err != nil {
		return nil, err
	}
	if room := min(limit-len(items), s.cfg.NewPerDay-fresh, left-len(items)); room > 0 {
		fresh, err := s.store.NewCards(ctx, p.UserID, r, deckID, room)
		if err != nil {
			return nil, err
		}
		items = append(items, fresh...)
	}
	out := &Queue{ReviewsLeftToday: left, Items: make([]Study, len(items))}
	for i := range items {
		out.Items[i] = study(&items[i])
	}
	return out, nil
}

// Review is a learner's grade of a card.
type Review struct {
	Rating     string
	Answer     *string // a typed answer (type_in cards)
	DurationMs *int
}

// Reviewed is a review's outcome.
type Reviewed struct {
	CardID        int64
	Due           time.Time
	ScheduledDays int
	State         string
	Correct       *bool // set when a type_in answer was typed
}

// Review records a grade: the learner's state of the card under a row
// lock, the next due date from FSRS at the learner's retention, capped by
// their exam date for the deck, on the least-loaded day, and the review
// log row, in one transaction.
func (s *Service) Review(ctx context.Context, p auth.Principal, cardID int64, in Review) (*Reviewed, error) {
	rating, ok := Ratings[in.Rating]
	if !ok {
		return nil, apperr.Invalidf("body.rating", "rating must be again, hard, good or easy")
	}
	// Plans is asked before the transaction: another module's read.
	plan, err := s.planExam(ctx, p.UserID)
	if err != nil {
		return nil, err
	}
	var out *Reviewed
	err = s.db.Tx(ctx, func(ctx context.Context) error {
		c, a, err := s.card(ctx, p, cardID, db.ForKeyShare)
		if err != nil {
			return err
		}
		now := time.Now()
		st, err := s.store.LockState(ctx, p.UserID, c, now)
		if err != nil {
			return err
		}
		o, err := s.options(ctx, p.UserID, c.DeckID, plan)
		if err != nil {
			return err
		}
		o.Load = func(lo, hi int) ([]int, error) { return s.store.DueLoad(ctx, p.UserID, now, lo, hi) }
		next, log, err := srs.Review(toFSRS(st), rating, now, o)
		if err != nil {
			return err
		}
		prior := store.PriorOf(st)
		fromFSRS(st, next)
		err = s.store.SaveReview(ctx, st, &store.ReviewLog{UserID: p.UserID, CardID: c.ID, DeckID: c.DeckID,
			Rating: int(log.Rating), State: int(log.State), ElapsedDays: int(log.ElapsedDays),
			ScheduledDays: int(next.ScheduledDays), ReviewedAt: now, DurationMs: in.DurationMs, Prior: prior})
		if err != nil {
			return err
		}
		out = &Reviewed{CardID: c.ID, Due: next.Due, ScheduledDays: int(next.ScheduledDays), State: StateNames[next.State]}
		if c.CardType == TypeIn && in.Answer != nil {
			ok := typein.Match(*in.Answer, c.Back, a.deck.IgnoreAccents)
			out.Correct = &ok
		}
		return nil
	})
	return out, err
}

// Outcome is what one rating would do to a card now.
type Outcome struct {
	Rating        string
	Due           time.Time
	ScheduledDays int
	State         string
}

// Outcomes previews the four ratings of a card the caller may study, as
// Review would schedule them now (the least-loaded day is read now, so a
// review made later may land a day apart). Nothing is written.
func (s *Service) Outcomes(ctx context.Context, p auth.Principal, cardID int64) ([]Outcome, error) {
	c, _, err := s.card(ctx, p, cardID, db.NoLock)
	if err != nil {
		return nil, err
	}
	plan, err := s.planExam(ctx, p.UserID)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	st, err := s.store.StateOf(ctx, p.UserID, c.ID, db.NoLock)
	if db.IsNotFound(err) {
		st, err = &store.State{Due: now}, nil // a new card, as LockState would make it
	}
	if err != nil {
		return nil, err
	}
	o, err := s.options(ctx, p.UserID, c.DeckID, plan)
	if err != nil {
		return nil, err
	}
	o.Load = func(lo, hi int) ([]int, error) { return s.store.DueLoad(ctx, p.UserID, now, lo, hi) }
	out := make([]Outcome, 0, len(RatingOrder))
	for _, name := range RatingOrder {
		next, _, err := srs.Review(toFSRS(st), Ratings[name], now, o)
		if err != nil {
			return nil, err
		}
		out = append(out, Outcome{Rating: name, Due: next.Due, ScheduledDays: int(next.ScheduledDays), State: StateNames[next.State]})
	}
	return out, nil
}

// Undo takes back the caller's latest rating, which must be of this card:
// the card's schedule returns to what it was before (a card that was new
// is new again) and the review leaves the log. It gives the card as
// studied now, to be shown again.
func (s *Service) Undo(ctx context.Context, p auth.Principal, cardID int64) (*Study, error) {
	var out *Study
	err := s.db.Tx(ctx, func(ctx context.Context) error {
		c, _, err := s.card(ctx, p, cardID, db.ForKeyShare)
		if err != nil {
			return err
		}
		// The state row first: a review of this card waits on it too.
		st, err := s.store.StateOf(ctx, p.UserID, c.ID, db.ForUpdate)
		if db.IsNotFound(err) {
			return apperr.NotFoundf("you have no rating of card %d to undo", cardID)
		}
		if err != nil {
			return err
		}
		last, err := s.store.LatestReview(ctx, p.UserID)
		if err != nil && !db.IsNotFound(err) {
			return err
		}
		switch {
		case last == nil || last.CardID != c.ID:
			return apperr.Conflictf("only your latest rating can be undone, and it is not of card %d", cardID)
		case last.Prior == nil:
			return apperr.Conflictf("this rating was recorded before ratings could be undone")
		}
		if err := s.store.Unreview(ctx, st, last); err != nil {
			return err
		}
		it := store.QueueItem{Card: *c}
		if last.Prior.Reps > 0 || last.Prior.LastReview != nil {
			it.Due, it.State = &st.Due, &st.State
		}
		v := study(&it)
		out = &v
		return nil
	})
	return out, err
}

// options are the learner's scheduling choices for a deck: their
// retention and the exam the deck's schedule aims at.
func (s *Service) options(ctx context.Context, userID, deckID int64, plan *time.Time) (srs.Options, error) {
	o := srs.Options{FinalPassDays: s.cfg.FinalPassDays}
	var err error
	if o.Retention, err = s.retention(ctx, userID); err != nil {
		return o, err
	}
	exam, _, err := s.exam(ctx, userID, deckID, plan)
	if exam != nil {
		o.Exam = examStart(*exam)
	}
	return o, err
}

// Where an exam date comes from.
const (
	ExamFromDeck = "deck"
	ExamFromPlan = "plan"
)

// exam is the date a learner's schedule in a deck aims at: the one they set
// for the deck, else their next study-plan exam (plan, nil for none), and
// where it came from. The deck's own date is the more specific choice.
func (s *Service) exam(ctx context.Context, userID, deckID int64, plan *time.Time) (*time.Time, string, error) {
	own, err := s.store.Exam(ctx, userID, deckID)
	switch {
	case err != nil:
		return nil, "", err
	case own != nil:
		return own, ExamFromDeck, nil
	case plan != nil:
		return plan, ExamFromPlan, nil
	}
	return nil, "", nil
}

// planExam is the learner's earliest study-plan exam date still ahead (nil
// for none, or with no plans module).
func (s *Service) planExam(ctx context.Context, userID int64) (*time.Time, error) {
	var out *time.Time
	for _, e := range s.ports.ExamDates {
		d, ok, err := e.NextExamDate(ctx, userID)
		if err != nil {
			return nil, err
		}
		if ok && examStart(d).After(time.Now()) && (out == nil || d.Before(*out)) {
			out = &d
		}
	}
	return out, nil
}

// examStart is when an exam day begins (UTC): the cap every card's due
// date stays within.
func examStart(d time.Time) time.Time {
	return time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, time.UTC)
}

func toFSRS(st *store.State) fsrs.Card {
	c := fsrs.Card{Due: st.Due, Stability: st.Stability, Difficulty: st.Difficulty,
		ElapsedDays: uint64(st.ElapsedDays), ScheduledDays: uint64(st.ScheduledDays), Reps: uint64(st.Reps),
		Lapses: uint64(st.Lapses), State: fsrs.State(st.State)}
	if st.LastReview != nil {
		c.LastReview = *st.LastReview
	}
	return c
}

func fromFSRS(st *store.State, c fsrs.Card) {
	last := c.LastReview
	st.Due, st.Stability, st.Difficulty = c.Due, c.Stability, c.Difficulty
	st.ElapsedDays, st.ScheduledDays = int(c.ElapsedDays), int(c.ScheduledDays)
	st.Reps, st.Lapses, st.State, st.LastReview = int(c.Reps), int(c.Lapses), int(c.State), &last
}

// retention is the learner's desired retention, default 0.9.
func (s *Service) retention(ctx context.Context, userID int64) (float64, error) {
	r, err := s.store.Retention(ctx, userID)
	if r == 0 {
		r = srs.DefaultRetention
	}
	return r, err
}

// Retention reads the caller's desired retention.
func (s *Service) Retention(ctx context.Context, p auth.Principal) (float64, error) {
	return s.retention(ctx, p.UserID)
}

// SetRetention stores the caller's desired retention (0.7 to 0.99; the
// route bounds it). It applies from the next review.
func (s *Service) SetRetention(ctx context.Context, p auth.Principal, r float64) error {
	return s.db.Tx(ctx, func(ctx context.Context) error { return s.store.SetRetention(ctx, p.UserID, r) })
}

// SetExam sets (or with nil clears) the caller's exam date for a deck they
// may study. The date must be after today.
func (s *Service) SetExam(ctx context.Context, p auth.Principal, deckID int64, date *time.Time) (*DeckView, error) {
	if date != nil && !examStart(*date).After(startOfDay(time.Now())) {
		return nil, apperr.Invalidf("body.exam_date", "the exam date must be after today")
	}
	var out *DeckView
	err := s.db.Tx(ctx, func(ctx context.Context) error {
		a, err := s.deck(ctx, p, deckID, db.ForKeyShare)
		if err != nil {
			return err
		}
		if err := s.store.SetExam(ctx, p.UserID, deckID, date); err != nil {
			return err
		}
		out, err = s.view(ctx, p, a)
		return err
	})
	return out, err
}

// Forecast is a learner's reviews per day for a deck until the exam (or
// over forecast_days with none), and the cards not yet started.
type Forecast struct {
	ExamDate *time.Time
	ExamFrom string // ExamFromDeck, ExamFromPlan, or "" with no exam
	Days     []store.DayCount
	Unseen   int64
}

// Forecast counts the caller's reviews of a deck due on each day from
// today, overdue ones today.
func (s *Service) Forecast(ctx context.Context, p auth.Principal, deckID int64) (*Forecast, error) {
	if _, err := s.deck(ctx, p, deckID, db.NoLock); err != nil {
		return nil, err
	}
	today := startOfDay(time.Now())
	plan, err := s.planExam(ctx, p.UserID)
	if err != nil {
		return nil, err
	}
	exam, from, err := s.exam(ctx, p.UserID, deckID, plan)
	if err != nil {
		return nil, err
	}
	until := today.AddDate(0, 0, s.cfg.ForecastDays)
	if exam != nil && examStart(*exam).After(today) {
		until = examStart(*exam)
	}
	counts, err := s.store.Forecast(ctx, p.UserID, deckID, today, until)
	if err != nil {
		return nil, err
	}
	byDay := map[time.Time]int{}
	for _, c := range counts {
		byDay[c.Day.UTC()] = c.N
	}
	out := &Forecast{ExamDate: exam, ExamFrom: from}
	for d := today; d.Before(until); d = d.AddDate(0, 0, 1) {
		out.Days = append(out.Days, store.DayCount{Day: d, N: byDay[d]})
	}
	out.Unseen, err = s.store.UnseenCards(ctx, p.UserID, deckID)
	return out, err
}

// ForgetUser removes a deleted account's schedules, reviews and settings.
func (s *Service) ForgetUser(ctx context.Context, userID int64) error {
	return s.store.ForgetUser(ctx, userID)
}

// CardTitle is a card's question side, for a report on a card the caller
// may study.
func (s *Service) CardTitle(ctx context.Context, p auth.Principal, id int64) (string, error) {
	c, _, err := s.card(ctx, p, id, db.NoLock)
	if err != nil {
		return "", err
	}
	q, _ := render(c)
	return q, nil
}
