package anki

import (
	"encoding/json"
	"math"
	"time"

	"gorm.io/gorm"

	"github.com/roundsedu/rounds/modules/flashcards"
)

// Schedule is a card's schedule as flashcards keeps it (FSRS state and
// reviews); the functions here translate it to and from Anki's columns.
type Schedule = flashcards.CardSchedule

// day is Anki's scheduling day.
const day = 24 * time.Hour

// FSRS states, which are also Anki's card types (cards.type).
const (
	stateNew = iota
	stateLearning
	stateReview
	stateRelearning
)

// Anki's queues for a card in learning: due in seconds (today) or in days.
const (
	queueLearn    = 1
	queueDayLearn = 3
)

// Bounds on what a package's scheduling may say: the card stays new, or
// the review is left out, past them (a hostile or broken file must not
// reach the database with a time or count it cannot hold).
const (
	maxDays       = 36500            // Anki's longest interval, 100 years
	maxDueDays    = 100000           // a due day number from crt
	maxCount      = math.MaxInt32    // reps, lapses
	maxDurationMs = 24 * 3600 * 1000 // what the review route admits
)

var (
	minTime = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)
	maxTime = time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC)
)

func inWindow(t time.Time) bool { return !t.Before(minTime) && t.Before(maxTime) }

// defaultEase is SM-2's starting ease (permille) Anki writes for a card;
// FSRS does not read it.
const defaultEase = 2500

// cardData is the JSON Anki keeps in cards.data: the FSRS memory state
// (stability, difficulty) and the last review's time.
type cardData struct {
	S   float64 `json:"s,omitempty"`
	D   float64 `json:"d,omitempty"`
	Lrt int64   `json:"lrt,omitempty"`
}

// cardRow is a row of Anki's cards table.
type cardRow struct {
	ID, Nid                   int64
	Size                      int64
	sched                     *Schedule // decoded, the reader's
	Ord, Type, Queue          int
	Due                       int64
	Ivl, Factor, Reps, Lapses int
	Left                      int
	Odue, Odid                int64
	Data                      string
}

// revlogRow is a row of Anki's revlog table: id is the review's time in
// ms, ease the rating, ivl the interval given (days; negative: seconds),
// time the answer's duration in ms, type learn 0, review 1, relearn 2,
// filtered 3, manual 4, rescheduled 5.
type revlogRow struct {
	ID, Cid                    int64
	Ease, Ivl, LastIvl, Factor int
	Time, Type                 int
}

// Epoch is the collection's creation (col.crt, Unix seconds): the day
// review due dates count from. It is the UTC midnight on or before every
// time the package holds, so no day number is negative.
func Epoch(notes []Note, now time.Time) time.Time {
	return EpochOf(earliestOf(notes, now))
}

// EpochOf is the UTC midnight on or before a time.
func EpochOf(t time.Time) time.Time { return t.UTC().Truncate(day) }

// earliestOf is the earliest time the notes' schedules hold, or now.
func earliestOf(notes []Note, now time.Time) time.Time {
	first := now
	for _, n := range notes {
		for _, sc := range n.Schedules {
			first = earliest(first, sc.State.Due)
			for _, r := range sc.Reviews {
				first = earliest(first, r.ReviewedAt)
			}
		}
	}
	return first
}

