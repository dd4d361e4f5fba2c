package bank

import (
	"github.com/roundsedu/rounds/modules/bank/internal/app"
	"github.com/roundsedu/rounds/platform/apperr"
)

// The named converters between the service's types and the DTOs of
// facade.go, for offers.go.

// converted hands v to its converter unless err is set: an offer's second
// line.
func converted[T, U any](v T, err error, to func(T) U) (U, error) {
	if err != nil {
		var none U
		return none, err
	}
	return to(v), nil
}

// facadeErr maps the service's 404 to ErrNotFound; other errors (a
// validation failure is an *apperr.Error) pass through.
func facadeErr(err error) error {
	if apperr.Is(err, apperr.NotFound) {
		return ErrNotFound
	}
	return err
}

func toQuizSnapshot(d *app.QuizDetail) *QuizSnapshot {
	out := &QuizSnapshot{ID: d.ID, Title: d.Title, Mode: d.Mode, TimeLimitMinutes: d.TimeLimitMinutes,
		IsPublished: d.IsPublished, SavedTest: d.SavedTest, Questions: make([]QuestionSnapshot, 0, len(d.Questions)),
		ContentVersion: d.Version}
	for _, q := range d.Questions {
		out.Questions = append(out.Questions, toQuestionSnapshot(q))
	}
	return out
}

func toQuestionSnapshot(q *app.Question) QuestionSnapshot {
	return QuestionSnapshot{ID: q.ID, Type: q.Type, Text: q.Text, Options: q.Options,
		CorrectAnswer: q.CorrectAnswer, Explanation: q.Explanation, OptionExplanations: q.OptionExplanations,
		KeyPoints: q.KeyPoints, AttendingTip: q.AttendingTip, ExplanationImagePath: q.ExplanationImagePath,
		ImagePath: q.ImagePath, CategoryID: q.CategoryID, CategoryName: q.CategoryName, Version: q.Version}
}

func toNewQuestions(qs []NewQuestion) []app.NewQuestion {
	out := make([]app.NewQuestion, len(qs))
	for i, q := range qs {
		out[i] = app.NewQuestion{CategoryID: q.CategoryID, Content: app.Content{Type: q.Type, Text: q.Text,
			Options: q.Options, CorrectAnswer: q.CorrectAnswer, Explanation: q.Explanation,
			ImagePath: q.ImagePath, ExplanationImagePath: q.ExplanationImagePath}}
	}
	return out
}

func quizID(z *app.Quiz) int64 { return z.ID }

func toTutorQuestion(q *app.Question) *TutorQuestion {
	return &TutorQuestion{ID: q.ID, Text: q.Text, Options: q.Options, CorrectAnswer: q.CorrectAnswer,
		Explanation: q.Explanation, AnswersShown: q.AnswersShown, CategoryID: q.CategoryID, CategoryName: q.CategoryName}
}

func toRatedQuestions(rows []app.Rated) []RatedQuestion {
	out := make([]RatedQuestion, len(rows))
	for i, r := range rows {
		out[i] = RatedQuestion{ID: r.ID, Text: r.QuestionText, Options: r.Options, CorrectAnswer: r.CorrectAnswer,
			Explanation: r.Explanation, Difficulty: r.Difficulty}
	}
	return out
}
