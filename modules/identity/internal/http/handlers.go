package http

import (
	nethttp "net/http"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/modules/identity/internal/app"
	"github.com/roundsedu/rounds/platform/httpapi"
)

// Handlers serve identity's routes.
type Handlers struct {
	svc *app.Service
	// loginCookie binds a sign-in to the browser that started it.
	loginCookie string
	// mediaCookie authenticates the raw routes a browser opens without a
	// header (httpapi.MediaCookiePaths: /uploads for native tags, the job
	// UI for admins).
	mediaCookie string
	// alwaysSecure is set when the public URL is https: cookies are Secure
	// even behind a proxy that terminates TLS and does not say so.
	alwaysSecure bool
}

// New makes the handlers. serviceName names the cookies; publicURL decides
// whether they are always Secure.
func New(svc *app.Service, serviceName, publicURL string) *Handlers {
	return &Handlers{svc: svc, loginCookie: serviceName + "_sso",
		mediaCookie:  httpapi.MediaCookieName(serviceName),
		alwaysSecure: strings.HasPrefix(strings.ToLower(publicURL), "https://")}
}

// Browser is what a handler learns of the browser beyond the declared
// parameters: its cookies and whether it came over https. Resolved by huma
// from the raw request, so the cookies stay out of the documented surface.
type Browser struct {
	cookies []*nethttp.Cookie
	https   bool
}

// Resolve implements huma.Resolver.
func (b *Browser) Resolve(ctx huma.Context) []error {
	if c := ctx.Header("Cookie"); c != "" {
		b.cookies, _ = nethttp.ParseCookie(c)
	}
	b.https = ctx.TLS() != nil || strings.EqualFold(ctx.Header("X-Forwarded-Proto"), "https")
	return nil
}

func (b *Browser) cookie(name string) string {
	for _, c := range b.cookies {
		if c.Name == name {
			return c.Value
		}
	}
	return ""
}

// cookie builds one of identity's cookies: HttpOnly, SameSite=Lax, Secure
// over https. maxAge < 0 deletes it.
func (h *Handlers) cookie(b *Browser, name, value, path string, maxAge int) nethttp.Cookie {
	return nethttp.Cookie{Name: name, Value: value, Path: path, MaxAge: maxAge, HttpOnly: true,
		SameSite: nethttp.SameSiteLaxMode, Secure: h.alwaysSecure || b.https}
}

// mediaCookies set (or, with an empty value and maxAge -1, clear) the media
// cookie on each path that accepts it.
func (h *Handlers) mediaCookies(b *Browser, value string, maxAge int) []nethttp.Cookie {
	out := make([]nethttp.Cookie, len(httpapi.MediaCookiePaths))
	for i, path := range httpapi.MediaCookiePaths {
		out[i] = h.cookie(b, h.mediaCookie, value, path, maxAge)
	}
	return out
}
