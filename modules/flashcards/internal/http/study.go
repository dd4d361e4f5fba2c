package http

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/modules/flashcards/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
)

// FlashcardStudyItem is a card to study, its sides rendered.
type FlashcardStudyItem struct {
	CardID         int64      `json:"card_id"`
	DeckID         int64      `json:"deck_id"`
	CardType       string     `json:"card_type"`
	Question       string     `json:"question" doc:"the side shown first (for cloze the passage with this card's deletions hidden)"`
	Answer         string     `json:"answer"`
	PictureID      *int64     `json:"picture_id"`
	Mask           *app.Mask  `json:"mask" doc:"image occlusion: the overlay shape to hide on the question side"`
	State          string     `json:"state" enum:"new,learning,review,relearning"`
	Due            *time.Time `json:"due" doc:"null for a new card"`
	Retrievability *float64   `json:"retrievability" doc:"probability of recall now; null for a new card"`
}

// FlashcardQueue is what to study now.
type FlashcardQueue struct {
	ReviewsLeftToday int                  `json:"reviews_left_today"`
	Items            []FlashcardStudyItem `json:"items"`
}

func toStudyItem(it app.Study) FlashcardStudyItem {
	return FlashcardStudyItem{CardID: it.Card.ID, DeckID: it.Card.DeckID, CardType: it.Card.CardType,
		Question: it.Question, Answer: it.Answer, PictureID: it.Card.PictureID, Mask: it.Card.Mask, State: it.State, Due: it.Due,
		Retrievability: it.Retrievability}
}

// FlashcardOutcome is what one rating would do to a card.
type FlashcardOutcome struct {
	Rating        string    `json:"rating" enum:"again,hard,good,easy"`
	Due           time.Time `json:"due" doc:"when the card would be due again"`
	ScheduledDays int       `json:"scheduled_days" doc:"whole days; 0 for a learning step in minutes"`
	State         string    `json:"state" enum:"new,learning,review,relearning"`
}

// FlashcardReview is a review's outcome.
type FlashcardReview struct {
	CardID        int64     `json:"card_id"`
	Due           time.Time `json:"due"`
	ScheduledDays int       `json:"scheduled_days"`
	State         string    `json:"state" enum:"new,learning,review,relearning"`
	Correct       *bool     `json:"correct" doc:"for a type_in card with a typed answer: whether it matched"`
}

// FlashcardForecast is a learner's reviews per day for a deck.
type FlashcardForecast struct {
	ExamDate *string                `json:"exam_date"`
	ExamFrom string                 `json:"exam_from" doc:"empty with no exam; deck: your date for this deck; plan: your next study-plan exam, used where you set none"`
	Days     []FlashcardForecastDay `json:"days" doc:"from today until the exam (or forecast_days with none); overdue cards count today"`
	Unseen   int64                  `json:"unseen" doc:"cards of the deck you have not started"`
}

// FlashcardForecastDay is one day of a forecast.
type FlashcardForecastDay struct {
	Date    string `json:"date"`
	Reviews int    `json:"reviews"`
}

type flashcardSettings struct {
	DesiredRetention float64 `json:"desired_retention" minimum:"0.7" maximum:"0.99" doc:"the recall probability your reviews aim at"`
}

// QueueInput asks for the cards to study now.
type QueueInput struct {
	DeckID int64 `query:"deck_id" minimum:"0" doc:"one deck (0: every deck you may study)"`
	Limit  int   `query:"limit" default:"50" minimum:"1" maximum:"200"`
}

// ReviewInput grades a card.
type ReviewInput struct {
	CardPath
	Body struct {
		Rating     string  `json:"rating" enum:"again,hard,good,easy"`
		Answer     *string `json:"answer,omitempty" required:"false" maxLength:"2000" doc:"what you typed (type_in cards)"`
		DurationMs *int    `json:"duration_ms,omitempty" required:"false" minimum:"0" maximum:"86400000"`
	} `nameHint:"Post-flashcards-cards-by-card-id-reviewRequest"`
}

// SettingsInput sets the learner's retention.
type SettingsInput struct{ Body flashcardSettings }

// ExamInput sets the learner's exam date for a deck.
type ExamInput struct {
	DeckPath
	Body struct {
		ExamDate string `json:"exam_date" format:"date" doc:"YYYY-MM-DD, after today"`
	} `nameHint:"Put-flashcards-by-deck-id-examRequest"`
}

