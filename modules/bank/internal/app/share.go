package app

import (
	"context"

	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
)

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

// ShareableQuiz checks p may hand out a link to quiz id and gives its
// title: anyone who may sit it (404 otherwise), once it is published (409
// otherwise). Answers go out with a link only for a learning-mode quiz,
// whose sitters see them at once anyway, or from a moderator (403
// otherwise): a learner must not hand round the key of a timed quiz.
func (s *Service) ShareableQuiz(ctx context.Context, p auth.Principal, id int64, withAnswers bool) (string, error) {
	z, err := s.QuizForSitting(ctx, p, id)
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

// SharedQuizView is quiz id as an anonymous visitor of a share link reads
// it while it is still published (410 once it is not): stems and options,
// the answer side only when the link was made withAnswers.
func (s *Service) SharedQuizView(ctx context.Context, id int64, withAnswers bool) (*SharedQuiz, error) {
	z, err := s.QuizForSitting(ctx, auth.Principal{}, id)
	if apperr.Is(err, apperr.NotFound) {
		return nil, apperr.Gone("this quiz is no longer published")
	}
	if err != nil {
		return nil, err
	}
	out := &SharedQuiz{Title: z.Title, Mode: z.Mode, TimeLimitMinutes: z.TimeLimitMinutes,
		Questions: make([]SharedQuestion, len(z.Questions))}
	for i, q := range z.Questions {
		out.Questions[i] = SharedQuestion{ID: q.ID, Type: q.Type, Text: q.Text, Options: q.Options}
		if withAnswers {
			out.Questions[i].CorrectAnswer, out.Questions[i].Explanation = q.CorrectAnswer, q.Explanation
		}
	}
	return out, nil
}
