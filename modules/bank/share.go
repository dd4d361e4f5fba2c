package bank

import (
	"context"

	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
)

// ShareKinds names what may be shared from the bank (the share module's
// Target).
func (m *Module) ShareKinds() []string { return []string{"quiz"} }

// ShareTarget lets anyone who may sit a published quiz share it. Answers
// go out with a link only for a learning-mode quiz, whose sitters see them
// at once anyway, or from a moderator: a learner must not hand round the
// key of a timed quiz.
func (m *Module) ShareTarget(ctx context.Context, p auth.Principal, _ string, id int64, withAnswers bool) (string, error) {
	z, err := m.svc.QuizForSitting(ctx, p, id)
	if err != nil {
		return "", err
	}
	if !z.IsPublished {
		return "", apperr.Conflictf("only a published quiz can be shared")
	}
	if withAnswers && z.Mode != ModeLearning && !p.IsModerator() {
		return "", apperr.Forbiddenf("only a moderator may share the answers of a timed quiz")
	}
	return z.Title, nil
}

// SharedQuiz is a quiz as a share link's visitor reads it. Figures are left
// out: uploads are served only to signed-in callers.
type SharedQuiz struct {
	Title            string           `json:"title"`
	Mode             string           `json:"mode"`
	TimeLimitMinutes *int             `json:"time_limit_minutes"`
	Questions        []SharedQuestion `json:"questions"`
}

// SharedQuestion is one question of a shared quiz; the answer side only
// when the link was made with answers.
type SharedQuestion struct {
	ID            int64    `json:"id"`
	Type          string   `json:"question_type"`
	Text          string   `json:"question_text"`
	Options       []string `json:"options"`
	CorrectAnswer string   `json:"correct_answer,omitempty"`
	Explanation   string   `json:"explanation,omitempty"`
}

// SharedView is the quiz while it is still published (410 once it is not).
func (m *Module) SharedView(ctx context.Context, _ string, id int64, withAnswers bool) (any, error) {
	z, err := m.svc.QuizForSitting(ctx, auth.Principal{}, id)
	if apperr.Is(err, apperr.NotFound) {
		return nil, apperr.Gone("this quiz is no longer published")
	}
	if err != nil {
		return nil, err
	}
	out := SharedQuiz{Title: z.Title, Mode: z.Mode, TimeLimitMinutes: z.TimeLimitMinutes,
		Questions: make([]SharedQuestion, len(z.Questions))}
	for i, q := range z.Questions {
		out.Questions[i] = SharedQuestion{ID: q.ID, Type: q.Type, Text: q.Text, Options: q.Options}
		if withAnswers {
			out.Questions[i].CorrectAnswer, out.Questions[i].Explanation = q.CorrectAnswer, q.Explanation
		}
	}
	return out, nil
}
