import { Suspense, lazy, useEffect, useState, useSyncExternalStore } from "react";
import { exchange, onAuthChange, signedIn, startSignIn } from "./auth";
import { match, navigate } from "./router";
import { Shell } from "./shell";

const SharedView = lazy(() => import("./screens/account/Shares").then((m) => ({ default: m.SharedView })));

export function App() {
  const authed = useSyncExternalStore(onAuthChange, signedIn);
  const [callbackError, setCallbackError] = useState<string | null>(null);
  const code = new URLSearchParams(location.search).get("code");

  useEffect(() => {
    if (!code) return;
    // The code is single-use: take it out of the address bar at once.
    history.replaceState(null, "", "/");
    exchange(code).then((err) => {
      setCallbackError(err);
      navigate(sessionStorage.getItem("rounds.after") ?? "/", true);
      sessionStorage.removeItem("rounds.after");
    });
  }, [code]);

  // A share link opens without signing in.
  const shared = match("/s/:token", location.pathname);
  if (shared)
    return (
      <Suspense fallback={<p className="center">Loading…</p>}>
        <SharedView token={shared.token} />
      </Suspense>
    );
  if (code) return <p className="center">Signing in…</p>;
  if (!authed) return <SignIn error={callbackError} />;
  return <Shell />;
}

function SignIn({ error }: { error: string | null }) {
  return (
    <main className="signin">
      <h1>Rounds</h1>
      <p>Question bank and learning.</p>
      {error && (
        <p role="alert" className="error">
          Sign-in failed: {error}
        </p>
      )}
      <button
        className="primary"
        onClick={() => {
          if (location.pathname !== "/") sessionStorage.setItem("rounds.after", location.pathname + location.search);
          startSignIn();
        }}
      >
        Sign in
      </button>
    </main>
  );
}
