package app

import "github.com/roundsedu/rounds/platform/apperr"

// Errors shared by several use cases.
var (
	errNoUser        = apperr.NotFoundf("no such user")
	errSSOOff        = apperr.New(apperr.Unavailable, "single sign-on is not configured on this server (oidc.issuer is empty)")
	errMappingOn     = apperr.Conflictf("roles come from the identity provider's groups while role mapping is on: change the person's groups there")
	errOwnRole       = apperr.BadRequestf("you cannot change your own role")
	errLastAdmin     = apperr.Conflictf("the last administrator cannot be demoted or deleted")
	errBadRefresh    = apperr.New(apperr.Unauthenticated, "this refresh token is not valid: sign in again")
	errRefreshExpiry = apperr.New(apperr.Unauthenticated, "this refresh token has expired: sign in again")
	errRefreshReuse  = apperr.New(apperr.Unauthenticated,
		"this refresh token was already used, so its session has been ended on every device that shared it: sign in again")
)
