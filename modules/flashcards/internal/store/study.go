package store

import (
	"context"
	"database/sql/driver"
	"encoding/json"
	"time"

	"github.com/roundsedu/rounds/platform/db"
)

// stateCols are a card state's columns after its learner, up to the last
// review (null until the first review is saved): what a new state is made
// with and what the learner's export shows.
const stateCols = `card_id, deck_id, due, stability, difficulty, elapsed_days, scheduled_days, reps, lapses, state`

// LockState reads a learner's state of a card under a row lock, making a
// new-card row first when there is none (so two first reviews of the same
// card queue on the lock instead of racing to insert).
func (s *Store) LockState(ctx context.Context, userID int64, c *Card, now time.Time) (*State, error) {
	if err := s.db.Conn(ctx).Exec(`INSERT INTO flashcards.card_states (user_id, `+stateCols+`)
		VALUES (?, ?, ?, ?, 0, 0, 0, 0, 0, 0, 0) ON CONFLICT DO NOTHING`, userID, c.ID, c.DeckID, now).Error; err != nil {
		return nil, err
	}
	var st State
	err := s.db.Locked(ctx).Where("user_id = ? AND card_id = ?", userID, c.ID).Take(&st).Error
	return &st, err
}

// Prior is a learner's state of a card before a review, kept on the
// review's log row (jsonb) so the review can be taken back.
type Prior struct {
	Due           time.Time  `json:"due"`
	Stability     float64    `json:"stability"`
	Difficulty    float64    `json:"difficulty"`
	ElapsedDays   int        `json:"elapsed_days"`
	ScheduledDays int        `json:"scheduled_days"`
	Reps          int        `json:"reps"`
	Lapses        int        `json:"lapses"`
	State         int        `json:"state"`
	LastReview    *time.Time `json:"last_review"`
}

// PriorOf copies the scheduling fields of a state.
func PriorOf(st *State) *Prior {
	return &Prior{Due: st.Due, Stability: st.Stability, Difficulty: st.Difficulty, ElapsedDays: st.ElapsedDays,
		ScheduledDays: st.ScheduledDays, Reps: st.Reps, Lapses: st.Lapses, State: st.State, LastReview: st.LastReview}
}

// Value stores a prior state as jsonb.
func (p Prior) Value() (driver.Value, error) { return json.Marshal(p) }

// Scan reads a prior state from jsonb.
func (p *Prior) Scan(src any) error { return db.ScanJSON(src, p) }

// SaveReview writes the state after a review and its log row.
func (s *Store) SaveReview(ctx context.Context, st *State, log *ReviewLog) error {
	if err := s.db.Conn(ctx).Save(st).Error; err != nil {
		return err
	}
	return s.db.Conn(ctx).Omit("ID").Create(log).Error
}

// StateOf reads a learner's state of a card, optionally under a row lock
// (db.ErrNotFound when they never reviewed it).
func (s *Store) StateOf(ctx context.Context, userID, cardID int64, lock db.Lock) (*State, error) {
	var st State
	if err := s.db.Locking(ctx, lock).Where("user_id = ? AND card_id = ?", userID, cardID).Take(&st).Error; err != nil {
		return nil, err
	}
	return &st, nil
}

// LatestReview reads the learner's most recent review of any card
// (db.ErrNotFound when they have none).
func (s *Store) LatestReview(ctx context.Context, userID int64) (*ReviewLog, error) {
	var l ReviewLog
	err := s.db.Conn(ctx).Where("user_id = ?", userID).Order("reviewed_at DESC, id DESC").Take(&l).Error
	if err != nil {
		return nil, err
	}
	return &l, nil
}

// Unreview takes a review back: the state before it returns (a card that
// was new loses its state row, so it is new again) and its log row goes.
func (s *Store) Unreview(ctx context.Context, st *State, log *ReviewLog) error {
	p := log.Prior
	var err error
	if p.Reps == 0 && p.LastReview == nil {
		err = s.db.Conn(ctx).Delete(st).Error
	} else {
		st.Due, st.Stability, st.Difficulty = p.Due, p.Stability, p.Difficulty
		st.ElapsedDays, st.ScheduledDays, st.Reps, st.Lapses = p.ElapsedDays, p.ScheduledDays, p.Reps, p.Lapses
		st.State, st.LastReview = p.State, p.LastReview
		err = s.db.Conn(ctx).Save(st).Error
	}
	if err != nil {
		return err
	}
	return s.db.Conn(ctx).Delete(log).Error
}