func earliest(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// dayOf is a time's day number from the epoch.
func dayOf(t, crt time.Time) int64 { return int64(math.Floor(t.Sub(crt).Hours() / 24)) }

// encodeCard writes a schedule into a card row: review cards due on a day,
// learning cards due at a second (a step within the day) or on a day, the
// FSRS state in data. A new state leaves the card new.
func encodeCard(c *cardRow, sc *Schedule, crt time.Time) {
	st := sc.State
	if st.State < stateLearning || st.State > stateRelearning {
		return
	}
	c.Type, c.Queue, c.Due = st.State, st.State, dayOf(st.Due, crt)
	c.Ivl, c.Factor, c.Reps, c.Lapses = st.ScheduledDays, defaultEase, st.Reps, st.Lapses
	if st.State != stateReview {
		c.Left = 1001 // one step left, one today: Anki's "in learning"
		if c.Queue = queueDayLearn; st.ScheduledDays == 0 {
			c.Queue, c.Due = queueLearn, st.Due.Unix()
		}
	}
	data := cardData{S: st.Stability, D: st.Difficulty}
	if st.LastReview != nil {
		data.Lrt = st.LastReview.Unix()
	}
	b, _ := json.Marshal(data)
	c.Data = string(b)
}

// revlogType is Anki's kind of a review from the card's state before it.
func revlogType(state int) int {
	switch state {
	case stateReview:
		return 1
	case stateRelearning:
		return 2
	}
	return 0 // new or learning: a learning step
}

// revlogIDs hands out revlog ids: a review's id is its time in ms and
// must be unique in the collection, so a clash takes the next free ms.
type revlogIDs struct {
	taken map[int64]bool
	next  map[int64]int64 // per time, where the search for a free id resumes
}

func (ids *revlogIDs) take(t time.Time) int64 {
	base := t.UnixMilli()
	id, ok := ids.next[base]
	if !ok {
		id = base
	}
	for ids.taken[id] {
		id++
	}
	ids.taken[id], ids.next[base] = true, id+1
	return id
}

// insertRevlog writes a schedule's reviews.
func insertRevlog(db *gorm.DB, cid int64, sc *Schedule, ids *revlogIDs) error {
	last := 0
	for _, r := range sc.Reviews {
		id := ids.take(r.ReviewedAt)
		ms := 0
		if r.DurationMs != nil {
			ms = *r.DurationMs
		}
		if err := db.Exec(`INSERT INTO revlog VALUES (?, ?, 0, ?, ?, ?, ?, ?, ?)`,
			id, cid, r.Rating, r.ScheduledDays, last, defaultEase, ms, revlogType(r.State)).Error; err != nil {
			return err
		}
		last = r.ScheduledDays
	}
	return nil
}

// decodeCard reads a card's schedule from its row and its reviews (oldest
// first); nil for a new card. Due days count from crt and come back as
// the start of that day (Anki keeps no time of day for them). A card with
// no FSRS memory state in data (scheduled by SM-2) gets an estimate:
// stability its interval, middle difficulty.
func decodeCard(c *cardRow, revs []revlogRow, crt time.Time) *Schedule {
	if c.Type < stateLearning || c.Type > stateRelearning || !inWindow(crt) || c.Ivl > maxDays ||
		c.Reps < 0 || c.Reps > maxCount || c.Lapses < 0 || c.Lapses > maxCount {
		return nil
	}
	due := c.Due
	if c.Odid != 0 && c.Odue != 0 { // in a filtered deck: its home deck's due
		due = c.Odue
	}
	st := flashcards.CardState{State: c.Type, ScheduledDays: max(c.Ivl, 0), Reps: c.Reps, Lapses: c.Lapses}
	switch {
	case c.Type != stateReview && due >= 1e9: // a learning step: Unix seconds
		st.Due = time.Unix(min(due, maxTime.Unix()), 0).UTC()
	case due >= -maxDueDays && due <= maxDueDays:
		st.Due = crt.Add(time.Duration(due) * day)
	}
	if !inWindow(st.Due) {
		return nil
	}
	sc := &Schedule{Ord: c.Ord, Reviews: decodeReviews(revs)}
	var data cardData
	_ = json.Unmarshal([]byte(c.Data), &data) // absent or foreign: estimated below
	st.Stability, st.Difficulty = data.S, data.D
	if !(st.Stability > 0 && st.Stability <= 10*maxDays && st.Difficulty >= 1 && st.Difficulty <= 10) {
		st.Stability, st.Difficulty = math.Max(float64(st.ScheduledDays), 1), 5
	}
	switch {
	case data.Lrt > 0 && data.Lrt < maxTime.Unix():
		t := time.Unix(data.Lrt, 0).UTC()
		st.LastReview = &t
	case len(sc.Reviews) > 0:
		t := sc.Reviews[len(sc.Reviews)-1].ReviewedAt
		st.LastReview = &t
	default:
		t := st.Due.Add(-time.Duration(st.ScheduledDays) * day)
		st.LastReview = &t
	}
	if n := len(sc.Reviews); n > 0 {
		st.ElapsedDays = sc.Reviews[n-1].ElapsedDays
	}
	sc.State = st
	return sc
}

// decodeReviews keeps the reviews FSRS reads (a rating 1-4 of a learning,
// review, relearning or filtered-deck review; manual and rescheduling
// entries are not reviews) with the card's state before each and the days
// since the previous one; a review at an impossible time or with an
// impossible interval is left out, an impossible duration unrecorded.
func decodeReviews(revs []revlogRow) []flashcards.CardReview {
	var out []flashcards.CardReview
	var prev time.Time
	for _, r := range revs {
		at := time.UnixMilli(min(r.ID, maxTime.UnixMilli())).UTC()
		if r.Ease < 1 || r.Ease > 4 || r.Type < 0 || r.Type > 3 || r.Ivl > maxDays || !inWindow(at) {
			continue
		}
		state := map[int]int{0: stateLearning, 1: stateReview, 2: stateRelearning, 3: stateReview}[r.Type]
		elapsed := 0
		if len(out) == 0 && r.Type == 0 {
			state = stateNew
		} else if len(out) > 0 {
			elapsed = int(at.Sub(prev).Hours() / 24)
		}
		rv := flashcards.CardReview{Rating: r.Ease, State: state, ElapsedDays: elapsed,
			ScheduledDays: max(r.Ivl, 0), ReviewedAt: at}
		if r.Time > 0 && r.Time <= maxDurationMs {
			ms := r.Time
			rv.DurationMs = &ms
		}
		out = append(out, rv)
		prev = at
	}
	return out
}
