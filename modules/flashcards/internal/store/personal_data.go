package store

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/platform/module"
)

// CardStateExport is the learner's FSRS state of one card.
type CardStateExport struct {
	CardID        int64      `json:"card_id"`
	DeckID        int64      `json:"deck_id"`
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

// ReviewExport is one review, in the fields FSRS optimisers read.
type ReviewExport struct {
	CardID        int64     `json:"card_id"`
	DeckID        int64     `json:"deck_id"`
	Rating        int       `json:"rating"`
	State         int       `json:"state"`
	ElapsedDays   int       `json:"elapsed_days"`
	ScheduledDays int       `json:"scheduled_days"`
	ReviewedAt    time.Time `json:"reviewed_at"`
	DurationMs    *int      `json:"duration_ms"`
}

// StudySettingsExport is the learner's scheduling choice.
type StudySettingsExport struct {
	DesiredRetention float64 `json:"desired_retention"`
}

// DeckExamExport is an exam date the learner set for a deck.
type DeckExamExport struct {
	DeckID   int64     `json:"deck_id"`
	ExamDate time.Time `json:"exam_date"`
}

// OwnDeckExport is a deck the learner made (it stays when they go: others
// may study it).
type OwnDeckExport struct {
	ID          int64     `json:"id"`
	Title       string    `json:"title"`
	Description string    `json:"description"`
	CreatedAt   time.Time `json:"created_at"`
}

// ExportPersonalData writes the learner's card states, review log, study
// settings, deck exam dates and the decks they made.
func (s *Store) ExportPersonalData(ctx context.Context, userID int64, x *module.Export) error {
	conn := s.db.Conn(ctx)
	if err := module.Rows[CardStateExport](x, "card_states", conn.Raw(`
		SELECT `+stateCols+`, last_review FROM flashcards.card_states WHERE user_id = ? ORDER BY card_id`,
		userID)); err != nil {
		return err
	}
	if err := module.Rows[ReviewExport](x, "reviews", conn.Raw(`
		SELECT card_id, deck_id, rating, state, elapsed_days, scheduled_days, reviewed_at, duration_ms
		  FROM flashcards.review_logs WHERE user_id = ? ORDER BY reviewed_at, id`, userID)); err != nil {
		return err
	}
	if err := module.Rows[StudySettingsExport](x, "settings", conn.Raw(`
		SELECT desired_retention FROM flashcards.learner_settings WHERE user_id = ?`, userID)); err != nil {
		return err
	}
	if err := module.Rows[DeckExamExport](x, "deck_exams", conn.Raw(`
		SELECT deck_id, exam_date FROM flashcards.deck_exams WHERE user_id = ? ORDER BY deck_id`, userID)); err != nil {
		return err
	}
	return module.Rows[OwnDeckExport](x, "decks", conn.Raw(`
		SELECT id, title, description, created_at FROM flashcards.decks
		 WHERE user_id = ? AND deleted_at IS NULL ORDER BY id`, userID))
}
