package http

import (
	"context"

	"github.com/roundsedu/rounds/platform/apperr"
)

const ssoHint = "accounts exist only through single sign-on: start at GET /api/v1/auth/sso/login"

// closed names a password-era action that is gone.
type closed string

// gone answers 410 for the closed action, saying why.
func (c closed) gone(context.Context, *struct{}) (*struct{}, error) {
	return nil, apperr.Gone(string(c) + " is closed: " + ssoHint)
}

func resetPassword(context.Context, *struct{}) (*struct{}, error) {
	return nil, apperr.NotFoundf("there are no passwords to reset: %s", ssoHint)
}
