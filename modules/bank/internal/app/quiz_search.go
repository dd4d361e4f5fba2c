package app

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/roundsedu/rounds/modules/bank/internal/store"
	"github.com/roundsedu/rounds/modules/search"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
)

// Quiz search modes and match types.
const (
	SearchTitle     = "title"
	SearchQuestions = "questions"
	SearchAll       = "all"

	MatchTitle     = "title"
	MatchQuestions = "questions"
	MatchBoth      = "both"
)

// Quiz search tuning: the semantic part considers at most quizSemanticMax
// questions (those at least search.MinSimilarityQuizzes similar); results
// and matching questions per quiz are capped.
const (
	quizSemanticMax = 200
	quizSearchMax   = 50
	matchesPerQuiz  = 5
)

// QuizHit is one quiz a search found.
type QuizHit struct {
	Quiz      *Quiz
	MatchType string
	Matching  []MatchingQuestion
}

// MatchingQuestion is a question of the quiz that matched (stem only).
type MatchingQuestion struct {
	ID   int64
	Text string
}

// SearchQuizzes finds quizzes the caller can see by title and/or by their
// questions: keyword matching here, plus questions the search module finds
// at least 0.30 similar when it is wired.
func (s *Service) SearchQuizzes(ctx context.Context, p auth.Principal, text, mode string) ([]QuizHit, error) {
	text = strings.TrimSpace(text)
	if n := utf8.RuneCountInString(text); n < 2 || n > 200 {
		return nil, apperr.Invalidf("q", "the search needs 2 to 200 characters")
	}
	f := store.QuizSearch{Text: text, Titles: mode != SearchQuestions, Questions: mode != SearchTitle,
		PublishedOnly: !p.IsModerator(), PerQuiz: matchesPerQuiz, Limit: quizSearchMax}
	if f.Questions && s.ports.Search != nil {
		hits, err := s.ports.Search.Semantic(ctx, search.KindQuestion, text, search.MinSimilarityQuizzes, quizSemanticMax)
		if err != nil {
			s.log.WarnContext(ctx, "semantic quiz search failed; keyword only", "error", err)
		}
		for _, h := range hits {
			f.SemanticIDs = append(f.SemanticIDs, h.ID)
		}
	}
	rows, err := s.store.SearchQuizzes(ctx, f)
	if err != nil {
		return nil, err
	}
	out := make([]QuizHit, 0, len(rows))
	for i := range rows {
		r := &rows[i]
		hit := QuizHit{Quiz: &r.QuizSummary, Matching: []MatchingQuestion{}}
		for j, id := range r.MatchingIDs {
			if j < len(r.MatchingTexts) {
				hit.Matching = append(hit.Matching, MatchingQuestion{ID: id, Text: r.MatchingTexts[j]})
			}
		}
		switch {
		case r.TitleMatch && len(hit.Matching) > 0:
			hit.MatchType = MatchBoth
		case r.TitleMatch:
			hit.MatchType = MatchTitle
		default:
			hit.MatchType = MatchQuestions
		}
		out = append(out, hit)
	}
	return out, nil
}
