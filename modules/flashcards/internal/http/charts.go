package http

import (
	"context"
	"math"
	"net/http"
	"time"

	"github.com/roundsedu/rounds/modules/flashcards/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

func chartRoutes(r *httpapi.Router, h *handlers) {
	const tag = "flashcards"
	httpapi.Register(r, auth.User, httpapi.Described(httpapi.Op(http.MethodGet, "/flashcards/stats/charts", tag,
		"Your flashcard statistics: cards due per day, true retention by interval, the stability spread", 0),
		"Across the decks you may study. New cards have no due date: the due chart counts the ones the queue "+
			"would introduce, new_per_day a day (today what is left of it), until your unseen cards run out."),
		h.charts)
}

// CardDueDayResponse is one day of the due chart.
type CardDueDayResponse struct {
	Day      string `json:"day" doc:"YYYY-MM-DD (UTC); overdue cards count today"`
	New      int    `json:"new" doc:"new cards the daily allowance introduces"`
	Learning int    `json:"learning" doc:"learning and relearning cards"`
	Review   int    `json:"review"`
}

// RetentionBucketResponse is the true retention of reviews after one
// range of intervals.
type RetentionBucketResponse struct {
	MinDays   int      `json:"min_days" doc:"days since the previous review, from"`
	MaxDays   *int     `json:"max_days" doc:"to, inclusive; null: no upper end"`
	Reviews   int      `json:"reviews" doc:"reviews of cards in review (not learning or relearning)"`
	Passed    int      `json:"passed" doc:"those not rated again"`
	Retention *float64 `json:"retention" doc:"passed over reviews, percent; null without reviews"`
}

// StabilityBucketResponse counts the cards whose FSRS stability falls in
// one range.
type StabilityBucketResponse struct {
	MinDays float64  `json:"min_days" doc:"stability from (days)"`
	MaxDays *float64 `json:"max_days" doc:"below (days); null: no upper end"`
	Cards   int      `json:"cards"`
}

// CardChartsResponse is what the flashcards statistics screen draws.
type CardChartsResponse struct {
	Due       []CardDueDayResponse      `json:"due" doc:"today and the next 29 days"`
	Unseen    int                       `json:"unseen" doc:"cards within reach never reviewed"`
	NewPerDay int                       `json:"new_per_day"`
	Retention []RetentionBucketResponse `json:"retention"`
	Stability []StabilityBucketResponse `json:"stability" doc:"reviewed cards in decks you may study"`
}

type cardChartsOut struct{ Body CardChartsResponse }

func (h *handlers) charts(ctx context.Context, _ *struct{}) (*cardChartsOut, error) {
	c, err := h.svc.CardCharts(ctx, auth.MustFrom(ctx))
	if err != nil {
		return nil, err
	}
	return &cardChartsOut{Body: CardChartsResponse{Due: toDueDays(c.Due), Unseen: c.Unseen, NewPerDay: c.NewPerDay,
		Retention: toRetention(c.Retention), Stability: toStability(c.Stability)}}, nil
}

func toDueDays(days []app.DueDay) []CardDueDayResponse {
	out := make([]CardDueDayResponse, len(days))
	for i, d := range days {
		out[i] = CardDueDayResponse{Day: d.Day.Format(time.DateOnly), New: d.New, Learning: d.Learning, Review: d.Review}
	}
	return out
}

func toRetention(bs []app.Bucket) []RetentionBucketResponse {
	out := make([]RetentionBucketResponse, len(bs))
	for i, b := range bs {
		out[i] = RetentionBucketResponse{MinDays: int(b.Lower), Reviews: b.N, Passed: b.Passed}
		if b.Upper != nil {
			to := int(*b.Upper) - 1
			out[i].MaxDays = &to
		}
		if b.N > 0 {
			v := math.Round(float64(b.Passed)*10000/float64(b.N)) / 100
			out[i].Retention = &v
		}
	}
	return out
}

func toStability(bs []app.Bucket) []StabilityBucketResponse {
	out := make([]StabilityBucketResponse, len(bs))
	for i, b := range bs {
		out[i] = StabilityBucketResponse{MinDays: b.Lower, MaxDays: b.Upper, Cards: b.N}
	}
	return out
}
