package identity_test

import (
	"crypto/sha256"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/contract"
)

// sessions lists the caller's session rows.
func sessions(token string) []contract.SessionResponse {
	res := h.As(token).Get("/api/v1/auth/sessions")
	ExpectWithOffset(1, res).To(HaveStatus(200))
	return Body[[]contract.SessionResponse](res)
}

var _ = Describe("Refresh tokens and sessions", func() {
	It("gives a refresh token only when the exchange asks for one", func() {
		claims := person("refresh")
		Expect(h.SignIn(idp, claims, false, "").RefreshToken).To(BeEmpty())
		tok := h.SignIn(idp, claims, true, "phone")
		Expect(tok.RefreshToken).NotTo(BeEmpty())
		Expect(tok.ExpiresIn).To(Equal(86400))
	})

	It("spends the old token at each refresh and issues a new pair", func() {
		tok := h.SignIn(idp, person("rotate"), true, "laptop")
		next := rotate(tok.RefreshToken)
		Expect(next.TokenType).To(Equal(contract.TokenTokenTypeBearer))
		Expect(next.ExpiresIn).To(Equal(int64(86400)))
		Expect(*next.RefreshToken).NotTo(BeEmpty())
		Expect(*next.RefreshToken).NotTo(Equal(tok.RefreshToken))
		Expect(h.As(next.AccessToken).Get("/api/v1/auth/me")).To(HaveStatus(200))

		res := refresh(h, *next.RefreshToken)
		Expect(res).To(HaveStatus(200))
		Expect(res.Header.Get("Set-Cookie")).To(BeEmpty(), "refresh is for native clients: no media cookie")
	})

	It("ends the whole family when a spent token is presented again", func() {
		claims := person("reuse")
		tok := h.SignIn(idp, claims, true, "stolen")
		other := h.SignIn(idp, claims, true, "other device")
		next := rotate(tok.RefreshToken)

		res := refresh(h, tok.RefreshToken)
		Expect(res).To(HaveError(401, "unauthenticated"))
		Expect(detail(res)).To(ContainSubstring("already used"))
		// The newest token of that family died with it.
		Expect(refresh(h, *next.RefreshToken)).To(HaveError(401, "unauthenticated"))
		// Another device's family lives on.
		Expect(refresh(h, other.RefreshToken)).To(HaveStatus(200))
		Expect(sessions(other.AccessToken)).To(HaveLen(1))
	})

	It("refuses an expired refresh token", func() {
		tok := h.SignIn(idp, person("stale"), true, "drawer")
		sum := sha256.Sum256([]byte(tok.RefreshToken))
		Expect(h.App.DB.Conn(ctxBG).Exec(
			`UPDATE identity.refresh_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = ?`, sum[:]).Error).To(Succeed())
		res := refresh(h, tok.RefreshToken)
		Expect(res).To(HaveError(401, "unauthenticated"))
		Expect(detail(res)).To(ContainSubstring("expired"))
		Expect(string(res.Body)).NotTo(ContainSubstring("access_token"))
	})

	It("refuses an unknown token and bad input", func() {
		Expect(refresh(h, "nope")).To(HaveError(401, "unauthenticated"))
		c := h.Anon().With("X-Forwarded-For", newAddress())
		Expect(c.Post("/api/v1/auth/refresh", map[string]any{})).To(HaveError(422, "invalid_request"))
		Expect(c.Post("/api/v1/auth/refresh", map[string]any{"refresh_token": ""})).To(HaveError(422, "invalid_request"))
		Expect(c.Post("/api/v1/auth/refresh", map[string]any{"refresh_token": 42})).To(HaveError(422, "invalid_request"))
		Expect(c.Post("/api/v1/auth/refresh", "{not json")).To(HaveError(422, "invalid_request"))
	})

	It("lists one row per device, not per rotation, and ends one on request", func() {
		claims := person("lister")
		a := h.SignIn(idp, claims, true, "phone")
		b := h.SignIn(idp, claims, true, "tablet")
		h.SignIn(idp, claims, false, "") // a browser sign-in opens no family
		cur := a.RefreshToken
		for i := 0; i < 3; i++ {
			cur = *rotate(cur).RefreshToken
		}
		rows := sessions(a.AccessToken)
		Expect(rows).To(HaveLen(2))
		Expect(rows[0].Device).To(Equal("phone"), "most recently used first")
		Expect(rows[1].Device).To(Equal("tablet"))
		for _, r := range rows {
			Expect(r.Family).NotTo(BeEmpty())
			Expect(r.CreatedAt).NotTo(BeZero())
			Expect(r.LastUsedAt).NotTo(BeZero())
			Expect(r.ExpiresAt).NotTo(BeZero())
		}
		res := h.As(a.AccessToken).Get("/api/v1/auth/sessions?limit=1")
		Expect(res.Header.Get("X-Total-Count")).To(Equal("2"))
		Expect(Body[[]contract.SessionResponse](res)).To(HaveLen(1))

		tablet := rows[1].Family
		Expect(h.As(a.AccessToken).Delete("/api/v1/auth/sessions/" + tablet)).To(HaveStatus(204))
		Expect(refresh(h, b.RefreshToken)).To(HaveError(401, "unauthenticated"))
		Expect(refresh(h, cur)).To(HaveStatus(200))
		Expect(h.As(a.AccessToken).Delete("/api/v1/auth/sessions/" + tablet)).To(HaveError(404, "not_found"))
	})

	It("never lets anyone end another person's session", func() {
		owner := h.SignIn(idp, person("owner"), true, "mine")
		family := sessions(owner.AccessToken)[0].Family
		stranger := h.SignIn(idp, person("stranger"), false, "")
		Expect(h.As(stranger.AccessToken).Delete("/api/v1/auth/sessions/" + family)).To(HaveError(404, "not_found"))
		Expect(h.As(stranger.AccessToken).Post("/api/v1/auth/logout",
			map[string]any{"refresh_token": owner.RefreshToken})).To(HaveStatus(204))
		Expect(sessions(owner.AccessToken)).To(HaveLen(1))
		Expect(refresh(h, owner.RefreshToken)).To(HaveStatus(200))
	})

	It("refuses bad paging and family input", func() {
		tok := h.SignIn(idp, person("badpage"), true, "")
		c := tok.Client(h)
		Expect(c.Get("/api/v1/auth/sessions?limit=0")).To(HaveError(422, "invalid_request"))
		Expect(c.Get("/api/v1/auth/sessions?limit=abc")).To(HaveError(422, "invalid_request"))
		Expect(c.Get("/api/v1/auth/sessions?offset=-1")).To(HaveError(422, "invalid_request"))
		Expect(c.Delete("/api/v1/auth/sessions/" + strings.Repeat("f", 65))).To(HaveError(422, "invalid_request"))
		Expect(sessions(tok.AccessToken)).To(HaveLen(1))
	})

	It("refuses the session routes without a token", func() {
		Expect(h.Anon().Get("/api/v1/auth/sessions")).To(HaveError(401, "unauthenticated"))
		Expect(h.Anon().Delete("/api/v1/auth/sessions/x")).To(HaveError(401, "unauthenticated"))
		Expect(h.Anon().Post("/api/v1/auth/logout", nil)).To(HaveError(401, "unauthenticated"))
	})

	Describe("logout", func() {
		It("ends one session by its refresh token", func() {
			claims := person("logout-one")
			a := h.SignIn(idp, claims, true, "a")
			b := h.SignIn(idp, claims, true, "b")
			res := a.Client(h).Post("/api/v1/auth/logout", map[string]any{"refresh_token": a.RefreshToken})
			Expect(res).To(HaveStatus(204))
			Expect(refresh(h, a.RefreshToken)).To(HaveError(401, "unauthenticated"))
			Expect(refresh(h, b.RefreshToken)).To(HaveStatus(200))
			// The access token is not revocable early: it works until it expires.
			Expect(a.Client(h).Get("/api/v1/auth/me")).To(HaveStatus(200))
		})

		It("ends a session by a token it already spent", func() {
			tok := h.SignIn(idp, person("logout-spent"), true, "rotated")
			next := rotate(tok.RefreshToken)
			Expect(*next.RefreshToken).NotTo(BeEmpty())
			Expect(tok.Client(h).Post("/api/v1/auth/logout", map[string]any{"refresh_token": tok.RefreshToken})).To(HaveStatus(204))
			Expect(sessions(tok.AccessToken)).To(BeEmpty())
			Expect(refresh(h, *next.RefreshToken)).To(HaveError(401, "unauthenticated"))
		})

		It("ends every session with everywhere", func() {
			claims := person("logout-all")
			a := h.SignIn(idp, claims, true, "a")
			b := h.SignIn(idp, claims, true, "b")
			Expect(a.Client(h).Post("/api/v1/auth/logout", map[string]any{"everywhere": true})).To(HaveStatus(204))
			Expect(refresh(h, a.RefreshToken)).To(HaveError(401, "unauthenticated"))
			Expect(refresh(h, b.RefreshToken)).To(HaveError(401, "unauthenticated"))
			Expect(sessions(a.AccessToken)).To(BeEmpty())
		})

		It("clears the media cookie, with or without a body", func() {
			tok := h.SignIn(idp, person("logout-cookie"), false, "")
			res := tok.Client(h).Post("/api/v1/auth/logout", nil)
			Expect(res).To(HaveStatus(204))
			Expect(res.Header.Values("Set-Cookie")).To(HaveExactElements(
				And(HavePrefix("rounds_media=;"), ContainSubstring("Path=/uploads;"), ContainSubstring("Max-Age=0")),
				And(HavePrefix("rounds_media=;"), ContainSubstring("Path=/admin/jobs;"), ContainSubstring("Max-Age=0"))))
		})

		It("refuses bad input and ends nothing", func() {
			tok := h.SignIn(idp, person("logout-bad"), true, "keep")
			c := tok.Client(h)
			Expect(c.Post("/api/v1/auth/logout", map[string]any{"everywhere": "yes"})).To(HaveError(422, "invalid_request"))
			Expect(c.Post("/api/v1/auth/logout", map[string]any{"all": true})).To(HaveError(422, "invalid_request"))
			Expect(sessions(tok.AccessToken)).To(HaveLen(1))
		})
	})

	It("limits refreshes per address per hour", func() {
		tok := h.SignIn(idp, person("limited"), true, "")
		addr := newAddress()
		c := h.Anon().With("X-Forwarded-For", addr)
		cur := tok.RefreshToken
		for i := 0; i < refreshLimit; i++ {
			res := c.Post("/api/v1/auth/refresh", map[string]any{"refresh_token": cur})
			Expect(res).To(HaveStatus(200), strconv.Itoa(i))
			cur = *Body[contract.Token](res).RefreshToken
		}
		res := c.Post("/api/v1/auth/refresh", map[string]any{"refresh_token": cur})
		Expect(res).To(HaveError(429, "rate_limited"))
		Expect(res.Header.Get("Retry-After")).NotTo(BeEmpty())
		// The refused request spent nothing: the token still works from another address.
		Expect(refresh(h, cur)).To(HaveStatus(200))
	})
})
