package devidp

import (
	"html/template"
	"net/http"
	"sort"

	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"
)

const (
	loginPath     = "/login"
	loggedOutPath = "/logged-out"
)

var loginTmpl = template.Must(template.New("login").Parse(`<!doctype html>
<html><head><meta charset="utf-8"><title>Development sign-in</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem}
label{display:block;margin:.6rem 0}input{padding:.3rem;width:16rem}.err{color:#b00}
table{border-collapse:collapse;margin-top:1rem}td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left}</style>
</head><body>
<h1>Development sign-in</h1>
<p>This is the built-in development identity provider. Never use it in production.</p>
{{if .Error}}<p class="err">{{.Error}}</p>{{end}}
<form method="post" action="{{.Action}}">
<input type="hidden" name="id" value="{{.ID}}">
<label>Username <input name="username" autofocus autocomplete="username"></label>
<label>Password <input name="password" type="password" autocomplete="current-password"></label>
<button type="submit" name="action" value="login">Sign in</button>
<button type="submit" name="action" value="cancel">Cancel</button>
</form>
{{if .Accounts}}<table><tr><th>Username</th><th>Password</th><th>Email</th><th>Groups</th></tr>
{{range .Accounts}}<tr><td>{{.Username}}</td><td>{{.Password}}</td><td>{{.Claims.Email}}</td><td>{{range .Claims.Groups}}{{.}} {{end}}</td></tr>
{{end}}</table>{{end}}
</body></html>`))

type loginView struct {
	Action   string
	ID       string
	Error    string
	Accounts []Account
}

func (p *Provider) renderLogin(w http.ResponseWriter, status int, id, msg string) {
	accounts := p.store.accountList()
	sort.Slice(accounts, func(i, j int) bool { return accounts[i].Username < accounts[j].Username })
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_ = loginTmpl.Execute(w, loginView{Action: loginPath, ID: id, Error: msg, Accounts: accounts})
}

// loginPage shows the form for a pending authorization request.
func (p *Provider) loginPage(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("authRequestID")
	if _, err := p.store.request(id); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	p.renderLogin(w, http.StatusOK, id, "")
}

// loginSubmit authenticates and hands the request back to the protocol
// handler, or answers the client with access_denied when the person cancels.
func (p *Provider) loginSubmit(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, "cannot read the form", http.StatusBadRequest)
		return
	}
	id := r.FormValue("id")
	req, err := p.store.request(id)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if r.FormValue("action") == "cancel" {
		_ = p.store.DeleteAuthRequest(r.Context(), id)
		op.AuthRequestError(w, r, req, oidc.ErrAccessDenied().WithDescription("the person cancelled the sign-in"), p.op)
		return
	}
	if err := p.store.authenticate(id, r.FormValue("username"), r.FormValue("password")); err != nil {
		p.log.Info("devidp: sign-in refused", "username", r.FormValue("username"), "error", err)
		p.renderLogin(w, http.StatusUnauthorized, id, err.Error())
		return
	}
	http.Redirect(w, r, op.AuthCallbackURL(p.op)(r.Context(), id), http.StatusFound)
}

func (p *Provider) loggedOutPage(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write([]byte(`<!doctype html><html><body><h1>Signed out</h1><p>You are signed out of the development provider.</p></body></html>`))
}
