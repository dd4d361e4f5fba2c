package app

import (
	"strings"

	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/text"
)

// Identity is what a sign-in tells us about the person.
type Identity struct {
	Email  string
	Name   string
	Groups []string
	// HasGroups is false when the role claim was absent altogether.
	HasGroups bool
}

const maxNameLen = 200

// ReadClaims turns verified ID token claims into an Identity. An explicit
// email_verified false (boolean or the string some providers send) is
// refused; a missing email is refused; the name comes from name, else
// preferred_username, else the part of the address before the @.
func ReadClaims(claims map[string]any, roleClaim string) (Identity, error) {
	email, _ := claims["email"].(string)
	email = strings.TrimSpace(email)
	if email == "" {
		return Identity{}, apperr.BadRequestf("the identity provider sent no email address: ask it to release the email scope")
	}
	if !plausibleEmail(email) {
		return Identity{}, apperr.BadRequestf("the identity provider sent an email address that is not one: %q", email)
	}
	if verifiedFalse(claims["email_verified"]) {
		return Identity{}, apperr.Forbiddenf("the identity provider has not verified %s: verify the address there, then sign in again", email)
	}
	id := Identity{Email: email, Name: displayName(claims, email)}
	if roleClaim != "" {
		id.Groups, id.HasGroups = groupsOf(claims, roleClaim)
	}
	return id, nil
}

func plausibleEmail(s string) bool {
	at := strings.LastIndexByte(s, '@')
	return at > 0 && at < len(s)-1 && len(s) <= 320 && !strings.ContainsAny(s, " \t\r\n")
}

func verifiedFalse(v any) bool {
	switch b := v.(type) {
	case bool:
		return !b
	case string:
		return strings.EqualFold(strings.TrimSpace(b), "false")
	}
	return false
}

func displayName(claims map[string]any, email string) string {
	for _, k := range []string{"name", "preferred_username"} {
		if s, _ := claims[k].(string); strings.TrimSpace(s) != "" {
			return text.Clip(strings.TrimSpace(s), maxNameLen)
		}
	}
	local, _, _ := strings.Cut(email, "@")
	return text.Clip(local, maxNameLen)
}

// groupsOf reads the role claim: its literal name first (namespaced claims
// such as "https://example.org/groups" contain dots), else a dotted path into
// nested objects ("realm_access.roles" for Keycloak realm roles). The value
// may be a list of strings or a single string.
func groupsOf(claims map[string]any, name string) ([]string, bool) {
	v, ok := claims[name]
	if !ok {
		var cur any = claims
		for _, part := range strings.Split(name, ".") {
			m, isMap := cur.(map[string]any)
			if !isMap {
				return nil, false
			}
			if cur, ok = m[part]; !ok {
				return nil, false
			}
		}
		v = cur
	}
	switch g := v.(type) {
	case string:
		return []string{g}, true
	case []any:
		out := make([]string, 0, len(g))
		for _, x := range g {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out, true
	case []string:
		return g, true
	}
	return nil, true
}

// RolePolicy decides roles at sign-in.
type RolePolicy struct {
	Claim           string
	AdminGroups     []string
	ModeratorGroups []string
	// BootstrapEmail is made an administrator whenever it signs in.
	BootstrapEmail string
}

// MappingOn reports provider role mapping: a role claim and at least one
// group list. While it is on, groups decide roles and the in-app role
// routes answer 409.
func (p RolePolicy) MappingOn() bool {
	return p.Claim != "" && (len(p.AdminGroups) > 0 || len(p.ModeratorGroups) > 0)
}

// Decide returns the role a sign-in asks for and whether to apply it to an
// existing account. The bootstrap address is always an administrator; with
// mapping on, groups decide (admin wins over moderator); otherwise a new
// account is a learner and an existing one keeps its role.
func (p RolePolicy) Decide(email string, groups []string) (role auth.Role, apply bool) {
	if p.BootstrapEmail != "" && strings.EqualFold(p.BootstrapEmail, email) {
		return auth.RoleAdmin, true
	}
	if !p.MappingOn() {
		return auth.RoleUser, false
	}
	switch {
	case intersects(groups, p.AdminGroups):
		return auth.RoleAdmin, true
	case intersects(groups, p.ModeratorGroups):
		return auth.RoleModerator, true
	}
	return auth.RoleUser, true
}

func intersects(have, want []string) bool {
	for _, h := range have {
		for _, w := range want {
			if h == w {
				return true
			}
		}
	}
	return false
}
