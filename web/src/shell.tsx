// The signed-in page: the header, the navigation grouped by area (drawn
// from the route table, as far as the person's role reaches) and the
// current route inside its own error boundary.
import { Suspense, useEffect, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { useMe, type Role } from "./api/account";
import { signOut } from "./auth";
import { Link, match, useLocation } from "./router";
import { groups, reaches, routes, type Route } from "./routes";
import { RouteBoundary } from "./ui/RouteBoundary";

/** find is the route a path matches, with its parameters. */
function find(path: string): { route: Route; params: Record<string, string> } | null {
  for (const route of routes) {
    const params = match(route.path, path);
    if (params) return { route, params };
  }
  return null;
}

export function Shell() {
  const { path, search } = useLocation();
  const me = useMe();
  const qc = useQueryClient();
  const role = (me.data?.role ?? "user") as Role;
  const found = find(path);
  const route = found && reaches(role, found.route) ? found.route : null;
  const current = route?.section ?? route?.path;
  // On a phone the navigation folds behind a button; a move closes it.
  const [menu, setMenu] = useState(false);
  useEffect(() => setMenu(false), [path]);
  return (
    <div className="shell">
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <strong className="brand">Rounds</strong>
        <button className="menu" aria-expanded={menu} aria-controls="main-nav" onClick={() => setMenu(!menu)}>
          Menu
        </button>
        <span className="who">
          {me.data ? (
            <>
              {me.data.name} <span className="badge">{me.data.role}</span>
            </>
          ) : null}
        </span>
        <button onClick={() => signOut(false)}>Sign out</button>
      </header>
      <nav aria-label="Main" id="main-nav" className={menu ? "side open" : "side"}>
        {groups.map((g) => {
          const items = routes.filter((r) => r.nav?.group === g && reaches(role, r));
          if (!items.length) return null;
          return (
            <div key={g} className="nav-group">
              <p className="nav-title" id={`nav-${g}`}>
                {g}
              </p>
              <ul aria-labelledby={`nav-${g}`}>
                {items.map((r) => (
                  <li key={r.path}>
                    <Link href={r.path} aria-current={current === r.path ? "page" : undefined}>
                      {r.nav!.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          );
        })}
      </nav>
      <main id="main" className={route?.wide ? "wide" : undefined}>
        {me.isError ? (
          <p role="alert">Could not load your account: {String(me.error.message)}</p>
        ) : me.isPending ? (
          <p aria-live="polite">Loading…</p>
        ) : route ? (
          <RouteBoundary key={path} onRetry={() => void qc.resetQueries()}>
            <Suspense fallback={<p aria-live="polite">Loading…</p>}>{route.render({ ...found!.params, path, search, role })}</Suspense>
          </RouteBoundary>
        ) : (
          <section>
            <h1>Not found</h1>
            <p>
              Nothing here. <Link href="/">Back to the dashboard</Link>
            </p>
          </section>
        )}
      </main>
    </div>
  );
}
