package identity_test

import (
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
)

// mediaCookie is the cookie the exchange set.
func mediaCookie(t *Token) *http.Cookie {
	for _, c := range t.Cookies {
		if c.Name == "rounds_media" {
			return c
		}
	}
	Fail("the exchange set no rounds_media cookie")
	return nil
}

// probed is what the suite's media probes answer (test routes, outside
// the contract): who the caller is.
type probed struct {
	UserID int64 `json:"user_id"`
}

var _ = Describe("The media cookie", func() {
	It("is set by the exchange: HttpOnly, SameSite=Lax, for /uploads and the job UI at /admin/jobs, one day", func() {
		tok := h.SignIn(idp, person("cookie"), false, "")
		c := mediaCookie(tok)
		Expect(c.HttpOnly).To(BeTrue())
		Expect(c.SameSite).To(Equal(http.SameSiteLaxMode))
		Expect(c.Path).To(Equal("/uploads"))
		Expect(c.MaxAge).To(Equal(86400))
		Expect(c.Secure).To(BeFalse(), "plain http here")
		Expect(c.Value).NotTo(BeEmpty())
		Expect(c.Value).NotTo(Equal(tok.AccessToken))
		var paths []string
		for _, other := range tok.Cookies {
			if other.Name == c.Name {
				paths = append(paths, other.Path)
				Expect(other.Value).To(Equal(c.Value), "one token for every path")
				Expect(other.HttpOnly).To(BeTrue())
				Expect(other.SameSite).To(Equal(http.SameSiteLaxMode))
				Expect(other.MaxAge).To(Equal(86400))
			}
		}
		Expect(paths).To(Equal([]string{"/uploads", "/admin/jobs"}))
	})

	It("is Secure over https", func() {
		b := h.Browser().With("X-Forwarded-Proto", "https")
		res := b.Exchange(CodeFrom(b.SignInAt(idp, person("secure"))), false, "")
		Expect(res).To(HaveStatus(200))
		Expect(res.Header.Get("Set-Cookie")).To(And(HavePrefix("rounds_media="), ContainSubstring("; Secure")))
	})

	It("stands in for the bearer token on a route that accepts it", func() {
		tok := h.SignIn(idp, person("media"), false, "")
		id := me(h, tok.AccessToken).Id
		cookie := "rounds_media=" + mediaCookie(tok).Value

		res := h.Anon().With("Cookie", cookie).Get("/api/v1/test-media/probe")
		Expect(res).To(HaveStatus(200))
		Expect(Body[probed](res).UserID).To(Equal(id))
		res = h.Anon().With("Cookie", cookie).Get("/api/v1/test-media/op")
		Expect(res).To(HaveStatus(200))
		Expect(Body[probed](res).UserID).To(Equal(id))

		// The bearer token works there too.
		res = tok.Client(h).Get("/api/v1/test-media/probe")
		Expect(res).To(HaveStatus(200))
		Expect(Body[probed](res).UserID).To(Equal(id))
	})

	It("opens nothing else: not as a cookie, not as a bearer token", func() {
		tok := h.SignIn(idp, person("media-only"), false, "")
		value := mediaCookie(tok).Value
		Expect(h.Anon().With("Cookie", "rounds_media="+value).Get("/api/v1/auth/me")).To(HaveError(401, "unauthenticated"))
		Expect(h.As(value).Get("/api/v1/auth/me")).To(HaveError(401, "unauthenticated"))
		Expect(h.As(value).Get("/api/v1/test-media/probe")).To(HaveError(401, "unauthenticated"))
		// And the access token is not a media cookie.
		Expect(h.Anon().With("Cookie", "rounds_media="+tok.AccessToken).Get("/api/v1/test-media/probe")).To(HaveError(401, "unauthenticated"))
	})

	It("is required when no bearer token is sent", func() {
		Expect(h.Anon().Get("/api/v1/test-media/probe")).To(HaveError(401, "unauthenticated"))
		Expect(h.Anon().With("Cookie", "rounds_media=garbage").Get("/api/v1/test-media/probe")).To(HaveError(401, "unauthenticated"))
		Expect(h.Anon().With("Cookie", "other=1").Get("/api/v1/test-media/op")).To(HaveError(401, "unauthenticated"))
	})

	It("stops working when the account is deleted", func() {
		tok := h.SignIn(idp, person("media-gone"), false, "")
		id := me(h, tok.AccessToken).Id
		Expect(h.NewUser("admin").Client(h).Delete(userPath(id))).To(HaveStatus(204))
		Expect(h.Anon().With("Cookie", "rounds_media="+mediaCookie(tok).Value).Get("/api/v1/test-media/probe")).
			To(HaveError(401, "unauthenticated"))
	})
})