// DueLoad counts the learner's cards due around each day offset lo..hi
// from now: day k holds those due within half a day of now + k days (due
// dates are set a whole number of days after a review, so a card due on
// day k stays there as now moves on within the day).
func (s *Store) DueLoad(ctx context.Context, userID int64, now time.Time, lo, hi int) ([]int, error) {
	var rows []struct{ K, N int }
	day := 24 * time.Hour
	err := s.db.Conn(ctx).Raw(`SELECT round(extract(epoch FROM due - ?) / 86400)::int AS k, count(*) AS n
		FROM flashcards.card_states WHERE user_id = ? AND due >= ? AND due < ? GROUP BY 1`,
		now, userID, now.Add(time.Duration(lo)*day-day/2), now.Add(time.Duration(hi)*day+day/2)).
		Scan(&rows).Error
	out := make([]int, hi-lo+1)
	for _, r := range rows {
		if r.K >= lo && r.K <= hi {
			out[r.K-lo] = r.N
		}
	}
	return out, err
}

// QueueItem is a card in a learner's queue with its state (nil for a new
// card) and retrievability now.
type QueueItem struct {
	Card
	Due            *time.Time
	State          *int
	Retrievability *float64
}

// Curve is the forgetting curve's constants, R = (1 + Factor·t/S)^Decay.
type Curve struct{ Factor, Decay float64 }

// DueCards lists the learner's due cards in the decks within reach (or in
// one deck), the least retrievable first.
//
// R = (1 + Factor·t/S)^Decay falls as t/S grows (Decay < 0), so the rows
// are ranked on t/S in double precision and R is computed for the page
// alone: ranking on R itself, with extract's numeric arithmetic, cost
// five times as much per due row (docs/performance.md).
func (s *Store) DueCards(ctx context.Context, userID int64, r Reach, deckID int64, now time.Time, cv Curve, limit int) ([]QueueItem, error) {
	where, args := r.visible(`WHERE s.user_id = ? AND s.due <= ?`)
	args = append([]any{float64(now.UnixMicro()) / 1e6, userID, now}, args...)
	if deckID != 0 {
		where += " AND s.deck_id = ?"
		args = append(args, deckID)
	}
	// Rank on the state rows alone, then read the few cards ranked.
	var out []QueueItem
	err := s.db.Conn(ctx).Raw(`WITH top AS (SELECT s.card_id, s.due, s.state,
			greatest((CAST(? AS float8) - date_part('epoch', s.last_review)) / 86400, 0) / greatest(s.stability, 0.001) AS age
		FROM flashcards.card_states s
		JOIN flashcards.decks d ON d.id = s.deck_id
		`+where+` ORDER BY age DESC, s.due, s.card_id LIMIT ?)
		SELECT c.*, top.due, top.state, power(1 + ? * top.age, ?) AS retrievability
		FROM top JOIN flashcards.cards c ON c.id = top.card_id
		ORDER BY top.age DESC, top.due, top.card_id`, append(args, limit, cv.Factor, cv.Decay)...).Scan(&out).Error
	return out, err
}

// NewCards lists cards the learner has never reviewed, in the decks within
// reach (or in one deck): deck by deck as the deck list orders them (the
// most recently changed first), each deck's in the order written.
func (s *Store) NewCards(ctx context.Context, userID int64, r Reach, deckID int64, limit int) ([]QueueItem, error) {
	where, args := r.visible(`WHERE NOT EXISTS (SELECT 1 FROM flashcards.card_states s
		WHERE s.user_id = ? AND s.card_id = c.id)`)
	args = append([]any{userID}, args...)
	if deckID != 0 {
		where += " AND c.deck_id = ?"
		args = append(args, deckID)
	}
	var out []QueueItem
	err := s.db.Conn(ctx).Raw(`SELECT c.* FROM flashcards.cards c JOIN flashcards.decks d ON d.id = c.deck_id `+
		where+` ORDER BY d.updated_at DESC, d.id DESC, c.id LIMIT ?`, append(args, limit)...).Scan(&out).Error
	return out, err
}

