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
	CategoryID    *int64 // where it is filed (nil: unfiled)
	CategoryName  string
}

// TutorQuestion reads a question for the tutor with the caller's
// redaction; attemptID is the caller's attempt, as for the detail route.
// A question the caller does not reach (nor sat in that attempt, answers
// open) is the 404 of a missing one.
func (m *Module) TutorQuestion(ctx context.Context, p auth.Principal, id int64, attemptID *int64) (*TutorQuestion, error) {
	q, err := m.svc.ReachedDetail(ctx, p, id, attemptID)
	if err != nil {
		return nil, err
	}
	return &TutorQuestion{ID: q.ID, Text: q.Text, Options: q.Options, CorrectAnswer: q.CorrectAnswer,
		Explanation: q.Explanation, AnswersShown: q.AnswersShown, CategoryID: q.CategoryID, CategoryName: q.CategoryName}, nil
}

// QuestionStems gives the text of the questions among ids that p reaches;
// the others are left out, as missing ones are.
func (m *Module) QuestionStems(ctx context.Context, p auth.Principal, ids []int64) (map[int64]string, error) {
	return m.svc.ReachedStems(ctx, p, ids)
}
