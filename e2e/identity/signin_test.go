package identity_test

import (
	"context"
	"crypto/sha256"
	"net/url"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/contract"
	"github.com/roundsedu/rounds/platform/devidp"
)

var _ = Describe("Sign-in through the identity provider", func() {
	It("tells clients that single sign-on is the way in", func() {
		res := h.Anon().Get("/api/v1/auth/sso/config")
		Expect(res).To(HaveStatus(200))
		cfg := Body[contract.SSOConfig](res)
		Expect(cfg.Available).To(BeTrue())
		Expect(cfg.LoginMode).To(Equal(contract.SSOConfigLoginModeSso))
		Expect(cfg.LoginUrl).To(Equal("/api/v1/auth/sso/login"))
		Expect(cfg.RoleMapping).To(BeFalse())
		res = hm.Anon().Get("/api/auth/sso/config")
		Expect(res).To(HaveStatus(200))
		Expect(Body[contract.SSOConfig](res).RoleMapping).To(BeTrue())
	})

	It("redirects to the provider with state, nonce and PKCE, bound to the browser by a cookie", func() {
		b := h.Browser()
		res := b.Get("/api/v1/auth/sso/login")
		Expect(res).To(HaveStatus(302))
		to, err := url.Parse(res.Location())
		Expect(err).NotTo(HaveOccurred())
		Expect(to.String()).To(HavePrefix(idp.Issuer()))
		q := to.Query()
		Expect(q.Get("response_type")).To(Equal("code"))
		Expect(q.Get("client_id")).To(Equal(IdPClientID))
		Expect(q.Get("redirect_uri")).To(Equal(h.BaseURL + "/api/v1/auth/sso/callback"))
		Expect(q.Get("state")).NotTo(BeEmpty())
		Expect(q.Get("nonce")).NotTo(BeEmpty())
		Expect(q.Get("code_challenge")).NotTo(BeEmpty())
		Expect(q.Get("code_challenge_method")).To(Equal("S256"))
		Expect(strings.Fields(q.Get("scope"))).To(ContainElements("openid", "email", "profile"))
		Expect(res.Header.Get("Set-Cookie")).To(And(ContainSubstring("rounds_sso="), ContainSubstring("HttpOnly"),
			ContainSubstring("SameSite=Lax"), ContainSubstring("Path=/api")))
	})

	It("creates the account at the first sign-in and matches it by email afterwards", func() {
		claims := person("newcomer")
		claims.Name = "Nora Newcomer"
		first := h.SignIn(idp, claims, false, "")
		Expect(first.TokenType).To(Equal("bearer"))
		Expect(first.ExpiresIn).To(Equal(86400))
		Expect(first.RefreshToken).To(BeEmpty())
		account := me(h, first.AccessToken)
		Expect(account.Email).To(Equal(claims.Email))
		Expect(account.Name).To(Equal("Nora Newcomer"))
		Expect(account.Role).To(Equal(contract.UserResponseRoleUser))
		Expect(account.IsAdmin).To(BeFalse())
		Expect(account.IsModerator).To(BeFalse())
		Expect(account.CreatedAt).NotTo(BeZero())

		// Same person again, address in other letter case: same account.
		again := claims
		again.Email = strings.ToUpper(claims.Email)
		second := h.SignIn(idp, again, false, "")
		Expect(me(h, second.AccessToken).Id).To(Equal(account.Id))
		Expect(userCount(h, claims.Email)).To(Equal(int64(1)))
	})

	It("keeps a name the person changed in the app when they sign in again", func() {
		claims := person("renamer")
		tok := h.SignIn(idp, claims, false, "")
		Expect(tok.Client(h).Put("/api/v1/auth/me", map[string]any{"name": "Chosen Name"})).To(HaveStatus(200))
		again := h.SignIn(idp, claims, false, "")
		Expect(me(h, again.AccessToken).Name).To(Equal("Chosen Name"))
	})

	It("treats a different email as a different account", func() {
		a := h.SignIn(idp, person("twin"), false, "")
		b := h.SignIn(idp, person("twin"), false, "")
		Expect(me(h, a.AccessToken).Id).NotTo(Equal(me(h, b.AccessToken).Id))
	})

	It("takes the name from name, else preferred_username, else the email prefix", func() {
		onlyUsername := devidp.Claims{Email: newEmail("pu"), PreferredUsername: "pat.user"}
		Expect(me(h, h.SignIn(idp, onlyUsername, false, "").AccessToken).Name).To(Equal("pat.user"))

		bare := devidp.Claims{Email: newEmail("bare.prefix")}
		local := strings.SplitN(bare.Email, "@", 2)[0]
		Expect(me(h, h.SignIn(idp, bare, false, "").AccessToken).Name).To(Equal(local))
	})

	It("completes the claims from userinfo when the ID token carries only the subject", func() {
		idp.SetClient(devidp.Client{ID: IdPClientID, Secret: IdPClientSecret, UserinfoOnly: true,
			RedirectURIs: []string{h.BaseURL + "/api/v1/auth/sso/callback"}, PostLogoutRedirectURIs: []string{h.Config.Get("oidc.client_url").(string)}})
		DeferCleanup(func() {
			idp.SetClient(devidp.Client{ID: IdPClientID, Secret: IdPClientSecret,
				RedirectURIs: []string{h.BaseURL + "/api/v1/auth/sso/callback"}, PostLogoutRedirectURIs: []string{h.Config.Get("oidc.client_url").(string)}})
		})
		claims := person("userinfo")
		claims.Name = "Uma Userinfo"
		m := me(h, h.SignIn(idp, claims, false, "").AccessToken)
		Expect(m.Email).To(Equal(claims.Email))
		Expect(m.Name).To(Equal("Uma Userinfo"))

		claims = person("userinfo-unverified")
		claims.EmailVerified = verified(false)
		Expect(h.Browser().SignInAt(idp, claims)).To(HaveError(403, "forbidden"))
	})

	It("refuses an explicit email_verified false and creates nothing", func() {
		claims := person("unverified")
		claims.EmailVerified = verified(false)
		res := h.Browser().SignInAt(idp, claims)
		Expect(res).To(HaveError(403, "forbidden"))
		Expect(userCount(h, claims.Email)).To(BeZero())

		// A provider that does not send the claim at all is trusted.
		claims.EmailVerified = nil
		Expect(h.Browser().SignInAt(idp, claims)).To(HaveStatus(302))
		Expect(userCount(h, claims.Email)).To(Equal(int64(1)))
	})

	It("refuses an email claim that is not an address, and creates nothing", func() {
		claims := devidp.Claims{Email: "not-an-address", EmailVerified: verified(true), Name: "No Address"}
		res := h.Browser().SignInAt(idp, claims)
		Expect(res).To(HaveError(400, "bad_request"))
		Expect(detail(res)).To(ContainSubstring("not one"))
		Expect(userCount(h, claims.Email)).To(BeZero())
	})

	It("refuses a sign-in without an email address", func() {
		res := h.Browser().SignInAt(idp, devidp.Claims{Name: "No Mail"})
		Expect(res).To(HaveError(400, "bad_request"))
		Expect(detail(res)).To(ContainSubstring("email"))
	})

	It("answers the provider's refusal with a clear 400", func() {
		b := h.Browser()
		callback := b.CancelAt(idp, b.StartLogin())
		Expect(callback).To(ContainSubstring("error=access_denied"))
		res := b.Get(callback)
		Expect(res).To(HaveError(400, "bad_request"))
		Expect(detail(res)).To(ContainSubstring("access_denied"))
	})

	It("redirects to the client with a one-time code and never the access token", func() {
		res := h.Browser().SignInAt(idp, person("urlcheck"))
		Expect(res).To(HaveStatus(302))
		to, err := url.Parse(res.Location())
		Expect(err).NotTo(HaveOccurred())
		Expect(to.Scheme + "://" + to.Host + to.Path).To(Equal(h.Config.Get("oidc.client_url").(string)))
		Expect(to.Query()).To(HaveLen(1))
		Expect(to.Query().Get("code")).NotTo(BeEmpty())
		Expect(to.Fragment).To(BeEmpty())
	})

	It("stores only a hash of the one-time code", func() {
		code := CodeFrom(h.Browser().SignInAt(idp, person("hashed")))
		sum := sha256.Sum256([]byte(code))
		var n int64
		Expect(h.App.DB.Conn(context.Background()).Raw(
			`SELECT count(*) FROM identity.sso_codes WHERE code_hash = ?`, sum[:]).Scan(&n).Error).To(Succeed())
		Expect(n).To(Equal(int64(1)))
		Expect(h.App.DB.Conn(context.Background()).Raw(
			`SELECT count(*) FROM identity.sso_codes WHERE encode(code_hash, 'escape') LIKE ?`, "%"+code+"%").Scan(&n).Error).To(Succeed())
		Expect(n).To(BeZero())
	})

	It("lets one address start a bounded number of sign-ins an hour, storing nothing past it", func() {
		addr := newAddress()
		logins := func() (n int64) {
			Expect(h.App.DB.Conn(context.Background()).Raw(`SELECT count(*) FROM identity.sso_logins`).Scan(&n).Error).To(Succeed())
			return n
		}
		for range loginLimit {
			Expect(h.Browser().With("X-Forwarded-For", addr).Get("/api/v1/auth/sso/login")).To(HaveStatus(302))
		}
		before := logins()
		res := h.Browser().With("X-Forwarded-For", addr).Get("/api/v1/auth/sso/login")
		Expect(res).To(HaveError(429, "rate_limited"))
		Expect(res.Header.Get("Retry-After")).NotTo(BeEmpty())
		Expect(logins()).To(Equal(before), "a refused start stores no sign-in")
		Expect(h.Browser().With("X-Forwarded-For", newAddress()).Get("/api/v1/auth/sso/login")).To(HaveStatus(302),
			"another address has its own allowance")
	})

	Describe("the state", func() {
		It("refuses a tampered state", func() {
			b := h.Browser()
			callback := b.AuthenticateAt(idp, b.StartLogin(), person("tamper"))
			u, _ := url.Parse(callback)
			q := u.Query()
			q.Set("state", q.Get("state")+"x")
			u.RawQuery = q.Encode()
			Expect(b.Get(u.String())).To(HaveError(400, "bad_request"))
		})

		It("refuses a callback without state", func() {
			b := h.Browser()
			callback := b.AuthenticateAt(idp, b.StartLogin(), person("nostate"))
			u, _ := url.Parse(callback)
			q := u.Query()
			q.Del("state")
			u.RawQuery = q.Encode()
			Expect(b.Get(u.String())).To(HaveError(400, "bad_request"))
		})

		It("refuses a callback arriving in a browser other than the one that started", func() {
			b := h.Browser()
			claims := person("otherbrowser")
			callback := b.AuthenticateAt(idp, b.StartLogin(), claims)
			res := h.Browser().Get(callback)
			Expect(res).To(HaveError(400, "bad_request"))
			Expect(detail(res)).To(ContainSubstring("another browser"))
			Expect(userCount(h, claims.Email)).To(BeZero())
		})

		It("refuses oversized callback parameters with the envelope", func() {
			b := h.Browser()
			b.StartLogin()
			Expect(b.Get("/api/v1/auth/sso/callback?code=c&state=" + strings.Repeat("s", 513))).To(HaveError(422, "invalid_request"))
			Expect(b.Get("/api/v1/auth/sso/callback?state=s&error=" + strings.Repeat("e", 257))).To(HaveError(422, "invalid_request"))
		})

		It("refuses a sign-in that took too long, and creates nothing", func() {
			b := h.Browser()
			claims := person("slow")
			authorize := b.StartLogin()
			to, err := url.Parse(authorize)
			Expect(err).NotTo(HaveOccurred())
			sum := sha256.Sum256([]byte(to.Query().Get("state")))
			Expect(h.App.DB.Conn(context.Background()).Exec(
				`UPDATE identity.sso_logins SET expires_at = now() - interval '1 second' WHERE state_hash = ?`, sum[:]).Error).To(Succeed())
			res := b.Get(b.AuthenticateAt(idp, authorize, claims))
			Expect(res).To(HaveError(400, "bad_request"))
			Expect(detail(res)).To(ContainSubstring("expired"))
			Expect(userCount(h, claims.Email)).To(BeZero())
		})

		It("is good for one callback only", func() {
			b := h.Browser()
			callback := b.AuthenticateAt(idp, b.StartLogin(), person("twice"))
			Expect(b.Get(callback)).To(HaveStatus(302))
			Expect(b.Get(callback)).To(HaveError(400, "bad_request"))
		})

		It("lets one browser run two sign-ins side by side", func() {
			b := h.Browser()
			first, second := b.StartLogin(), b.StartLogin()
			cb1 := b.AuthenticateAt(idp, first, person("tab1"))
			cb2 := b.AuthenticateAt(idp, second, person("tab2"))
			Expect(b.Get(cb2)).To(HaveStatus(302))
			Expect(b.Get(cb1)).To(HaveStatus(302))
		})
	})

	Describe("the provider's code", func() {
		// stateOf is the state the app sent the provider for this sign-in.
		stateOf := func(authorize string) string {
			to, err := url.Parse(authorize)
			Expect(err).NotTo(HaveOccurred())
			return url.QueryEscape(to.Query().Get("state"))
		}

		It("refuses a code the provider does not know with a clear 400", func() {
			b := h.Browser()
			res := b.Get("/api/v1/auth/sso/callback?code=forged&state=" + stateOf(b.StartLogin()))
			Expect(res).To(HaveError(400, "bad_request"))
			Expect(detail(res)).To(ContainSubstring("refused the sign-in code"))
			Expect(res.Header.Get("Location")).To(BeEmpty())
		})

		It("refuses a callback without a code", func() {
			b := h.Browser()
			res := b.Get("/api/v1/auth/sso/callback?state=" + stateOf(b.StartLogin()))
			Expect(res).To(HaveError(400, "bad_request"))
			Expect(detail(res)).To(ContainSubstring("no code"))
		})
	})

	Describe("the exchange", func() {
		It("works once: a replayed code gives nothing", func() {
			b := h.Browser()
			code := CodeFrom(b.SignInAt(idp, person("replay")))
			Expect(b.Exchange(code, false, "")).To(HaveStatus(200))
			res := b.Exchange(code, true, "")
			Expect(res).To(HaveError(400, "bad_request"))
			Expect(res.Header.Get("Set-Cookie")).To(BeEmpty())
			Expect(string(res.Body)).NotTo(ContainSubstring("access_token"))
		})

		It("refuses an expired code, and the code is gone after that", func() {
			b := h.Browser()
			claims := person("expired")
			code := CodeFrom(b.SignInAt(idp, claims))
			sum := sha256.Sum256([]byte(code))
			Expect(h.App.DB.Conn(context.Background()).Exec(
				`UPDATE identity.sso_codes SET expires_at = now() - interval '1 second' WHERE code_hash = ?`, sum[:]).Error).To(Succeed())
			res := b.Exchange(code, false, "")
			Expect(res).To(HaveError(400, "bad_request"))
			Expect(detail(res)).To(ContainSubstring("expired"))
			Expect(b.Exchange(code, false, "")).To(HaveError(400, "bad_request"))
		})

		It("refuses an unknown code", func() {
			Expect(h.Browser().Exchange("not-a-code", false, "")).To(HaveError(400, "bad_request"))
		})

		It("refuses a code taken from the browser that signed in and traded by another, and spends it", func() {
			victim, attacker := h.Browser(), h.Browser()
			claims := person("csrf")
			code := CodeFrom(attacker.SignInAt(idp, claims))
			res := victim.Exchange(code, false, "")
			Expect(res).To(HaveError(400, "bad_request"))
			Expect(detail(res)).To(ContainSubstring("issued to another browser"))
			Expect(string(res.Body)).NotTo(ContainSubstring("access_token"))
			Expect(res.Header.Get("Set-Cookie")).To(BeEmpty(), "no media cookie for the planted account")
			Expect(attacker.Exchange(code, false, "")).To(HaveError(400, "bad_request"), "the code is spent")
			Expect(h.Anon().Post("/api/v1/auth/sso/exchange", map[string]any{"code": CodeFrom(attacker.SignInAt(idp, claims))})).
				To(HaveError(400, "bad_request"), "a caller with no cookie at all")
		})

		It("takes the verifier of the sign-in's challenge from a client without the browser's cookie", func() {
			verifier := strings.Repeat("v3rifier-", 6)
			native := func(verifier string) string {
				b := h.Browser()
				return CodeFrom(b.Get(b.AuthenticateAt(idp, b.StartLoginWith(verifier), person("native"))))
			}
			client := h.Browser() // the app itself, which never saw the sign-in's cookie
			Expect(client.ExchangeVerified(native(verifier), verifier+"x")).To(HaveError(400, "bad_request"))
			Expect(client.Exchange(native(verifier), false, "")).To(HaveError(400, "bad_request"))
			res := client.ExchangeVerified(native(verifier), verifier)
			Expect(res).To(HaveStatus(200))
			Expect(Body[contract.Token](res).AccessToken).NotTo(BeEmpty())

			// A verifier proves nothing for a sign-in that sent no challenge.
			b := h.Browser()
			Expect(client.ExchangeVerified(CodeFrom(b.SignInAt(idp, person("native"))), verifier)).To(HaveError(400, "bad_request"))
		})

		It("refuses a malformed code_challenge before anything is stored", func() {
			b := h.Browser()
			for _, bad := range []string{"short", strings.Repeat("a", 42) + "=", strings.Repeat("é", 43)} {
				Expect(b.Get("/api/v1/auth/sso/login?code_challenge="+url.QueryEscape(bad))).To(HaveError(422, "invalid_request"), bad)
			}
		})

		It("refuses bad input with the envelope", func() {
			b := h.Browser()
			Expect(b.PostJSON("/api/v1/auth/sso/exchange", map[string]any{})).To(HaveError(422, "invalid_request"))
			Expect(b.PostJSON("/api/v1/auth/sso/exchange", map[string]any{"code": ""})).To(HaveError(422, "invalid_request"))
			Expect(b.PostJSON("/api/v1/auth/sso/exchange", map[string]any{"code": "x", "refresh": "yes"})).To(HaveError(422, "invalid_request"))
			Expect(b.PostJSON("/api/v1/auth/sso/exchange", map[string]any{"code": "x", "password": "p"})).To(HaveError(422, "invalid_request"))
			Expect(b.PostJSON("/api/v1/auth/sso/exchange", map[string]any{"code": "x", "device": strings.Repeat("d", 101)})).
				To(HaveError(422, "invalid_request"))
		})
	})

	It("signs out at the provider, which comes back to the client", func() {
		b := h.Browser()
		res := b.Get("/api/v1/auth/sso/logout")
		Expect(res).To(HaveStatus(302))
		to, _ := url.Parse(res.Location())
		Expect(to.String()).To(HavePrefix(idp.Issuer()))
		Expect(to.Query().Get("client_id")).To(Equal(IdPClientID))
		Expect(to.Query().Get("post_logout_redirect_uri")).To(Equal(h.Config.Get("oidc.client_url").(string)))
		back := b.Get(res.Location())
		Expect(back).To(HaveStatus(302))
		Expect(back.Location()).To(Equal(h.Config.Get("oidc.client_url").(string)))
	})
})
