package http

import (
	nethttp "net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

// Register declares every identity operation.
func (h *Handlers) Register(r *httpapi.Router) {
	ssoRoutes(r, h)
	tokenRoutes(r, h)
	accountRoutes(r, h)
	peopleRoutes(r, h)
	accessRoutes(r, h)
	closedRoutes(r)
}

func ssoRoutes(r *httpapi.Router, h *Handlers) {
	const tag = "auth"
	httpapi.Register(r, auth.Public, httpapi.Op(nethttp.MethodGet, "/auth/sso/config", tag,
		"Whether single sign-on is available, and the login mode", 0), h.ssoConfig)
	httpapi.Register(r, auth.Public, httpapi.Described(httpapi.Op(nethttp.MethodGet, "/auth/sso/login", tag,
		"Start signing in at the identity provider", nethttp.StatusFound,
		nethttp.StatusTooManyRequests, nethttp.StatusBadGateway, nethttp.StatusServiceUnavailable),
		"Redirects to the provider with state, nonce and a PKCE challenge; the state is bound to this "+
			"browser by a short-lived cookie, and the one-time code the sign-in ends with to this browser or to the "+
			"client's code_challenge. 300 per caller address per hour (429 beyond)."),
		h.startLogin)
	httpapi.Register(r, auth.Public, httpapi.Described(httpapi.Op(nethttp.MethodGet, "/auth/sso/callback", tag,
		"Where the identity provider returns the browser", nethttp.StatusFound,
		nethttp.StatusBadRequest, nethttp.StatusForbidden, nethttp.StatusBadGateway, nethttp.StatusServiceUnavailable),
		"Matches or creates the account by email, applies the role, and redirects to the client with a one-time code (60 s)."),
		h.callback)
	httpapi.Register(r, auth.Public, httpapi.Described(httpapi.Op(nethttp.MethodPost, "/auth/sso/exchange", tag,
		"Trade the one-time code for a token", 0, nethttp.StatusBadRequest),
		"A code works once and for 60 seconds, and only for the client that started its sign-in: the "+
			"same browser (its sign-in cookie, sent by itself) or the code_verifier of the sign-in's code_challenge; "+
			"any other caller is refused (400) and the code is spent. Also sets the media cookie for /uploads and "+
			"(admins) the job UI at /admin/jobs."),
		h.exchange)
	httpapi.Register(r, auth.Public, httpapi.Described(httpapi.Op(nethttp.MethodGet, "/auth/sso/logout", tag,
		"Sign out at the identity provider", nethttp.StatusFound, nethttp.StatusBadGateway, nethttp.StatusServiceUnavailable),
		"Redirects to the provider's end-session endpoint, which returns to the client."),
		h.ssoLogout)
}

func tokenRoutes(r *httpapi.Router, h *Handlers) {
	const tag = "auth"
	httpapi.Register(r, auth.Public, httpapi.Described(httpapi.Op(nethttp.MethodPost, "/auth/refresh", tag,
		"Trade a refresh token for a new pair", 0, nethttp.StatusUnauthorized, nethttp.StatusTooManyRequests),
		"The old token is spent. Presenting a spent token again ends its whole session family. Limited per address per hour."),
		h.refresh)
	httpapi.Register(r, auth.User, httpapi.Described(httpapi.Op(nethttp.MethodPost, "/auth/logout", tag,
		"Sign out: end one session (by refresh token) or all of them", nethttp.StatusNoContent),
		"Access tokens stay valid until they expire; logout ends the ability to obtain another. "+
			"Also clears the media cookie. An unknown or foreign refresh token ends nothing."),
		h.logout)
	httpapi.Register(r, auth.User, httpapi.Op(nethttp.MethodGet, "/auth/sessions", tag,
		"Your sessions: one row per device (family), not per rotation", 0), h.sessions)
	httpapi.Register(r, auth.User, httpapi.Op(nethttp.MethodDelete, "/auth/sessions/{family}", tag,
		"End one of your sessions", nethttp.StatusNoContent, nethttp.StatusNotFound), h.endSession)
}

func accountRoutes(r *httpapi.Router, h *Handlers) {
	const tag = "auth"
	httpapi.Register(r, auth.User, httpapi.Op(nethttp.MethodGet, "/auth/me", tag, "Your account", 0), h.me)
	httpapi.Register(r, auth.User, httpapi.Op(nethttp.MethodPut, "/auth/me", tag,
		"Change your name (the only field you can change)", 0), h.rename)
	httpapi.Register(r, auth.User, httpapi.Op(nethttp.MethodGet, "/auth/me/settings", tag,
		"Your settings; reminders_disabled comes from durable storage and wins", 0), h.settings)
	op := httpapi.Described(httpapi.Op(nethttp.MethodPut, "/auth/me/settings", tag,
		"Replace your settings (any JSON object, up to 64 KiB)", 0),
		"reminders_disabled (boolean) is stored durably and left unchanged when absent; "+
			"every other key replaces the stored object.")
	op.MaxBodyBytes = settingsMaxBytes
	httpapi.Register(r, auth.User, op, h.saveSettings)
	httpapi.Register(r, auth.User, httpapi.Op(nethttp.MethodGet, "/auth/me/grants", tag,
		"The editorial grants you hold", 0), h.myGrants)
	op = httpapi.Described(httpapi.Op(nethttp.MethodGet, "/auth/me/export", tag,
		"Download everything you own (a zip of JSON files)", 0, nethttp.StatusTooManyRequests),
		"One folder per module: identity (account and settings, sessions, grants), attempts "+
			"(attempts with their answers as sat, saved progress, reminders, folders, collections, notes), "+
			"bank (favourites, saved tests), flashcards (card states, review log, settings, exam dates), "+
			"plans, feedback, library, share and ai as you have data there. Streamed as it is read; "+
			"5 per hour. An archive cut short has no zip directory.")
	op.Responses = map[string]*huma.Response{"200": {Description: "a zip archive",
		Content: map[string]*huma.MediaType{"application/zip": {Schema: &huma.Schema{Type: "string", Format: "binary"}}}}}
	httpapi.Register(r, auth.User, op, h.export)
	httpapi.Register(r, auth.User, httpapi.Described(httpapi.Op(nethttp.MethodDelete, "/auth/me", tag,
		"Delete your account and everything you own", nethttp.StatusNoContent, nethttp.StatusConflict),
		"Body {\"confirm\": \"delete my account\"} (422 otherwise). Your sessions end at once; "+
			"every module removes what you owned when it hears identity.user_deleted.v1, as for an "+
			"administrator's deletion. The last administrator cannot (409)."),
		h.deleteMe)
}

func peopleRoutes(r *httpapi.Router, h *Handlers) {
	const tag = "admin"
	httpapi.Register(r, auth.Admin, httpapi.Op(nethttp.MethodGet, "/admin/users", tag,
		"Every account, in id order (X-Total-Count carries the total)", 0), h.users)
	httpapi.Register(r, auth.Admin, httpapi.Op(nethttp.MethodPost, "/admin/users", tag,
		"Create an account ahead of its first sign-in (email taken as verified)", nethttp.StatusCreated,
		nethttp.StatusConflict), h.createUser)
	httpapi.Register(r, auth.Admin, httpapi.Op(nethttp.MethodPut, "/admin/users/{user_id}/role", tag,
		"Set someone's role (400 for your own; 409 while provider role mapping is on)", 0,
		nethttp.StatusBadRequest, nethttp.StatusNotFound, nethttp.StatusConflict), h.adminSetRole)
	httpapi.Register(r, auth.Admin, httpapi.Op(nethttp.MethodPut, "/admin/users/{user_id}/unthrottle", tag,
		"Exempt someone from the AI and speech rate limits, or not", 0, nethttp.StatusNotFound), h.unthrottle)
	httpapi.Register(r, auth.Admin, httpapi.Described(httpapi.Op(nethttp.MethodDelete, "/admin/users/{user_id}", tag,
		"Delete someone's account (400 for your own)", nethttp.StatusNoContent,
		nethttp.StatusBadRequest, nethttp.StatusNotFound, nethttp.StatusConflict),
		"Sessions and grants go with it; other modules remove the person's own data "+
			"(attempts, favourites, notes, collections) when they hear identity.user_deleted.v1."),
		h.deleteUser)
}

func accessRoutes(r *httpapi.Router, h *Handlers) {
	const tag = "access"
	httpapi.Register(r, auth.Mod, httpapi.Op(nethttp.MethodPut, "/access/{user_id}/role", tag,
		"Make someone a learner or a moderator (409 while provider role mapping is on)", 0,
		nethttp.StatusBadRequest, nethttp.StatusNotFound, nethttp.StatusConflict), h.accessSetRole)
	httpapi.Register(r, auth.Mod, httpapi.Op(nethttp.MethodGet, "/access/{user_id}/grants", tag,
		"Someone's editorial grants", 0, nethttp.StatusNotFound), h.grantsOf)
	httpapi.Register(r, auth.Mod, httpapi.Described(httpapi.Op(nethttp.MethodPost, "/access/{user_id}/grants", tag,
		"Give a learner an editorial grant (edit only; never to yourself)", nethttp.StatusCreated,
		nethttp.StatusBadRequest, nethttp.StatusNotFound, nethttp.StatusConflict),
		"Kinds: category (questions and articles under a category branch), deck (one deck, or a "+
			"category branch of decks), quiz (every question of one quiz), article (one article and its figures)."),
		h.giveGrant)
	httpapi.Register(r, auth.Mod, httpapi.Op(nethttp.MethodDelete, "/access/{user_id}/grants/{grant_id}", tag,
		"Revoke an editorial grant", nethttp.StatusNoContent, nethttp.StatusNotFound), h.revokeGrant)
}

// closedRoutes declares the password-era routes. POST /auth/login answers
// 410 and POST /auth/reset-password 404, as the spec says; the older
// listing's register, verify-email, resend-verification and
// forgot-password answer 410 too, so an old client learns why rather than
// meeting a bare "no such route".
func closedRoutes(r *httpapi.Router) {
	for _, c := range []struct {
		method, path string
		what         closed
	}{
		{nethttp.MethodPost, "/auth/login", "Password sign-in"},
		{nethttp.MethodPost, "/auth/register", "Registration"},
		{nethttp.MethodGet, "/auth/verify-email", "Email verification"},
		{nethttp.MethodPost, "/auth/resend-verification", "Resending verification"},
		{nethttp.MethodPost, "/auth/forgot-password", "Password reset request"},
	} {
		op := httpapi.Op(c.method, c.path, "auth", string(c.what)+" (closed: 410 always)", nethttp.StatusGone)
		op.Deprecated = true
		httpapi.Register(r, auth.Public, op, c.what.gone)
	}
	op := httpapi.Op(nethttp.MethodPost, "/auth/reset-password", "auth", "Password reset (gone: 404 always)", nethttp.StatusNotFound)
	op.Deprecated = true
	httpapi.Register(r, auth.Public, op, resetPassword)
}
