package bank

import (
	"context"

	"github.com/roundsedu/rounds/modules/bank/internal/app"
)

// Difficulties are the levels a question may be rated.
var Difficulties = app.Difficulties

// RatedQuestion is a live question as a model reads it to write from it
// or to rate how hard it is; Difficulty is nil until rated.
type RatedQuestion struct {
	ID            int64
	Text          string
	Options       []string
	CorrectAnswer string
	Explanation   string
	Difficulty    *string
}

// RatedQuestions reads up to limit live questions, by id: those among ids,
// or when categoryID is set those filed in its branch (422 for a category
// that does not exist). The service's own work (generation jobs) reads
// them: callers check who asked.
func (m *Module) RatedQuestions(ctx context.Context, ids []int64, categoryID *int64, limit int) ([]RatedQuestion, error) {
	rows, err := m.svc.RatedQuestions(ctx, ids, categoryID, limit)
	if err != nil {
		return nil, err
	}
	out := make([]RatedQuestion, len(rows))
	for i, r := range rows {
		out[i] = RatedQuestion{ID: r.ID, Text: r.QuestionText, Options: r.Options, CorrectAnswer: r.CorrectAnswer,
			Explanation: r.Explanation, Difficulty: r.Difficulty}
	}
	return out, nil
}

// SetDifficulty rates questions (id → easy, medium or hard) in one
// transaction; questions binned meanwhile are skipped. It counts those
// rated.
func (m *Module) SetDifficulty(ctx context.Context, levels map[int64]string) (int64, error) {
	return m.svc.SetDifficulty(ctx, levels)
}
