package app

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
)

// SavedTest is a quiz the bank builds for one learner from a fixed list of
// questions (a study-plan block or an exam paper).
type SavedTest struct {
	Title            string
	Mode             string // ModeTimed or ModeLearning
	TimeLimitMinutes int    // 0: none
	QuestionIDs      []int64
}

// maxSavedTestTitle bounds a saved test's title (plan and block titles
// joined fit well within it).
const maxSavedTestTitle = 500

// BuildSavedTest files an unpublished quiz owned by p of the questions p
// reaches (reach.go: grants, published quizzes; moderators everything), in
// the order given; an id p does not reach is left out exactly as one that
// does not exist. Only p sits it (QuizForSitting), in its own mode; nobody
// else sees it. 409 when none of the questions is open to p. The quiz
// answered counts the questions kept.
func (s *Service) BuildSavedTest(ctx context.Context, p auth.Principal, in SavedTest) (*Quiz, error) {
	title := strings.TrimSpace(in.Title)
	switch {
	case title == "":
		return nil, apperr.Invalidf("title", "the title is empty")
	case utf8.RuneCountInString(title) > maxSavedTestTitle:
		return nil, apperr.Invalidf("title", "the title must be at most %d characters", maxSavedTestTitle)
	case in.Mode != ModeTimed && in.Mode != ModeLearning:
		return nil, apperr.Invalidf("mode", "mode must be timed or learning")
	case in.TimeLimitMinutes < 0:
		return nil, apperr.Invalidf("time_limit_minutes", "the time limit must not be negative")
	}
	ids := dedupe(in.QuestionIDs)
	visible, _, err := s.Reach(ctx, p, ids)
	if err != nil {
		return nil, err
	}
	z := NewQuiz{Title: title, Mode: in.Mode}
	if in.TimeLimitMinutes > 0 {
		z.TimeLimitMinutes = &in.TimeLimitMinutes
	}
	var quiz *Quiz
	err = s.write(ctx, func(ctx context.Context) error {
		live, err := s.store.LockLive(ctx, ids)
		if err != nil {
			return err
		}
		open := make(map[int64]bool, len(live))
		for _, id := range live {
			open[id] = visible[id]
		}
		keep := make([]int64, 0, len(ids))
		for _, id := range ids {
			if open[id] {
				keep = append(keep, id)
			}
		}
		if len(keep) == 0 {
			return apperr.Conflictf("none of these questions is open to you in the bank, so there is nothing to sit")
		}
		row, err := s.insertQuiz(ctx, p.UserID, z, keep)
		if err != nil {
			return err
		}
		quiz = row
		return s.store.MarkSavedTest(ctx, row.ID, p.UserID)
	})
	if err != nil {
		return nil, err
	}
	return quiz, nil
}
