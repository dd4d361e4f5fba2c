package app

import (
	"context"
	"strings"

	"github.com/roundsedu/rounds/platform/auth"
)

// SeesQuestionImage applies the question detail's rule to a stored file:
// a stem image (image_path or a stem figure) of a live question is seen
// by anyone signed in, as its stem is; an answer-side image (explanation
// image, answer or explanation figure) outside an attempt only by those
// who may edit the question, to whom the detail shows answers.
func (s *Service) SeesQuestionImage(ctx context.Context, p auth.Principal, key string) (bool, error) {
	if strings.TrimSpace(key) == "" {
		return false, nil
	}
	rows, err := s.store.QuestionsShowing(ctx, key)
	if err != nil || len(rows) == 0 {
		return false, err
	}
	if rows[0].Stem {
		return true, nil
	}
	v, err := s.viewerOf(ctx, p)
	if err != nil {
		return false, err
	}
	for i := range rows {
		if ok, err := s.canEdit(ctx, v, &rows[i].Question); ok || err != nil {
			return ok, err
		}
	}
	return false, nil
}
