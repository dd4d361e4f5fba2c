import { useEffect, useState, useSyncExternalStore } from "react";
import { useQuery } from "@tanstack/react-query";
import { api, must } from "./api/client";
import { exchange, onAuthChange, signedIn, signOut, startSignIn } from "./auth";
import { Link, match, navigate, useLocation } from "./router";
import { Dashboard, Devices, QuizList, Bank } from "./pages";
import { Decks, Study } from "./Flashcards";
import { Article, Library } from "./Library";
import { Batch, Batches, FeedbackQueue } from "./Moderation";
import { Models, People, Settings } from "./Admin";
import { Sit } from "./Sit";
import { Review } from "./Review";
import { ArticleEditor, ArticleList, QuestionEditor } from "./Editors";
import { ExamResult, Exams, Plan, Plans } from "./Plans";
import { Labs } from "./Labs";
import { Shares, SharedView } from "./Share";
import { Contact, Messages, Usage } from "./Site";
import { Categories, Grants, Trash } from "./Console";
import { Browse, Collections } from "./Learn";

export type Role = "user" | "moderator" | "admin";

const rank: Record<Role, number> = { user: 0, moderator: 1, admin: 2 };

type NavItem = { href: string; label: string; role: Role };

// Navigation shows only what the person's role reaches.
const nav: NavItem[] = [
  { href: "/", label: "Dashboard", role: "user" },
  { href: "/quizzes", label: "Quizzes", role: "user" },
  { href: "/plans", label: "Study plans", role: "user" },
  { href: "/exams", label: "Exams", role: "user" },
  { href: "/flashcards", label: "Flashcards", role: "user" },
  { href: "/library", label: "Library", role: "user" },
  { href: "/labs", label: "Lab values", role: "user" },
  { href: "/browse", label: "Browse questions", role: "user" },
  { href: "/collections", label: "Collections", role: "user" },
  { href: "/bank", label: "Question bank", role: "moderator" },
  { href: "/write", label: "Article editor", role: "moderator" },
  { href: "/drafts", label: "Drafts", role: "moderator" },
  { href: "/feedback", label: "Feedback", role: "moderator" },
  { href: "/trash", label: "Trash", role: "moderator" },
  { href: "/categories", label: "Categories", role: "moderator" },
  { href: "/grants", label: "Grants", role: "moderator" },
  { href: "/models", label: "AI models", role: "admin" },
  { href: "/usage", label: "AI usage", role: "admin" },
  { href: "/settings", label: "Settings", role: "admin" },
  { href: "/people", label: "People", role: "admin" },
  { href: "/messages", label: "Messages", role: "admin" },
  { href: "/shares", label: "Shared links", role: "user" },
  { href: "/devices", label: "Devices", role: "user" },
  { href: "/contact", label: "Contact", role: "user" },
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

  // A share link opens without signing in.
  const shared = match("/s/:token", location.pathname);
  if (shared) return <SharedView token={shared.token} />;
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
  // On a phone the navigation folds behind a button; a move closes it.
  const [menu, setMenu] = useState(false);
  useEffect(() => setMenu(false), [path]);
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <strong className="brand">Rounds</strong>
        <button className="menu" aria-expanded={menu} aria-controls="main-nav" onClick={() => setMenu(!menu)}>
          Menu
        </button>
        <nav aria-label="Main" id="main-nav" className={menu ? "open" : undefined}>
          {items.map((n) => (
            <Link key={n.href} href={n.href} aria-current={section(path) === n.href ? "page" : undefined}>
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

/** section is the navigation entry a path belongs to (an article is the library's). */
function section(path: string): string {
  if (path.startsWith("/articles/")) return "/library";
  if (path.startsWith("/attempts/")) return "/";
  if (path.startsWith("/questions/")) return "/bank";
  return "/" + (path.split("/")[1] ?? "");
}

function Page({ path, role }: { path: string; role: Role }) {
  let m: Record<string, string> | null;
  if (path === "/") return <Dashboard />;
  if (path === "/quizzes") return <QuizList />;
  if ((m = match("/quizzes/:id/sit", path))) return <Sit key={path} quizId={Number(m.id)} />;
  if ((m = match("/attempts/:id", path))) return <Review attemptId={Number(m.id)} />;
  if (path === "/devices") return <Devices />;
  if (path === "/flashcards") return <Decks />;
  if (path === "/flashcards/study") return <Study key={location.search} />;
  if (path === "/library") return <Library />;
  if ((m = match("/articles/:slug", path))) return <Article key={m.slug} slug={m.slug} />;
  if (path === "/browse") return <Browse moderator={rank[role] >= rank.moderator} />;
  if (path === "/collections") return <Collections />;
  const mod = rank[role] >= rank.moderator;
  if (path === "/plans") return <Plans moderator={mod} />;
  if ((m = match("/plans/:id", path))) return <Plan key={m.id} id={Number(m.id)} moderator={mod} />;
  if (path === "/exams") return <Exams moderator={mod} />;
  if ((m = match("/exams/:id/result", path))) return <ExamResult key={m.id} id={Number(m.id)} />;
  if (path === "/labs") return <Labs moderator={mod} />;
  if (path === "/shares") return <Shares />;
  if (path === "/contact") return <Contact />;
  if (mod) {
    if (path === "/write") return <ArticleList />;
    if ((m = match("/write/:id", path))) return <ArticleEditor key={m.id} id={Number(m.id)} />;
    if ((m = match("/questions/:id/edit", path))) return <QuestionEditor key={m.id} id={Number(m.id)} />;
    if (path === "/bank") return <Bank />;
    if (path === "/drafts") return <Batches />;
    if ((m = match("/drafts/:id", path))) return <Batch key={m.id} id={Number(m.id)} />;
    if (path === "/feedback") return <FeedbackQueue />;
    if (path === "/trash") return <Trash />;
    if (path === "/categories") return <Categories />;
    if (path === "/grants") return <Grants admin={role === "admin"} />;
  }
  if (role === "admin") {
    if (path === "/models") return <Models />;
    if (path === "/usage") return <Usage />;
    if (path === "/messages") return <Messages />;
    if (path === "/settings") return <Settings />;
    if (path === "/people") return <People />;
  }
  return (
    <section>
      <h1>Not found</h1>
      <p>
        Nothing here. <Link href="/">Back to the dashboard</Link>
      </p>
    </section>
  );
}
