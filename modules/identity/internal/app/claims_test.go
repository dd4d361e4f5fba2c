package app

import (
	"testing"

	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
)

func TestReadClaims(t *testing.T) {
	cases := []struct {
		name   string
		claims map[string]any
		want   Identity
		code   apperr.Code
	}{
		{name: "name wins", claims: map[string]any{"email": "a@x.org", "name": "Ann", "preferred_username": "ann1"},
			want: Identity{Email: "a@x.org", Name: "Ann"}},
		{name: "preferred_username next", claims: map[string]any{"email": "a@x.org", "name": " ", "preferred_username": "ann1"},
			want: Identity{Email: "a@x.org", Name: "ann1"}},
		{name: "email prefix last", claims: map[string]any{"email": "ann.b@x.org"},
			want: Identity{Email: "ann.b@x.org", Name: "ann.b"}},
		{name: "verified true", claims: map[string]any{"email": "a@x.org", "email_verified": true},
			want: Identity{Email: "a@x.org", Name: "a"}},
		{name: "verified false", claims: map[string]any{"email": "a@x.org", "email_verified": false}, code: apperr.Forbidden},
		{name: "verified string false", claims: map[string]any{"email": "a@x.org", "email_verified": "False"}, code: apperr.Forbidden},
		{name: "no email", claims: map[string]any{"name": "Ann"}, code: apperr.BadRequest},
		{name: "not an email", claims: map[string]any{"email": "ann"}, code: apperr.BadRequest},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ReadClaims(c.claims, "")
			if c.code != (apperr.Code{}) {
				if !apperr.Is(err, c.code) {
					t.Fatalf("want %s, got %v", c.code, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Email != c.want.Email || got.Name != c.want.Name {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestGroupsOf(t *testing.T) {
	claims := map[string]any{
		"groups":                     []any{"a", "b", 3},
		"single":                     "solo",
		"realm_access":               map[string]any{"roles": []any{"r1"}},
		"https://example.org/groups": []any{"ns"},
	}
	for name, want := range map[string][]string{
		"groups": {"a", "b"}, "single": {"solo"}, "realm_access.roles": {"r1"}, "https://example.org/groups": {"ns"},
	} {
		got, ok := groupsOf(claims, name)
		if !ok || len(got) != len(want) || got[0] != want[0] {
			t.Errorf("%s: got %v %v, want %v", name, got, ok, want)
		}
	}
	if _, ok := groupsOf(claims, "missing.path"); ok {
		t.Error("a missing claim must report absent")
	}
}

func TestRolePolicy(t *testing.T) {
	on := RolePolicy{Claim: "groups", AdminGroups: []string{"admins"}, ModeratorGroups: []string{"mods"}}
	for _, c := range []struct {
		groups []string
		want   auth.Role
	}{
		{[]string{"mods", "admins"}, auth.RoleAdmin},
		{[]string{"mods"}, auth.RoleModerator},
		{nil, auth.RoleUser},
	} {
		if got, apply := on.Decide("x@y.z", c.groups); got != c.want || !apply {
			t.Errorf("%v: got %s %v, want %s", c.groups, got, apply, c.want)
		}
	}
	off := RolePolicy{Claim: "groups"}
	if off.MappingOn() {
		t.Error("a claim without groups is not mapping")
	}
	if got, apply := off.Decide("x@y.z", []string{"admins"}); got != auth.RoleUser || apply {
		t.Errorf("mapping off: got %s %v", got, apply)
	}
	boot := RolePolicy{BootstrapEmail: "Root@Y.z"}
	if got, apply := boot.Decide("root@y.z", nil); got != auth.RoleAdmin || !apply {
		t.Errorf("bootstrap: got %s %v", got, apply)
	}
}
