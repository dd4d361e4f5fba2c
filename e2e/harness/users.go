package harness

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/roundsedu/rounds/platform/auth"
)

var userSeq atomic.Int64

// NewUser inserts a user row with the role and mints an access token for it
// with the app's own signer. Suites that test sign-in itself go through SSO
// instead; everything else starts from here.
func (h *Harness) NewUser(role auth.Role) *User {
	n := userSeq.Add(1)
	email := fmt.Sprintf("%s%d@example.test", role, n)
	var id int64
	err := h.App.DB.Conn(context.Background()).Raw(
		`INSERT INTO identity.users (email, name, role) VALUES (?, ?, ?) RETURNING id`,
		email, fmt.Sprintf("Test %s %d", role, n), string(role)).Scan(&id).Error
	if err != nil {
		panic(err)
	}
	return &User{ID: id, Email: email, Role: role, Token: h.MintToken(id)}
}

// MintToken signs an access token for an existing user row.
func (h *Harness) MintToken(userID int64) string {
	tok, _, err := h.App.Signer.Issue(userID)
	if err != nil {
		panic(err)
	}
	return tok
}
