package devidp

import "net/http"

// landingPage is a minimal Rounds client for development: it starts the
// sign-in, trades the one-time code the callback brings back for a token
// (same origin, so no CORS), and shows the token and the signed-in account
// so a newcomer can paste it into /api/docs.
const landingPage = `<!doctype html>
<html><head><meta charset="utf-8"><title>Rounds (development)</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:44rem;margin:3rem auto;padding:0 1rem}
textarea{width:100%;height:6rem;font-family:monospace}.err{color:#b00}</style>
</head><body>
<h1>Rounds: development sign-in</h1>
<div id="out"><p><a href="/api/v1/auth/sso/login">Sign in</a> through the development identity provider
(accounts <code>admin</code>, <code>moderator</code> and <code>learner</code>; the password is the username).</p></div>
<p><a href="/api/docs">API documentation</a> · <a href="/api/v1/auth/sso/logout">Sign out at the provider</a></p>
<script>
(async () => {
  const code = new URLSearchParams(location.search).get("code");
  if (!code) return;
  history.replaceState(null, "", "/");
  const out = document.getElementById("out");
  const res = await fetch("/api/v1/auth/sso/exchange", {method: "POST",
    headers: {"Content-Type": "application/json"}, body: JSON.stringify({code, device: "development page"})});
  const tok = await res.json();
  if (!res.ok) { out.innerHTML = '<p class="err"></p><p><a href="/api/v1/auth/sso/login">Sign in again</a></p>';
    out.querySelector(".err").textContent = (tok.error && tok.error.message) || res.statusText; return; }
  const me = await (await fetch("/api/v1/auth/me", {headers: {Authorization: "Bearer " + tok.access_token}})).json();
  out.innerHTML = '<p>Signed in as <b class="who"></b> (role <b class="role"></b>).</p>' +
    '<p>Access token (valid one day; use it as <code>Authorization: Bearer ...</code> or in the docs page\'s Authorize box):</p>' +
    '<textarea readonly class="tok"></textarea>';
  out.querySelector(".who").textContent = me.name + " <" + me.email + ">";
  out.querySelector(".role").textContent = me.role;
  out.querySelector(".tok").value = tok.access_token;
})();
</script>
</body></html>`

// LandingPage serves the development client page (mounted at the Rounds
// root only while the development provider is enabled).
func LandingPage() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write([]byte(landingPage))
	})
}
