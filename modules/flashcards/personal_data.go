package flashcards

import (
	"context"

	"github.com/roundsedu/rounds/platform/module"
)

var _ module.PersonalData = (*Module)(nil)

// ExportPersonalData implements module.PersonalData: the learner's card
// states, reviews (FSRS optimiser fields), settings, exam dates and decks.
func (m *Module) ExportPersonalData(ctx context.Context, userID int64, x *module.Export) error {
	return m.svc.ExportPersonalData(ctx, userID, x)
}

// ForgetPersonalData implements module.PersonalData (decks they made stay).
func (m *Module) ForgetPersonalData(ctx context.Context, userID int64) error {
	return m.svc.ForgetUser(ctx, userID)
}
