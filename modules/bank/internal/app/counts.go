package app

import "context"

// PublicCounts is what the bank puts on the landing page: its live
// questions and published quizzes.
func (s *Service) PublicCounts(ctx context.Context) (map[string]int64, error) {
	questions, quizzes, err := s.store.PublicCounts(ctx)
	return map[string]int64{"questions": questions, "quizzes": quizzes}, err
}
