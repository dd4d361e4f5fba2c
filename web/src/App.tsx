import { useEffect, useState, useSyncExternalStore } from "react";
import { useQuery } from "@tanstack/react-query";
import { api, must } from "./api/client";
import { exchange, onAuthChange, signedIn, signOut, startSignIn } from "./auth";
import { Link, match, navigate, useLocation } from "./router";
import { Dashboard, Devices, People, QuizList, Bank } from "./pages";
import { Sit } from "./Sit";
import { Review } from "./Review";

export type Role = "user" | "moderator" | "admin";

const rank: Record<Role, number> = { user: 0, moderator: 1, admin: 2 };

type NavItem = { href: string; label: string; role: Role };

// Navigation shows only what the person's role reaches.
const nav: NavItem[] = [
  { href: "/", label: "Dashboard", role: "user" },
  { href: "/quizzes", label: "Quizzes", role: "user" },
  { href: "/bank", label: "Question bank", role: "moderator" },
  { href: "/people", label: "People", role: "admin" },
  { href: "/devices", label: "Devices", role: "user" },
];

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

function Shell() {
  const { path } = useLocation();
  const me = useQuery({ queryKey: ["me"], queryFn: async () => must(await api.GET("/api/v1/auth/me")) });
  const role = (me.data?.role ?? "user") as Role;
  const items = nav.filter((n) => rank[role] >= rank[n.role]);
  const sitting = match("/quizzes/:id/sit", path);
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <strong className="brand">Rounds</strong>
        <nav aria-label="Main">
          {items.map((n) => (
            <Link key={n.href} href={n.href} aria-current={path === n.href ? "page" : undefined}>
              {n.label}
            </Link>
          ))}
        </nav>
        <span className="who">
          {me.data ? (
            <>
              {me.data.name} <span className="badge">{me.data.role}</span>
            </>
          ) : null}
        </span>
        <button onClick={() => signOut(false)}>Sign out</button>
      </header>
      <main id="main" className={sitting ? "wide" : undefined}>
        {me.isError ? <p role="alert">Could not load your account: {String(me.error.message)}</p> : <Page path={path} role={role} />}
      </main>
    </>
  );
}

function Page({ path, role }: { path: string; role: Role }) {
  let m: Record<string, string> | null;
  if (path === "/") return <Dashboard />;
  if (path === "/quizzes") return <QuizList />;
  if ((m = match("/quizzes/:id/sit", path))) return <Sit key={path} quizId={Number(m.id)} />;
  if ((m = match("/attempts/:id", path))) return <Review attemptId={Number(m.id)} />;
  if (path === "/devices") return <Devices />;
  if (path === "/bank" && rank[role] >= rank.moderator) return <Bank />;
  if (path === "/people" && role === "admin") return <People />;
  return (
    <section>
      <h1>Not found</h1>
      <p>
        Nothing here. <Link href="/">Back to the dashboard</Link>
      </p>
    </section>
  );
}
