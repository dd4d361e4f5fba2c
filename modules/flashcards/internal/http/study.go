package http

import (
	"context"
	nethttp "net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/modules/flashcards/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
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

func registerStudy(r *httpapi.Router, svc *app.Service) {
	tags := []string{"flashcards"}
	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodGet, Path: "/flashcards/study/queue", Tags: tags,
		Summary: "Your due cards, least retrievable first, within the daily cap; with deck_id, that deck's new cards follow",
		Errors:  []int{nethttp.StatusNotFound},
	}, func(ctx context.Context, in *struct {
		DeckID int64 `query:"deck_id" minimum:"0" doc:"one deck (0: every deck you may study)"`
		Limit  int   `query:"limit" default:"50" minimum:"1" maximum:"200"`
	}) (*struct{ Body FlashcardQueue }, error) {
		q, err := svc.Queue(ctx, auth.MustFrom(ctx), in.DeckID, in.Limit)
		if err != nil {
			return nil, err
		}
		out := FlashcardQueue{ReviewsLeftToday: q.ReviewsLeftToday, Items: make([]FlashcardStudyItem, len(q.Items))}
		for i, it := range q.Items {
			out.Items[i] = toStudyItem(it)
		}
		return &struct{ Body FlashcardQueue }{out}, nil
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodGet, Path: "/flashcards/cards/{card_id}/outcomes", Tags: tags,
		Summary:     "What each rating would do to a card now: when it would be due again",
		Description: "The scheduler's answer for again, hard, good and easy, in that order; nothing is written. The least-loaded day is read now, so a review made later may land a day apart.",
		Errors:      []int{nethttp.StatusNotFound},
	}, func(ctx context.Context, in *CardPath) (*struct{ Body []FlashcardOutcome }, error) {
		os, err := svc.Outcomes(ctx, auth.MustFrom(ctx), in.CardID)
		if err != nil {
			return nil, err
		}
		out := make([]FlashcardOutcome, len(os))
		for i, o := range os {
			out[i] = FlashcardOutcome{Rating: o.Rating, Due: o.Due, ScheduledDays: o.ScheduledDays, State: o.State}
		}
		return &struct{ Body []FlashcardOutcome }{out}, nil
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodDelete, Path: "/flashcards/cards/{card_id}/review", Tags: tags,
		Summary:     "Undo your latest rating, of this card",
		Description: "The card's schedule returns to what it was before the rating (a new card is new again) and the review leaves the log; the answer is the card to study again. 409 when your latest rating is of another card.",
		Errors:      []int{nethttp.StatusNotFound, nethttp.StatusConflict},
	}, func(ctx context.Context, in *CardPath) (*struct{ Body FlashcardStudyItem }, error) {
		it, err := svc.Undo(ctx, auth.MustFrom(ctx), in.CardID)
		if err != nil {
			return nil, err
		}
		return &struct{ Body FlashcardStudyItem }{toStudyItem(*it)}, nil
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodPost, Path: "/flashcards/cards/{card_id}/review", Tags: tags,
		Summary: "Grade a card again, hard, good or easy; it is scheduled by FSRS at your retention, before your exam",
		Errors:  []int{nethttp.StatusNotFound},
	}, func(ctx context.Context, in *struct {
		CardPath
		Body struct {
			Rating     string  `json:"rating" enum:"again,hard,good,easy"`
			Answer     *string `json:"answer,omitempty" required:"false" maxLength:"2000" doc:"what you typed (type_in cards)"`
			DurationMs *int    `json:"duration_ms,omitempty" required:"false" minimum:"0" maximum:"86400000"`
		}
	}) (*struct{ Body FlashcardReview }, error) {
		b := in.Body
		res, err := svc.Review(ctx, auth.MustFrom(ctx), in.CardID, app.Review{Rating: b.Rating, Answer: b.Answer, DurationMs: b.DurationMs})
		if err != nil {
			return nil, err
		}
		return &struct{ Body FlashcardReview }{FlashcardReview{CardID: res.CardID, Due: res.Due,
			ScheduledDays: res.ScheduledDays, State: res.State, Correct: res.Correct}}, nil
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodGet, Path: "/flashcards/study/settings", Tags: tags,
		Summary: "Your desired retention (0.9 until you set it)",
	}, func(ctx context.Context, _ *struct{}) (*struct{ Body flashcardSettings }, error) {
		rt, err := svc.Retention(ctx, auth.MustFrom(ctx))
		if err != nil {
			return nil, err
		}
		return &struct{ Body flashcardSettings }{flashcardSettings{rt}}, nil
	})
	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodPut, Path: "/flashcards/study/settings", Tags: tags,
		Summary: "Set your desired retention (0.7 to 0.99); it applies from your next review",
	}, func(ctx context.Context, in *struct{ Body flashcardSettings }) (*struct{ Body flashcardSettings }, error) {
		if err := svc.SetRetention(ctx, auth.MustFrom(ctx), in.Body.DesiredRetention); err != nil {
			return nil, err
		}
		return &struct{ Body flashcardSettings }{in.Body}, nil
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodPut, Path: "/flashcards/{deck_id}/exam", Tags: tags,
		Summary: "Set your exam date for a deck: every card's last review falls before it",
		Errors:  []int{nethttp.StatusNotFound},
	}, func(ctx context.Context, in *struct {
		DeckPath
		Body struct {
			ExamDate string `json:"exam_date" format:"date" doc:"YYYY-MM-DD, after today"`
		}
	}) (*deckOut, error) {
		d, err := parseDate("body.exam_date", in.Body.ExamDate)
		if err != nil {
			return nil, err
		}
		v, err := svc.SetExam(ctx, auth.MustFrom(ctx), in.DeckID, d)
		if err != nil {
			return nil, err
		}
		return toDetail(v), nil
	})
	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodDelete, Path: "/flashcards/{deck_id}/exam", Tags: tags,
		Summary: "Clear your exam date for a deck",
		Errors:  []int{nethttp.StatusNotFound},
	}, func(ctx context.Context, in *DeckPath) (*deckOut, error) {
		v, err := svc.SetExam(ctx, auth.MustFrom(ctx), in.DeckID, nil)
		if err != nil {
			return nil, err
		}
		return toDetail(v), nil
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodGet, Path: "/flashcards/{deck_id}/forecast", Tags: tags,
		Summary: "Your reviews per day for a deck until your exam",
		Errors:  []int{nethttp.StatusNotFound},
	}, func(ctx context.Context, in *DeckPath) (*struct{ Body FlashcardForecast }, error) {
		f, err := svc.Forecast(ctx, auth.MustFrom(ctx), in.DeckID)
		if err != nil {
			return nil, err
		}
		out := FlashcardForecast{ExamDate: date(f.ExamDate), ExamFrom: f.ExamFrom, Unseen: f.Unseen, Days: make([]FlashcardForecastDay, len(f.Days))}
		for i, d := range f.Days {
			out.Days[i] = FlashcardForecastDay{Date: d.Day.Format(time.DateOnly), Reviews: d.N}
		}
		return &struct{ Body FlashcardForecast }{out}, nil
	})
}
