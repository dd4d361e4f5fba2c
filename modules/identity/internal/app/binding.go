package app

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"regexp"

	"github.com/roundsedu/rounds/modules/identity/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
)

// A one-time code is bound to the client that started its sign-in (login
// CSRF: a code from someone else's sign-in, planted in a victim's client,
// would sign the victim in as that someone). The exchange proves the
// binding as OAuth's PKCE does one hop earlier: with the browser's binding
// cookie, which a browser sends by itself, or with the verifier whose S256
// challenge the client gave at GET /auth/sso/login (a native client whose
// sign-in ran in the system browser has no cookie of its own).

// challengeFormat is an S256 challenge: SHA-256 in base64url, no padding.
var challengeFormat = regexp.MustCompile(`^[A-Za-z0-9_-]{43}$`)

// verifierFormat is RFC 7636's code_verifier.
var verifierFormat = regexp.MustCompile(`^[A-Za-z0-9._~-]{43,128}$`)

// ErrForeignCode refuses an exchange the code's client did not make.
var ErrForeignCode = apperr.BadRequestf("this sign-in code was issued to another browser or app: " +
	"start signing in again here")

// checkChallenge validates the optional code_challenge of a sign-in.
func checkChallenge(c string) (*string, error) {
	if c == "" {
		return nil, nil
	}
	if !challengeFormat.MatchString(c) {
		return nil, apperr.Invalidf("code_challenge",
			"code_challenge must be the S256 challenge of your code_verifier: base64url without padding, 43 characters")
	}
	return &c, nil
}

// s256 is a verifier's challenge.
func s256(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// boundTo reports whether the exchange comes from the code's client: the
// browser secret from its cookie, or the verifier of its challenge.
func boundTo(row *store.SSOCode, browser, verifier string) bool {
	if browser != "" && row.BrowserHash != nil && subtle.ConstantTimeCompare(digest(browser), row.BrowserHash) == 1 {
		return true
	}
	return verifier != "" && row.Challenge != nil && verifierFormat.MatchString(verifier) &&
		subtle.ConstantTimeCompare([]byte(s256(verifier)), []byte(*row.Challenge)) == 1
}
