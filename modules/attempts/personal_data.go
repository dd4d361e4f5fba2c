package attempts

import (
	"context"

	"github.com/roundsedu/rounds/platform/module"
)

var _ module.PersonalData = (*Module)(nil)

// ExportPersonalData implements module.PersonalData: the learner's attempts
// with their answers, saved progress, reminders, folders, collections and
// notes (ForgetUser removes the same on identity.user_deleted.v1).
func (m *Module) ExportPersonalData(ctx context.Context, userID int64, x *module.Export) error {
	return m.svc.ExportPersonalData(ctx, userID, x)
}

// ForgetPersonalData implements module.PersonalData.
func (m *Module) ForgetPersonalData(ctx context.Context, userID int64) error {
	return m.svc.ForgetUser(ctx, userID)
}
