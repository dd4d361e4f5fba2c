package app

import (
	"bytes"
	"context"
	"encoding/csv"
	"strconv"

	"github.com/roundsedu/rounds/platform/auth"
)

// RevlogColumns are the review log columns FSRS optimisers read
// (open-spaced-repetition's fsrs-optimizer revlog.csv): the card, the
// review's time in ms since the Unix epoch, the rating 1-4, the card's
// state before the review (0 new, 1 learning, 2 review, 3 relearning) and
// the answer's duration in ms (0 when not measured).
var RevlogColumns = []string{"card_id", "review_time", "review_rating", "review_state", "review_duration"}

// ExportReviews writes p's reviews of a deck they may study as that CSV,
// by card then time.
func (s *Service) ExportReviews(ctx context.Context, p auth.Principal, deckID int64) (*bytes.Buffer, error) {
	logs, err := s.ports.Flashcards.Reviews(ctx, p, deckID)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	_ = w.Write(RevlogColumns) // a bytes.Buffer does not fail; Flush reports any error
	for _, l := range logs {
		ms := 0
		if l.DurationMs != nil {
			ms = *l.DurationMs
		}
		_ = w.Write([]string{strconv.FormatInt(l.CardID, 10), strconv.FormatInt(l.ReviewedAt.UnixMilli(), 10),
			strconv.Itoa(l.Rating), strconv.Itoa(l.State), strconv.Itoa(ms)})
	}
	w.Flush()
	return &buf, w.Error()
}
