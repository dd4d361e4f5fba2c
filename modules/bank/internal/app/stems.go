package app

import "context"

// LiveStems gives the text of the live questions among ids.
func (s *Service) LiveStems(ctx context.Context, ids []int64) (map[int64]string, error) {
	rows, err := s.store.LiveQuestions(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]string, len(rows))
	for _, r := range rows {
		out[r.ID] = r.QuestionText
	}
	return out, nil
}
