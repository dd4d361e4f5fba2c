package bank

import (
	"context"

	"github.com/roundsedu/rounds/platform/auth"
)

// TutorQuestion is a question as the AI tutor may discuss it with the
// caller: the answer side is filled in only when the caller may see it
// (AnswersShown: an editor, or inside the caller's own attempt that shows
// answers), exactly as the question detail redacts it.
type TutorQuestion struct {
	ID            int64
	Text          string
	Options       []string
	CorrectAnswer string
	Explanation   string
	AnswersShown  bool
}

// TutorQuestion reads a question for the tutor with the caller's
// redaction; attemptID is the caller's attempt, as for the detail route.
func (m *Module) TutorQuestion(ctx context.Context, p auth.Principal, id int64, attemptID *int64) (*TutorQuestion, error) {
	q, err := m.svc.Detail(ctx, p, id, attemptID)
	if err != nil {
		return nil, err
	}
	return &TutorQuestion{ID: q.ID, Text: q.Text, Options: q.Options, CorrectAnswer: q.CorrectAnswer,
		Explanation: q.Explanation, AnswersShown: q.AnswersShown}, nil
}

// QuestionStems gives the text of the live questions among ids (stems are
// open to anyone signed in); missing ids are left out.
func (m *Module) QuestionStems(ctx context.Context, ids []int64) (map[int64]string, error) {
	return m.svc.LiveStems(ctx, ids)
}
