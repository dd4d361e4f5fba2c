package plans

import (
	"context"
	"slices"
	"time"

	"github.com/roundsedu/rounds/modules/plans/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
)

// NextExamDate gives the earliest exam date, today or later (UTC), of the
// study plans the learner is enrolled in; flashcards aims the learner's
// schedule at it (its ExamDates port). Plans read as the learner does:
// published ones and their own; a published plan counts only once they
// are enrolled.
func (m *Module) NextExamDate(ctx context.Context, userID int64) (time.Time, bool, error) {
	const page = 100
	p := auth.Principal{UserID: userID, Role: auth.RoleUser}
	today := time.Now().UTC().Truncate(24 * time.Hour)
	var dated []app.Plan
	for offset := 0; ; offset += page {
		ps, _, err := m.svc.Plans(ctx, p, page, offset)
		if err != nil {
			return time.Time{}, false, err
		}
		for _, pl := range ps {
			if pl.ExamDate != nil && !pl.ExamDate.Before(today) {
				dated = append(dated, pl)
			}
		}
		if len(ps) < page {
			break
		}
	}
	slices.SortFunc(dated, func(a, b app.Plan) int { return a.ExamDate.Compare(*b.ExamDate) })
	for _, pl := range dated {
		d, err := m.svc.Get(ctx, p, pl.ID)
		if err != nil {
			return time.Time{}, false, err
		}
		if d.Enrolled {
			return *pl.ExamDate, true, nil
		}
	}
	return time.Time{}, false, nil
}