type queueOut struct{ Body FlashcardQueue }

type outcomesOut struct{ Body []FlashcardOutcome }

type studyItemOut struct{ Body FlashcardStudyItem }

type reviewOut struct{ Body FlashcardReview }

type settingsOut struct{ Body flashcardSettings }

type forecastOut struct{ Body FlashcardForecast }

func toStudyItems(its []app.Study) []FlashcardStudyItem {
	out := make([]FlashcardStudyItem, len(its))
	for i, it := range its {
		out[i] = toStudyItem(it)
	}
	return out
}

func toOutcomes(os []app.Outcome) []FlashcardOutcome {
	out := make([]FlashcardOutcome, len(os))
	for i, o := range os {
		out[i] = FlashcardOutcome{Rating: o.Rating, Due: o.Due, ScheduledDays: o.ScheduledDays, State: o.State}
	}
	return out
}

func toForecast(f *app.Forecast) FlashcardForecast {
	out := FlashcardForecast{ExamDate: date(f.ExamDate), ExamFrom: f.ExamFrom, Unseen: f.Unseen, Days: make([]FlashcardForecastDay, len(f.Days))}
	for i, d := range f.Days {
		out.Days[i] = FlashcardForecastDay{Date: d.Day.Format(time.DateOnly), Reviews: d.N}
	}
	return out
}

func (h *handlers) queue(ctx context.Context, in *QueueInput) (*queueOut, error) {
	q, err := h.svc.Queue(ctx, auth.MustFrom(ctx), in.DeckID, in.Limit)
	if err != nil {
		return nil, err
	}
	return &queueOut{FlashcardQueue{ReviewsLeftToday: q.ReviewsLeftToday, Items: toStudyItems(q.Items)}}, nil
}

func (h *handlers) outcomes(ctx context.Context, in *CardPath) (*outcomesOut, error) {
	os, err := h.svc.Outcomes(ctx, auth.MustFrom(ctx), in.CardID)
	if err != nil {
		return nil, err
	}
	return &outcomesOut{toOutcomes(os)}, nil
}

func (h *handlers) undo(ctx context.Context, in *CardPath) (*studyItemOut, error) {
	it, err := h.svc.Undo(ctx, auth.MustFrom(ctx), in.CardID)
	if err != nil {
		return nil, err
	}
	return &studyItemOut{toStudyItem(*it)}, nil
}

func (h *handlers) review(ctx context.Context, in *ReviewInput) (*reviewOut, error) {
	b := in.Body
	res, err := h.svc.Review(ctx, auth.MustFrom(ctx), in.CardID, app.Review{Rating: b.Rating, Answer: b.Answer, DurationMs: b.DurationMs})
	if err != nil {
		return nil, err
	}
	return &reviewOut{FlashcardReview{CardID: res.CardID, Due: res.Due,
		ScheduledDays: res.ScheduledDays, State: res.State, Correct: res.Correct}}, nil
}

func (h *handlers) settings(ctx context.Context, _ *struct{}) (*settingsOut, error) {
	rt, err := h.svc.Retention(ctx, auth.MustFrom(ctx))
	if err != nil {
		return nil, err
	}
	return &settingsOut{flashcardSettings{rt}}, nil
}

func (h *handlers) setSettings(ctx context.Context, in *SettingsInput) (*settingsOut, error) {
	if err := h.svc.SetRetention(ctx, auth.MustFrom(ctx), in.Body.DesiredRetention); err != nil {
		return nil, err
	}
	return &settingsOut{in.Body}, nil
}

func (h *handlers) setExam(ctx context.Context, in *ExamInput) (*deckOut, error) {
	d, err := parseDate("body.exam_date", in.Body.ExamDate)
	if err != nil {
		return nil, err
	}
	return detailOf(h.svc.SetExam(ctx, auth.MustFrom(ctx), in.DeckID, d))
}

func (h *handlers) clearExam(ctx context.Context, in *DeckPath) (*deckOut, error) {
	return detailOf(h.svc.SetExam(ctx, auth.MustFrom(ctx), in.DeckID, nil))
}

func (h *handlers) forecast(ctx context.Context, in *DeckPath) (*forecastOut, error) {
	f, err := h.svc.Forecast(ctx, auth.MustFrom(ctx), in.DeckID)
	if err != nil {
		return nil, err
	}
	return &forecastOut{toForecast(f)}, nil
}
