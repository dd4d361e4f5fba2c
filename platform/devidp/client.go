package devidp

import (
	"time"

	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"
)

// opClient adapts a Client to op.Client: a confidential web client using the
// authorization code flow, whose ID tokens carry the profile and email claims
// (as Keycloak and most hosted providers do) unless UserinfoOnly is set.
type opClient struct{ c Client }

var _ op.Client = opClient{}

func (o opClient) GetID() string                       { return o.c.ID }
func (o opClient) RedirectURIs() []string              { return o.c.RedirectURIs }
func (o opClient) PostLogoutRedirectURIs() []string    { return o.c.PostLogoutRedirectURIs }
func (o opClient) ApplicationType() op.ApplicationType { return op.ApplicationTypeWeb }
func (o opClient) AuthMethod() oidc.AuthMethod         { return oidc.AuthMethodBasic }
func (o opClient) ResponseTypes() []oidc.ResponseType {
	return []oidc.ResponseType{oidc.ResponseTypeCode}
}
func (o opClient) GrantTypes() []oidc.GrantType        { return []oidc.GrantType{oidc.GrantTypeCode} }
func (o opClient) LoginURL(id string) string           { return loginPath + "?authRequestID=" + id }
func (o opClient) AccessTokenType() op.AccessTokenType { return op.AccessTokenTypeBearer }
func (o opClient) IDTokenLifetime() time.Duration      { return time.Hour }

// DevMode allows http redirect URIs (localhost development).
func (o opClient) DevMode() bool { return true }
func (o opClient) RestrictAdditionalIdTokenScopes() func([]string) []string {
	return func(s []string) []string { return s }
}
func (o opClient) RestrictAdditionalAccessTokenScopes() func([]string) []string {
	return func(s []string) []string { return s }
}

// IsScopeAllowed admits "groups", which some relying parties request.
func (o opClient) IsScopeAllowed(scope string) bool     { return scope == "groups" }
func (o opClient) IDTokenUserinfoClaimsAssertion() bool { return !o.c.UserinfoOnly }
func (o opClient) ClockSkew() time.Duration             { return 0 }
