// Package http is identity's thin HTTP layer: huma operations that decode
// the request, call the service and map the result to the wire shapes.
package http

import (
	"strconv"
	"time"

	"github.com/roundsedu/rounds/modules/identity/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
)

// UserResponse is an account on the wire.
type UserResponse struct {
	ID                int64     `json:"id"`
	Email             string    `json:"email"`
	Name              string    `json:"name"`
	Role              string    `json:"role" enum:"user,moderator,admin"`
	CreatedAt         time.Time `json:"created_at"`
	IsAdmin           bool      `json:"is_admin" doc:"role is admin"`
	IsModerator       bool      `json:"is_moderator" doc:"role is moderator or admin"`
	Unthrottled       bool      `json:"unthrottled" doc:"exempt from the AI and speech rate limits"`
	RemindersDisabled bool      `json:"reminders_disabled"`
}

func toUserResponse(u app.User) UserResponse {
	p := auth.Principal{Role: u.Role}
	return UserResponse{ID: u.ID, Email: u.Email, Name: u.Name, Role: string(u.Role), CreatedAt: u.CreatedAt,
		IsAdmin: p.IsAdmin(), IsModerator: p.IsModerator(), Unthrottled: u.Unthrottled,
		RemindersDisabled: u.RemindersDisabled}
}

// Token is what sign-in and refresh return.
type Token struct {
	AccessToken  string `json:"access_token"`
	ExpiresIn    int    `json:"expires_in" example:"86400"`
	RefreshToken string `json:"refresh_token,omitempty" doc:"only when the exchange asked for one, and on refresh"`
	TokenType    string `json:"token_type" enum:"bearer"`
}

func toToken(t *app.Tokens) Token {
	return Token{AccessToken: t.AccessToken, ExpiresIn: t.ExpiresIn, RefreshToken: t.RefreshToken, TokenType: "bearer"}
}

// SessionResponse is one session family (one per device).
type SessionResponse struct {
	Family     string    `json:"family"`
	Device     string    `json:"device"`
	CreatedAt  time.Time `json:"created_at"`
	LastUsedAt time.Time `json:"last_used_at"`
	ExpiresAt  time.Time `json:"expires_at" doc:"when its newest refresh token runs out"`
}

// GrantResponse is one editorial grant.
type GrantResponse struct {
	ID        int64     `json:"id"`
	UserID    int64     `json:"user_id"`
	Kind      string    `json:"kind" enum:"category,deck,quiz,article"`
	TargetID  int64     `json:"target_id"`
	Scope     string    `json:"scope,omitempty" enum:"deck,category" doc:"deck grants only"`
	GrantedBy int64     `json:"granted_by"`
	CreatedAt time.Time `json:"created_at"`
}

func toGrantResponse(g app.Grant) GrantResponse {
	return GrantResponse{ID: g.ID, UserID: g.UserID, Kind: g.Kind, TargetID: g.TargetID, Scope: g.Scope,
		GrantedBy: g.GrantedBy, CreatedAt: g.CreatedAt}
}

func toGrantResponses(gs []app.Grant) []GrantResponse {
	out := make([]GrantResponse, len(gs))
	for i, g := range gs {
		out[i] = toGrantResponse(g)
	}
	return out
}

// Page is the pagination every growing list takes.
type Page struct {
	Limit  int `query:"limit" default:"50" minimum:"1" maximum:"200"`
	Offset int `query:"offset" default:"0" minimum:"0"`
}

func total(n int64) string { return strconv.FormatInt(n, 10) }

// UserPath names a user in the path.
type UserPath struct {
	UserID int64 `path:"user_id" minimum:"1"`
}

func toUserResponses(us []app.User) []UserResponse {
	out := make([]UserResponse, len(us))
	for i, u := range us {
		out[i] = toUserResponse(u)
	}
	return out
}

func toSessionResponses(ss []app.Session) []SessionResponse {
	out := make([]SessionResponse, len(ss))
	for i, s := range ss {
		out[i] = SessionResponse{Family: s.ID, Device: s.Device, CreatedAt: s.CreatedAt,
			LastUsedAt: s.LastUsedAt, ExpiresAt: s.ExpiresAt}
	}
	return out
}