// ReviewedSince counts the learner's reviews since a moment: all, and
// those of new cards in one deck (every deck with deckID 0).
func (s *Store) ReviewedSince(ctx context.Context, userID, deckID int64, since time.Time) (all, fresh int, err error) {
	var row struct{ All, Fresh int }
	err = s.db.Conn(ctx).Raw(`SELECT count(*) AS all,
		count(*) FILTER (WHERE state = 0 AND (deck_id = ? OR ? = 0)) AS fresh
		FROM flashcards.review_logs WHERE user_id = ? AND reviewed_at >= ?`, deckID, deckID, userID, since).Scan(&row).Error
	return row.All, row.Fresh, err
}

// Retention reads the learner's desired retention (0 when unset).
func (s *Store) Retention(ctx context.Context, userID int64) (float64, error) {
	var r float64
	err := s.db.Conn(ctx).Raw(`SELECT coalesce((SELECT desired_retention FROM flashcards.learner_settings
		WHERE user_id = ?), 0)`, userID).Scan(&r).Error
	return r, err
}

// SetRetention stores the learner's desired retention.
func (s *Store) SetRetention(ctx context.Context, userID int64, r float64) error {
	return s.db.Conn(ctx).Exec(`INSERT INTO flashcards.learner_settings (user_id, desired_retention) VALUES (?, ?)
		ON CONFLICT (user_id) DO UPDATE SET desired_retention = excluded.desired_retention`, userID, r).Error
}

// Exam reads the learner's exam date for a deck (nil when none).
func (s *Store) Exam(ctx context.Context, userID, deckID int64) (*time.Time, error) {
	var rows []time.Time
	err := s.db.Conn(ctx).Raw(`SELECT exam_date FROM flashcards.deck_exams WHERE user_id = ? AND deck_id = ?`,
		userID, deckID).Scan(&rows).Error
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	return &rows[0], nil
}

// SetExam stores (or with nil removes) the learner's exam date for a deck.
func (s *Store) SetExam(ctx context.Context, userID, deckID int64, date *time.Time) error {
	if date == nil {
		return s.db.Conn(ctx).Exec(`DELETE FROM flashcards.deck_exams WHERE user_id = ? AND deck_id = ?`,
			userID, deckID).Error
	}
	return s.db.Conn(ctx).Exec(`INSERT INTO flashcards.deck_exams (user_id, deck_id, exam_date) VALUES (?, ?, ?)
		ON CONFLICT (user_id, deck_id) DO UPDATE SET exam_date = excluded.exam_date`, userID, deckID, *date).Error
}

// DayCount is how many reviews fall on a day.
type DayCount struct {
	Day time.Time
	N   int
}

// Forecast counts the learner's cards of a deck due on each day from today
// (overdue ones count today) up to, not including, until.
func (s *Store) Forecast(ctx context.Context, userID, deckID int64, today, until time.Time) ([]DayCount, error) {
	var out []DayCount
	err := s.db.Conn(ctx).Raw(`SELECT greatest(date_trunc('day', due, 'UTC'), ?) AS day, count(*) AS n
		FROM flashcards.card_states WHERE user_id = ? AND deck_id = ? AND due < ? GROUP BY 1 ORDER BY 1`,
		today, userID, deckID, until).Scan(&out).Error
	return out, err
}

// UnseenCards counts a deck's cards the learner has never reviewed.
func (s *Store) UnseenCards(ctx context.Context, userID, deckID int64) (int64, error) {
	var n int64
	err := s.db.Conn(ctx).Raw(`SELECT count(*) FROM flashcards.cards c WHERE c.deck_id = ?
		AND NOT EXISTS (SELECT 1 FROM flashcards.card_states s WHERE s.user_id = ? AND s.card_id = c.id)`,
		deckID, userID).Scan(&n).Error
	return n, err
}

// ForgetUser removes what a learner owned here (decks they made stay).
func (s *Store) ForgetUser(ctx context.Context, userID int64) error {
	return s.db.Tx(ctx, func(ctx context.Context) error {
		for _, t := range []string{"card_states", "review_logs", "learner_settings", "deck_exams"} {
			if err := s.db.Conn(ctx).Exec(`DELETE FROM flashcards.`+t+` WHERE user_id = ?`, userID).Error; err != nil {
				return err
			}
		}
		return nil
	})
}
