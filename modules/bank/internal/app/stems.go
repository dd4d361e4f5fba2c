package app

import (
	"context"

	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
)

// ReachedStems gives the text of the questions among ids that p reaches
// (reach.go); the others are left out, as missing ones are.
func (s *Service) ReachedStems(ctx context.Context, p auth.Principal, ids []int64) (map[int64]string, error) {
	visible, _, err := s.Reach(ctx, p, ids)
	if err != nil {
		return nil, err
	}
	reached := make([]int64, 0, len(visible))
	for _, id := range ids {
		if visible[id] {
			reached = append(reached, id)
		}
	}
	rows, err := s.store.LiveQuestions(ctx, reached)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]string, len(rows))
	for _, r := range rows {
		out[r.ID] = r.QuestionText
	}
	return out, nil
}

// ReachedDetail is the question detail of a question p names in something
// of theirs (a report, a tutor conversation): p must reach it, or have sat
// it in attemptID when that attempt opens its answer side; anything else
// is the 404 of a missing question. The answer side is the detail's own
// (an editor's, or inside the authorising attempt).
func (s *Service) ReachedDetail(ctx context.Context, p auth.Principal, id int64, attemptID *int64) (*Question, error) {
	unreached := s.RequireReach(ctx, p, id)
	if unreached != nil && (attemptID == nil || !apperr.Is(unreached, apperr.NotFound)) {
		return nil, unreached
	}
	q, err := s.Detail(ctx, p, id, attemptID)
	if unreached != nil && err != nil {
		return nil, unreached // not reached, and the attempt named does not open it
	}
	return q, err
}

// ReportTitle is the title of a report on question id: its stem, once p
// reaches it (ReachedDetail without an attempt: a binned or unreached
// question is the 404 of a missing one).
func (s *Service) ReportTitle(ctx context.Context, p auth.Principal, id int64) (string, error) {
	q, err := s.ReachedDetail(ctx, p, id, nil)
	if err != nil {
		return "", err
	}
	return q.Text, nil
}
