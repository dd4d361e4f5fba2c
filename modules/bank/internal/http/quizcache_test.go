package http

import (
	"bytes"
	"testing"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/modules/bank/internal/app"
	"github.com/roundsedu/rounds/modules/bank/internal/store"
)

// TestDetailBytes: the bytes GET /quizzes/{id} writes (head, cached list,
// tail) are exactly what huma's JSON format writes for the typed
// QuizDetailBody, for either answer side, with text that encoding/json
// would escape as HTML by default, null and set optional fields.
func TestDetailBytes(t *testing.T) {
	at := time.Date(2026, 11, 26, 18, 0, 0, 123456789, time.UTC)
	cat, limit, section := "Renal <&> \u00e9", 30, int64(7)
	catID := int64(3)
	z := app.Quiz{Quiz: store.Quiz{ID: 42, SectionID: &section, UserID: 9, Title: `A "quiz" <b>&</b> ` + "\u2028",
		Mode: app.ModeTimed, TimeLimitMinutes: &limit, IsPublished: true, CategoryID: &catID, CreatedAt: at},
		QuestionsCount: 2, CategoryName: &cat}
	bare := app.Quiz{Quiz: store.Quiz{ID: 43, UserID: 9, Title: "Plain", Mode: app.ModeLearning, CreatedAt: at,
		DeletedAt: &at}}
	question := func(id int64, answers bool) *app.Question {
		q := &app.Question{AnswersShown: answers}
		q.ID, q.Text, q.Type = id, "Which <one> & why?", "mcq"
		q.Options = []string{"A<", "B&", "C>"}
		q.CorrectAnswer, q.Explanation, q.AttendingTip = "B&", "Because <b>", "tip"
		q.OptionExplanations, q.KeyPoints = []string{"x", "y", "z"}, []string{"k"}
		q.ExplanationImagePath, q.ImagePath = "figures/e.png", ""
		q.CategoryID, q.CategoryName = &catID, cat
		q.Version, q.CreatedAt, q.UpdatedAt = 4, at, at
		return q
	}
	for _, c := range []struct {
		quiz    app.Quiz
		answers bool
		qs      []*app.Question
	}{
		{z, false, []*app.Question{question(1, false), question(2, false)}},
		{z, true, []*app.Question{question(1, true), question(2, true)}},
		{bare, true, []*app.Question{}},
	} {
		typed := QuizDetailBody{QuizBody: toQuizBody(&c.quiz), AnswersShown: c.answers,
			Questions: toQuestionBodies(c.qs)}
		var want bytes.Buffer
		if err := huma.DefaultJSONFormat.Marshal(&want, typed); err != nil {
			t.Fatal(err)
		}
		head, err := detailHead(toQuizBody(&c.quiz), c.answers)
		if err != nil {
			t.Fatal(err)
		}
		list, err := encodeJSON(toQuestionBodies(c.qs))
		if err != nil {
			t.Fatal(err)
		}
		got := bytes.Join([][]byte{head, list, detailTail}, nil)
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("quiz %d, answers %v:\n got %s\nwant %s", c.quiz.ID, c.answers, got, want.Bytes())
		}
	}
}
