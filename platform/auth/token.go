package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strconv"
	"time"

	"github.com/golang-jwt/jwt/v5"
	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/hashicorp/golang-lru/v2/expirable"

	"github.com/roundsedu/rounds/platform/apperr"
)

// TokenTTL is the access token lifetime fixed by the spec (expires_in 86400).
const TokenTTL = 24 * time.Hour

// Signer issues access tokens: HS256 JWTs whose subject is the user id.
type Signer struct {
	key    []byte
	issuer string
	now    func() time.Time
}

// NewSigner makes a signer with the HMAC key and the issuer name.
func NewSigner(key, issuer string) *Signer {
	return &Signer{key: []byte(key), issuer: issuer, now: time.Now}
}

// Issue signs a token for userID, valid TokenTTL.
func (s *Signer) Issue(userID int64) (token string, expiresIn int, err error) {
	now := s.now()
	jti := make([]byte, 12)
	_, _ = rand.Read(jti)
	claims := jwt.RegisteredClaims{
		Issuer:    s.issuer,
		Subject:   strconv.FormatInt(userID, 10),
		IssuedAt:  jwt.NewNumericDate(now),
		NotBefore: jwt.NewNumericDate(now.Add(-time.Minute)),
		ExpiresAt: jwt.NewNumericDate(now.Add(TokenTTL)),
		ID:        base64.RawURLEncoding.EncodeToString(jti),
	}
	token, err = jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(s.key)
	return token, int(TokenTTL / time.Second), err
}

// parse checks signature, issuer and lifetime and returns the user id and
// when the token expires.
func (s *Signer) parse(token string) (int64, time.Time, error) {
	var claims jwt.RegisteredClaims
	_, err := jwt.ParseWithClaims(token, &claims, func(*jwt.Token) (any, error) { return s.key, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithIssuer(s.issuer),
		jwt.WithExpirationRequired(),
		jwt.WithTimeFunc(s.now),
	)
	if err != nil {
		if errors.Is(err, jwt.ErrTokenExpired) {
			return 0, time.Time{}, errExpired
		}
		return 0, time.Time{}, errInvalid
	}
	id, err := strconv.ParseInt(claims.Subject, 10, 64)
	if err != nil || id <= 0 {
		return 0, time.Time{}, errInvalid
	}
	return id, claims.ExpiresAt.Time, nil
}

var (
	errExpired = apperr.New(apperr.Unauthenticated, "access token expired: refresh or sign in again")
	errInvalid = apperr.New(apperr.Unauthenticated, "invalid access token")
)

// Account is what the verifier needs to know of a user row.
type Account struct {
	Role        Role
	Unthrottled bool
}

// Directory looks accounts up by id (implemented by the identity module).
// It returns ErrUnknownUser for an id with no live account.
type Directory interface {
	Account(ctx context.Context, userID int64) (Account, error)
}

// ErrUnknownUser means the token's user no longer exists.
var ErrUnknownUser = errors.New("auth: unknown user")

// Verifier turns a bearer token into a Principal.
type Verifier struct {
	signer *Signer
	dir    Directory
	cache  *expirable.LRU[int64, Account]
	// tokens remembers tokens whose signature already checked out, by
	// their SHA-256, until they expire: a learner autosaving every few
	// seconds sends the same token each time, and checking the HMAC and
	// decoding the claims again was a tenth of an autosave's CPU.
	tokens *lru.Cache[[sha256.Size]byte, verifiedToken]
}

type verifiedToken struct {
	userID  int64
	expires time.Time
}

// verifiedTokens bounds the token cache (about 100 bytes an entry).
const verifiedTokens = 50_000

// NewVerifier caches account lookups for cacheTTL (0 disables the cache)
// and verified tokens until they expire.
func NewVerifier(s *Signer, dir Directory, cacheTTL time.Duration) *Verifier {
	tokens, _ := lru.New[[sha256.Size]byte, verifiedToken](verifiedTokens)
	v := &Verifier{signer: s, dir: dir, tokens: tokens}
	if cacheTTL > 0 {
		v.cache = expirable.NewLRU[int64, Account](10_000, nil, cacheTTL)
	}
	return v
}

// userOf checks the token, from the cache when it was checked before; a
// cached token past its expiry is refused like any expired one.
func (v *Verifier) userOf(token string) (int64, error) {
	key := sha256.Sum256([]byte(token))
	if t, ok := v.tokens.Get(key); ok {
		if !v.signer.now().Before(t.expires) {
			v.tokens.Remove(key)
			return 0, errExpired
		}
		return t.userID, nil
	}
	id, expires, err := v.signer.parse(token)
	if err != nil {
		return 0, err
	}
	v.tokens.Add(key, verifiedToken{userID: id, expires: expires})
	return id, nil
}

// Verify checks the token and reads the user's current role.
func (v *Verifier) Verify(ctx context.Context, token string) (Principal, error) {
	id, err := v.userOf(token)
	if err != nil {
		return Principal{}, err
	}
	acct, ok := Account{}, false
	if v.cache != nil {
		acct, ok = v.cache.Get(id)
	}
	if !ok {
		acct, err = v.dir.Account(ctx, id)
		if errors.Is(err, ErrUnknownUser) {
			return Principal{}, apperr.New(apperr.Unauthenticated, "this account no longer exists")
		}
		if err != nil {
			return Principal{}, err
		}
		if v.cache != nil {
			v.cache.Add(id, acct)
		}
	}
	return Principal{UserID: id, Role: acct.Role, Unthrottled: acct.Unthrottled}, nil
}

// Forget drops a cached account so a role change is seen at once by this
// process (other replicas see it within the cache TTL).
func (v *Verifier) Forget(userID int64) {
	if v.cache != nil {
		v.cache.Remove(userID)
	}
}
