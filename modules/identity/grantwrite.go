package identity

import (
	"context"

	"github.com/roundsedu/rounds/modules/identity/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
)

// GiveGrant implements Facade: the rules of POST /access/{user_id}/grants
// (never to yourself, only to learners, a scope for deck grants only).
// Whether the target exists is the caller's to check: it owns the target.
func (m *Module) GiveGrant(ctx context.Context, actor auth.Principal, userID int64, kind GrantKind, targetID int64, scope string) (Grant, error) {
	g, err := m.svc.Give(ctx, app.NewGrant{Actor: actor, UserID: userID, Kind: string(kind), TargetID: targetID, Scope: scope})
	if err != nil {
		return Grant{}, err
	}
	return Grant{ID: g.ID, UserID: g.UserID, Kind: GrantKind(g.Kind), TargetID: g.TargetID, Scope: g.Scope,
		GrantedBy: g.GrantedBy, CreatedAt: g.CreatedAt}, nil
}

// RevokeGrant implements Facade (404 when the user holds no such grant).
func (m *Module) RevokeGrant(ctx context.Context, userID, grantID int64) error {
	return m.svc.Revoke(ctx, userID, grantID)
}
