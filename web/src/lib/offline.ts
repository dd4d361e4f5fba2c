// Installable and usable offline: the service worker (public/sw.js) keeps
// the shell and the sitting's reads; the page also puts the scripts and
// styles it already loaded into the shell's cache, since those came before
// the worker took control of the page.
export const shellCache = "rounds-shell-v1";

/** register starts the service worker (where the browser has one). */
export function register() {
  if (!("serviceWorker" in navigator)) return;
  void navigator.serviceWorker.register("/sw.js").then(() => keepShell());
}

/** keepShell caches every build file this page has loaded so far. */
export async function keepShell() {
  if (!("caches" in globalThis)) return;
  const files = performance
    .getEntriesByType("resource")
    .map((r) => new URL(r.name))
    .filter((u) => u.origin === location.origin && u.pathname.startsWith("/assets/"))
    .map((u) => u.pathname);
  const cache = await caches.open(shellCache);
  await Promise.all(
    [...new Set(files)].map(async (f) => {
      if (!(await cache.match(f))) await cache.add(f).catch(() => undefined);
    }),
  );
}
