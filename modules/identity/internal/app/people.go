package app

import (
	"context"
	"strings"

	"github.com/roundsedu/rounds/modules/identity/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
)

// ListUsers pages through every account in id order.
func (s *Service) ListUsers(ctx context.Context, limit, offset int) ([]User, int64, error) {
	rows, err := s.Store.ListUsers(ctx, limit, offset)
	if err != nil {
		return nil, 0, err
	}
	total, err := s.Store.CountUsers(ctx)
	if err != nil {
		return nil, 0, err
	}
	out := make([]User, len(rows))
	for i := range rows {
		out[i] = toUser(&rows[i])
	}
	return out, total, nil
}

// CreateUser makes an account ahead of its first sign-in (the address is
// taken as verified); no password exists anywhere.
func (s *Service) CreateUser(ctx context.Context, email, name string) (User, error) {
	email, name = strings.TrimSpace(email), strings.TrimSpace(name)
	if !plausibleEmail(email) {
		return User{}, apperr.Invalidf("body.email", "email must be an email address")
	}
	if name == "" {
		return User{}, apperr.Invalidf("body.name", "name cannot be blank")
	}
	u := &store.User{Email: email, Name: name, Role: string(auth.RoleUser)}
	err := s.DB.Tx(ctx, func(ctx context.Context) error { return s.Store.CreateUser(ctx, u) })
	if db.IsUniqueViolation(err) {
		return User{}, apperr.Conflictf("an account with the address %s already exists", email)
	}
	if err != nil {
		return User{}, err
	}
	return toUser(u), nil
}

// RoleChange is an in-app role change.
type RoleChange struct {
	Actor  auth.Principal
	Target int64
	Role   auth.Role
	// AdminRoute is PUT /admin/users/{id}/role (all roles); otherwise PUT
	// /access/{id}/role, where only user and moderator are accepted and a
	// moderator cannot touch an administrator.
	AdminRoute bool
}

// SetRole changes someone else's role. Refused (409) while provider role
// mapping is on, 400 on your own role, 409 for the last administrator.
func (s *Service) SetRole(ctx context.Context, c RoleChange) (User, error) {
	if s.Config.Roles.MappingOn() {
		return User{}, errMappingOn
	}
	if c.Target == c.Actor.UserID {
		return User{}, errOwnRole
	}
	if !c.Role.Valid() || (!c.AdminRoute && c.Role == auth.RoleAdmin) {
		return User{}, apperr.Invalidf("body.role", "role %q is not accepted here", c.Role)
	}
	var out User
	err := s.DB.Tx(ctx, func(ctx context.Context) error {
		u, err := s.lockUser(ctx, c.Target)
		if err != nil {
			return err
		}
		if u.Role == string(auth.RoleAdmin) && !c.Actor.IsAdmin() {
			return apperr.Forbiddenf("only an administrator can change an administrator's role")
		}
		if u.Role == string(c.Role) {
			out = toUser(u)
			return nil
		}
		if err := s.refuseLastAdmin(ctx, u); err != nil {
			return err
		}
		if err := s.Store.UpdateUser(ctx, u.ID, map[string]any{"role": string(c.Role)}); err != nil {
			return err
		}
		u.Role = string(c.Role)
		out = toUser(u)
		return nil
	})
	if err != nil {
		return User{}, err
	}
	s.forget(c.Target)
	return out, nil
}

// refuseLastAdmin answers 409 when u is the last administrator, whom an
// in-app demotion or deletion would take away.
func (s *Service) refuseLastAdmin(ctx context.Context, u *store.User) error {
	if u.Role != string(auth.RoleAdmin) {
		return nil
	}
	last, err := s.lastAdmin(ctx)
	if err != nil {
		return err
	}
	if last {
		return errLastAdmin
	}
	return nil
}

// SetUnthrottled exempts someone from the AI and speech limits, or not.
func (s *Service) SetUnthrottled(ctx context.Context, target int64, unthrottled bool) (User, error) {
	var out User
	err := s.DB.Tx(ctx, func(ctx context.Context) error {
		u, err := s.lockUser(ctx, target)
		if err != nil {
			return err
		}
		if err := s.Store.UpdateUser(ctx, u.ID, map[string]any{"unthrottled": unthrottled}); err != nil {
			return err
		}
		u.Unthrottled = unthrottled
		out = toUser(u)
		return nil
	})
	if err != nil {
		return User{}, err
	}
	s.forget(target)
	return out, nil
}

// DeleteUser removes someone else's account with its sessions, codes and
// grants, and announces it so other modules remove what the person owned.
func (s *Service) DeleteUser(ctx context.Context, actor auth.Principal, target int64) error {
	if target == actor.UserID {
		return apperr.BadRequestf("you cannot delete your own account")
	}
	return s.removeAccount(ctx, target)
}

// removeAccount deletes an account with its sessions, codes and grants and
// publishes identity.user_deleted.v1 in the same transaction; the last
// administrator stays.
func (s *Service) removeAccount(ctx context.Context, target int64) error {
	err := s.DB.Tx(ctx, func(ctx context.Context) error {
		u, err := s.lockUser(ctx, target)
		if err != nil {
			return err
		}
		if err := s.refuseLastAdmin(ctx, u); err != nil {
			return err
		}
		if err := s.Store.DeleteUser(ctx, u.ID); err != nil {
			return err
		}
		return s.PublishUserDeleted(ctx, u.ID)
	})
	if err != nil {
		return err
	}
	s.forget(target)
	return nil
}

// Promote makes the account with this address an administrator, creating
// it when nobody has signed in with it yet (the operator's way to the
// first administrator). It reports whether the account was created.
func (s *Service) Promote(ctx context.Context, email string) (User, bool, error) {
	email = strings.TrimSpace(email)
	if !plausibleEmail(email) {
		return User{}, false, apperr.BadRequestf("%q is not an email address", email)
	}
	var out User
	created := false
	err := s.DB.Tx(ctx, func(ctx context.Context) error {
		u, err := s.Store.LockUserByEmail(ctx, email)
		if db.IsNotFound(err) {
			local, _, _ := strings.Cut(email, "@")
			u = &store.User{Email: email, Name: local, Role: string(auth.RoleAdmin)}
			if err := s.Store.CreateUser(ctx, u); err != nil {
				return err
			}
			created, out = true, toUser(u)
			return nil
		}
		if err != nil {
			return err
		}
		if err := s.Store.UpdateUser(ctx, u.ID, map[string]any{"role": string(auth.RoleAdmin)}); err != nil {
			return err
		}
		u.Role = string(auth.RoleAdmin)
		out = toUser(u)
		return nil
	})
	if err != nil {
		return User{}, false, err
	}
	s.forget(out.ID)
	return out, created, nil
}
