package ai

import (
	"context"

	"github.com/roundsedu/rounds/modules/identity"
	"github.com/roundsedu/rounds/platform/events"
	"github.com/roundsedu/rounds/platform/module"
)

var _ module.PersonalData = (*Module)(nil)

// ExportPersonalData implements module.PersonalData: the person's model usage.
func (m *Module) ExportPersonalData(ctx context.Context, userID int64, x *module.Export) error {
	return m.svc.ExportPersonalData(ctx, userID, x)
}

// ForgetPersonalData implements module.PersonalData.
func (m *Module) ForgetPersonalData(ctx context.Context, userID int64) error {
	return m.svc.ForgetUser(ctx, userID)
}

// Subscribe removes a deleted account's usage rows.
func (m *Module) Subscribe(b *events.Bus) {
	events.Subscribe(b, "ai.forget_user", identity.TopicUserDeleted,
		func(ctx context.Context, e identity.UserDeleted, _ events.Meta) error {
			return m.ForgetPersonalData(ctx, e.UserID)
		})
}
