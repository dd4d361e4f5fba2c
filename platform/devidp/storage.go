package devidp

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"sync"
	"time"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"
)

// Lifetimes of what the provider keeps in memory.
const (
	authRequestTTL = 30 * time.Minute
	accessTokenTTL = 5 * time.Minute
)

type accessToken struct {
	id, subject, clientID string
	scopes                []string
	expires               time.Time
}

// storage is op.Storage in memory.
type storage struct {
	mu       sync.Mutex
	clients  map[string]Client
	accounts map[string]Account // by username
	subjects map[string]string  // subject -> username
	requests map[string]*authRequest
	codes    map[string]string // code -> request id
	tokens   map[string]*accessToken
	key      signingKey
}

var _ op.Storage = (*storage)(nil)

func newStorage() (*storage, error) {
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, err
	}
	return &storage{
		clients: map[string]Client{}, accounts: map[string]Account{}, subjects: map[string]string{},
		requests: map[string]*authRequest{}, codes: map[string]string{}, tokens: map[string]*accessToken{},
		key: signingKey{id: randomID(), key: rsaKey},
	}, nil
}

// subjectOf is an account's stable subject: derived from its username, so
// replacing an account's claims keeps the same person at the provider.
func subjectOf(username string) string {
	sum := sha256.Sum256([]byte(username))
	return hex.EncodeToString(sum[:12])
}

func randomID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func (s *storage) setClient(c Client) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clients[c.ID] = c
}

func (s *storage) setAccount(a Account) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.accounts[a.Username] = a
	s.subjects[subjectOf(a.Username)] = a.Username
}

// accountList is every account, for the login page.
func (s *storage) accountList() []Account {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Account, 0, len(s.accounts))
	for _, a := range s.accounts {
		out = append(out, a)
	}
	return out
}

// authenticate checks a password and completes the request for its account.
func (s *storage) authenticate(requestID, username, password string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	req, ok := s.requests[requestID]
	if !ok {
		return errUnknownRequest
	}
	a, ok := s.accounts[username]
	if !ok || subtle.ConstantTimeCompare([]byte(a.Password), []byte(password)) != 1 {
		return errors.New("wrong username or password")
	}
	req.subject = subjectOf(username)
	req.authTime = time.Now()
	req.done = true
	return nil
}

var errUnknownRequest = errors.New("this sign-in request is unknown or expired: start again from the application")

// request returns a copy of a pending request, safe to read unlocked.
func (s *storage) request(id string) (*authRequest, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	req, ok := s.requests[id]
	if !ok {
		return nil, errUnknownRequest
	}
	cp := *req
	return &cp, nil
}

func (s *storage) CreateAuthRequest(_ context.Context, r *oidc.AuthRequest, _ string) (op.AuthRequest, error) {
	if len(r.Prompt) == 1 && r.Prompt[0] == oidc.PromptNone {
		return nil, oidc.ErrLoginRequired()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, old := range s.requests { // forget abandoned sign-ins
		if time.Since(old.createdAt) > authRequestTTL {
			delete(s.requests, id)
		}
	}
	req := newAuthRequest(randomID(), r)
	s.requests[req.id] = req
	cp := *req
	return &cp, nil
}

func (s *storage) AuthRequestByID(_ context.Context, id string) (op.AuthRequest, error) {
	return s.request(id)
}

func (s *storage) AuthRequestByCode(_ context.Context, code string) (op.AuthRequest, error) {
	s.mu.Lock()
	id, ok := s.codes[code]
	s.mu.Unlock()
	if !ok {
		return nil, errors.New("code invalid or expired")
	}
	return s.request(id)
}

func (s *storage) SaveAuthCode(_ context.Context, id, code string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.codes[code] = id
	return nil
}

// DeleteAuthRequest runs once the code is redeemed: the code dies with it.
func (s *storage) DeleteAuthRequest(_ context.Context, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.requests, id)
	for code, rid := range s.codes {
		if rid == id {
			delete(s.codes, code)
		}
	}
	return nil
}

func (s *storage) CreateAccessToken(_ context.Context, r op.TokenRequest) (string, time.Time, error) {
	var clientID string
	if ar, ok := r.(op.AuthRequest); ok {
		clientID = ar.GetClientID()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	for id, t := range s.tokens {
		if now.After(t.expires) {
			delete(s.tokens, id)
		}
	}
	t := &accessToken{id: randomID(), subject: r.GetSubject(), clientID: clientID,
		scopes: r.GetScopes(), expires: now.Add(accessTokenTTL)}
	s.tokens[t.id] = t
	return t.id, t.expires, nil
}

// The provider issues no refresh tokens of its own: clients never get the
// refresh_token grant.
func (s *storage) CreateAccessAndRefreshTokens(context.Context, op.TokenRequest, string) (string, string, time.Time, error) {
	return "", "", time.Time{}, oidc.ErrUnsupportedGrantType()
}

func (s *storage) TokenRequestByRefreshToken(context.Context, string) (op.RefreshTokenRequest, error) {
	return nil, op.ErrInvalidRefreshToken
}

func (s *storage) GetRefreshTokenInfo(context.Context, string, string) (string, string, error) {
	return "", "", op.ErrInvalidRefreshToken
}

// TerminateSession ends what the provider remembers of the person for the
// client: its access tokens. There is no browser session to end; every
// sign-in shows the login page.
func (s *storage) TerminateSession(_ context.Context, userID, clientID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, t := range s.tokens {
		if t.subject == userID && t.clientID == clientID {
			delete(s.tokens, id)
		}
	}
	return nil
}

func (s *storage) RevokeToken(_ context.Context, tokenOrID, _, _ string) *oidc.Error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.tokens, tokenOrID)
	return nil
}

