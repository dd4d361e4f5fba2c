package devidp

import (
	"time"

	"github.com/zitadel/oidc/v3/pkg/oidc"
)

// authRequest is one authorization request between /authorize and the token
// exchange. It is done once the login page has authenticated someone.
type authRequest struct {
	id            string
	createdAt     time.Time
	clientID      string
	redirectURI   string
	state         string
	nonce         string
	scopes        []string
	responseType  oidc.ResponseType
	responseMode  oidc.ResponseMode
	codeChallenge *oidc.CodeChallenge

	subject  string
	authTime time.Time
	done     bool
}

func newAuthRequest(id string, r *oidc.AuthRequest) *authRequest {
	req := &authRequest{
		id: id, createdAt: time.Now(), clientID: r.ClientID, redirectURI: r.RedirectURI,
		state: r.State, nonce: r.Nonce, scopes: r.Scopes,
		responseType: r.ResponseType, responseMode: r.ResponseMode,
	}
	if r.CodeChallenge != "" {
		method := oidc.CodeChallengeMethodPlain
		if r.CodeChallengeMethod == oidc.CodeChallengeMethodS256 {
			method = oidc.CodeChallengeMethodS256
		}
		req.codeChallenge = &oidc.CodeChallenge{Challenge: r.CodeChallenge, Method: method}
	}
	return req
}

func (a *authRequest) GetID() string                         { return a.id }
func (a *authRequest) GetACR() string                        { return "" }
func (a *authRequest) GetAudience() []string                 { return []string{a.clientID} }
func (a *authRequest) GetAuthTime() time.Time                { return a.authTime }
func (a *authRequest) GetClientID() string                   { return a.clientID }
func (a *authRequest) GetCodeChallenge() *oidc.CodeChallenge { return a.codeChallenge }
func (a *authRequest) GetNonce() string                      { return a.nonce }
func (a *authRequest) GetRedirectURI() string                { return a.redirectURI }
func (a *authRequest) GetResponseType() oidc.ResponseType    { return a.responseType }
func (a *authRequest) GetResponseMode() oidc.ResponseMode    { return a.responseMode }
func (a *authRequest) GetScopes() []string                   { return a.scopes }
func (a *authRequest) GetState() string                      { return a.state }
func (a *authRequest) GetSubject() string                    { return a.subject }
func (a *authRequest) Done() bool                            { return a.done }
func (a *authRequest) GetAMR() []string {
	if a.done {
		return []string{"pwd"}
	}
	return nil
}
