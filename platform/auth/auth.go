// Package auth signs and verifies access tokens and carries the signed-in
// caller (the Principal) on the request context. The caller's role is read
// from the user row at verification time (cached briefly), never from the
// token, so a demotion takes effect at once.
package auth

import (
	"context"
	"fmt"
)

// Role is a user's site role.
type Role string

// The three roles.
const (
	RoleUser      Role = "user"
	RoleModerator Role = "moderator"
	RoleAdmin     Role = "admin"
)

// Valid reports whether r is one of the three roles.
func (r Role) Valid() bool { return r == RoleUser || r == RoleModerator || r == RoleAdmin }

// Principal is the signed-in caller.
type Principal struct {
	UserID      int64
	Role        Role
	Unthrottled bool
}

// IsAdmin reports the admin role.
func (p Principal) IsAdmin() bool { return p.Role == RoleAdmin }

// IsModerator reports moderator or admin: an admin is never refused what a
// moderator may do.
func (p Principal) IsModerator() bool { return p.Role == RoleModerator || p.Role == RoleAdmin }

// Level is the access an operation requires.
type Level int

// Access levels, from open to narrow.
const (
	Public Level = iota // no token needed
	User                // any signed-in user
	Mod                 // moderator or admin
	Admin               // admin only
)

func (l Level) String() string {
	switch l {
	case Public:
		return "public"
	case User:
		return "user"
	case Mod:
		return "moderator"
	case Admin:
		return "admin"
	}
	return fmt.Sprintf("level(%d)", int(l))
}

// Allows reports whether p may call an operation at level l.
func (l Level) Allows(p Principal) bool {
	switch l {
	case Public, User:
		return true
	case Mod:
		return p.IsModerator()
	case Admin:
		return p.IsAdmin()
	}
	return false
}

type principalKey struct{}

// WithPrincipal puts p on ctx.
func WithPrincipal(ctx context.Context, p Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// From returns the caller on ctx. Operations registered above Public always
// have one.
func From(ctx context.Context) (Principal, bool) {
	p, ok := ctx.Value(principalKey{}).(Principal)
	return p, ok
}

// MustFrom returns the caller, panicking when an operation registered as
// Public asks for one (a programming error, reported as a 500).
func MustFrom(ctx context.Context) Principal {
	p, ok := From(ctx)
	if !ok {
		panic("auth: no principal on context; was the operation registered as Public?")
	}
	return p
}
