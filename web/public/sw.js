// Rounds' service worker: the app's shell and the quiz being sat stay
// usable offline. Pages (navigations) and the sitting's reads go to the
// network first and fall back to what was kept; the build's files, named
// by their content, come from the cache first. Writes never pass through
// here: the page's outbox (IndexedDB) keeps them until they are sent.
const SHELL = "rounds-shell-v1";
const DATA = "rounds-data-v1";
// The reads a sitting needs after a reload: who is signed in, the attempt
// as sat and its saved progress.
const kept = /^\/api\/v1\/(auth\/me|attempts\/\d+|attempts\/progress)$/;

self.addEventListener("install", (e) => {
  self.skipWaiting();
  e.waitUntil(caches.open(SHELL).then((c) => c.add("/")));
});

self.addEventListener("activate", (e) => {
  e.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n !== SHELL && n !== DATA).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

async function networkFirst(req, cacheName, key) {
  try {
    const res = await fetch(req);
    if (res.ok) {
      const copy = res.clone();
      caches.open(cacheName).then((c) => c.put(key, copy));
    }
    return res;
  } catch (err) {
    const hit = await caches.match(key, { cacheName, ignoreVary: true });
    if (hit) return hit;
    throw err;
  }
}

async function cacheFirst(req) {
  const hit = await caches.match(req, { cacheName: SHELL });
  if (hit) return hit;
  const res = await fetch(req);
  if (res.ok) {
    const copy = res.clone();
    caches.open(SHELL).then((c) => c.put(req, copy));
  }
  return res;
}

self.addEventListener("fetch", (e) => {
  const req = e.request;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin || req.method !== "GET") return;
  // Every page is the same index.html (the client routes it).
  if (req.mode === "navigate") return e.respondWith(networkFirst(req, SHELL, "/"));
  if (url.pathname.startsWith("/assets/")) return e.respondWith(cacheFirst(req));
  if (kept.test(url.pathname)) return e.respondWith(networkFirst(req, DATA, url.pathname + url.search));
});
