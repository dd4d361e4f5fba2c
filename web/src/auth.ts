// Sign-in through the service's SSO flow. The access token lives in memory
// only; the refresh token is kept in sessionStorage (this tab, gone when it
// closes) so a reload does not sign the person out. No token ever travels
// in a URL: the callback brings a one-time code, traded here. The server
// trades a code only with the client that started its sign-in: this tab
// proves it with a verifier it keeps (PKCE's S256), and the browser's
// sign-in cookie, sent with the exchange, proves it where no verifier could
// be made (crypto.subtle exists only on https and localhost).

export type Token = { access_token: string; expires_in: number; refresh_token?: string };

const REFRESH_KEY = "rounds.refresh";
const VERIFIER_KEY = "rounds.signin.verifier";
let access: { token: string; expires: number } | null = null;
let refreshing: Promise<boolean> | null = null;
const listeners = new Set<() => void>();

function keep(t: Token) {
  access = { token: t.access_token, expires: Date.now() + t.expires_in * 1000 };
  if (t.refresh_token) sessionStorage.setItem(REFRESH_KEY, t.refresh_token);
  listeners.forEach((l) => l());
}

export function onAuthChange(l: () => void) {
  listeners.add(l);
  return () => void listeners.delete(l);
}

export function signedIn() {
  return access !== null || sessionStorage.getItem(REFRESH_KEY) !== null;
}

/** accessToken refreshes a token that expires within a minute. */
export async function accessToken(): Promise<string | null> {
  if (access && access.expires - Date.now() > 60_000) return access.token;
  return (await refresh()) ? access!.token : null;
}

/** refresh spends the refresh token for a new pair (one at a time). */
export function refresh(): Promise<boolean> {
  refreshing ??= (async () => {
    const rt = sessionStorage.getItem(REFRESH_KEY);
    if (!rt) return false;
    let res: Response;
    try {
      res = await fetch("/api/v1/auth/refresh", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ refresh_token: rt }),
      });
    } catch {
      // Offline: stay signed in (the refresh token is still good); requests
      // go without a token and the service worker answers what it kept.
      return false;
    }
    if (!res.ok) {
      forget();
      return false;
    }
    keep(await res.json());
    return true;
  })().finally(() => (refreshing = null));
  return refreshing;
}

export async function startSignIn() {
  const challenge = await newChallenge();
  location.assign("/api/v1/auth/sso/login" + (challenge ? `?code_challenge=${challenge}` : ""));
}

/** newChallenge keeps a fresh verifier for this tab's sign-in and returns
 * its S256 challenge, or null where the browser cannot hash (plain http). */
async function newChallenge(): Promise<string | null> {
  sessionStorage.removeItem(VERIFIER_KEY);
  if (!globalThis.crypto?.subtle) return null;
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  sessionStorage.setItem(VERIFIER_KEY, verifier);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}

function base64url(bytes: Uint8Array) {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** exchange trades the callback's one-time code for tokens. */
export async function exchange(code: string): Promise<string | null> {
  const verifier = sessionStorage.getItem(VERIFIER_KEY);
  sessionStorage.removeItem(VERIFIER_KEY);
  const res = await fetch("/api/v1/auth/sso/exchange", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    credentials: "same-origin", // the sign-in cookie binds the code to this browser
    body: JSON.stringify({ code, refresh: true, device: deviceLabel(), ...(verifier ? { code_verifier: verifier } : {}) }),
  });
  if (!res.ok) {
    const body = await res.json().catch(() => null);
    return body?.error?.message ?? res.statusText;
  }
  keep(await res.json());
  return null;
}

function forget() {
  access = null;
  sessionStorage.removeItem(REFRESH_KEY);
  listeners.forEach((l) => l());
}

/** signOut ends this session (or every session) here, then at the provider. */
export async function signOut(everywhere: boolean) {
  const token = await accessToken();
  const rt = sessionStorage.getItem(REFRESH_KEY);
  if (token) {
    await fetch("/api/v1/auth/logout", {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: JSON.stringify(everywhere ? { everywhere: true } : { refresh_token: rt ?? "" }),
    }).catch(() => undefined);
  }
  forget();
  // What the service worker kept of this person's sitting goes too.
  await globalThis.caches?.delete("rounds-data-v1");
  location.assign("/api/v1/auth/sso/logout");
}

function deviceLabel() {
  const ua = navigator.userAgent;
  const browser = /Firefox\//.test(ua) ? "Firefox" : /Edg\//.test(ua) ? "Edge" : /Chrom/.test(ua) ? "Chrome" : /Safari\//.test(ua) ? "Safari" : "Browser";
  return `Web (${browser})`;
}