func (s *storage) SigningKey(context.Context) (op.SigningKey, error) { return &s.key, nil }

func (s *storage) SignatureAlgorithms(context.Context) ([]jose.SignatureAlgorithm, error) {
	return []jose.SignatureAlgorithm{jose.RS256}, nil
}

func (s *storage) KeySet(context.Context) ([]op.Key, error) {
	return []op.Key{publicKey{s.key}}, nil
}

func (s *storage) GetClientByClientID(_ context.Context, id string) (op.Client, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.clients[id]
	if !ok {
		return nil, oidc.ErrInvalidClient().WithDescription("unknown client_id %q", id)
	}
	return opClient{c}, nil
}

func (s *storage) AuthorizeClientIDSecret(_ context.Context, id, secret string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.clients[id]
	if !ok || subtle.ConstantTimeCompare([]byte(c.Secret), []byte(secret)) != 1 {
		return oidc.ErrInvalidClient().WithDescription("wrong client_id or client_secret")
	}
	return nil
}

// SetUserinfoFromScopes is deprecated in pkg/op; SetUserinfoFromRequest does the work.
func (s *storage) SetUserinfoFromScopes(context.Context, *oidc.UserInfo, string, string, []string) error {
	return nil
}

// SetUserinfoFromRequest fills the ID token's claims.
func (s *storage) SetUserinfoFromRequest(_ context.Context, info *oidc.UserInfo, r op.IDTokenRequest, scopes []string) error {
	return s.userinfo(info, r.GetSubject(), scopes)
}

// SetUserinfoFromToken answers the userinfo endpoint.
func (s *storage) SetUserinfoFromToken(_ context.Context, info *oidc.UserInfo, tokenID, subject, _ string) error {
	s.mu.Lock()
	t, ok := s.tokens[tokenID]
	s.mu.Unlock()
	if !ok || time.Now().After(t.expires) || t.subject != subject {
		return errors.New("access token is invalid or expired")
	}
	return s.userinfo(info, subject, t.scopes)
}

func (s *storage) SetIntrospectionFromToken(_ context.Context, resp *oidc.IntrospectionResponse, tokenID, subject, clientID string) error {
	s.mu.Lock()
	t, ok := s.tokens[tokenID]
	s.mu.Unlock()
	if !ok || time.Now().After(t.expires) || t.subject != subject || t.clientID != clientID {
		return errors.New("access token is invalid or expired")
	}
	info := new(oidc.UserInfo)
	if err := s.userinfo(info, subject, t.scopes); err != nil {
		return err
	}
	resp.SetUserInfo(info)
	resp.Scope = t.scopes
	resp.ClientID = t.clientID
	resp.Expiration = oidc.FromTime(t.expires)
	return nil
}

func (s *storage) GetPrivateClaimsFromScopes(context.Context, string, string, []string) (map[string]any, error) {
	return nil, nil
}

func (s *storage) GetKeyByIDAndClientID(context.Context, string, string) (*jose.JSONWebKey, error) {
	return nil, errors.New("the development provider accepts no JWT client assertions")
}

func (s *storage) ValidateJWTProfileScopes(context.Context, string, []string) ([]string, error) {
	return nil, errors.New("the development provider does not support the JWT profile grant")
}

func (s *storage) Health(context.Context) error { return nil }

// userinfo sets the account's claims the scopes release: openid gives the
// subject, email the address and its verification, profile the names; the
// groups and extra claims always go along.
func (s *storage) userinfo(info *oidc.UserInfo, subject string, scopes []string) error {
	s.mu.Lock()
	a, ok := s.accounts[s.subjects[subject]]
	s.mu.Unlock()
	if !ok {
		return errors.New("no such account")
	}
	c := a.Claims
	info.Subject = subject
	for _, scope := range scopes {
		switch scope {
		case oidc.ScopeEmail:
			info.Email = c.Email
			// Set as a plain claim: the struct field would drop an explicit false.
			if c.EmailVerified != nil {
				info.AppendClaims("email_verified", *c.EmailVerified)
			}
		case oidc.ScopeProfile:
			info.Name = c.Name
			info.PreferredUsername = c.PreferredUsername
		}
	}
	if c.Groups != nil {
		info.AppendClaims("groups", c.Groups)
	}
	for k, v := range c.Extra {
		info.AppendClaims(k, v)
	}
	return nil
}

// signingKey is the provider's RS256 key.
type signingKey struct {
	id  string
	key *rsa.PrivateKey
}

func (k *signingKey) SignatureAlgorithm() jose.SignatureAlgorithm { return jose.RS256 }
func (k *signingKey) Key() any                                    { return k.key }
func (k *signingKey) ID() string                                  { return k.id }

// publicKey is its public half, published at the JWKS endpoint.
type publicKey struct{ k signingKey }

func (p publicKey) ID() string                         { return p.k.id }
func (p publicKey) Algorithm() jose.SignatureAlgorithm { return jose.RS256 }
func (p publicKey) Use() string                        { return "sig" }
func (p publicKey) Key() any                           { return &p.k.key.PublicKey }
