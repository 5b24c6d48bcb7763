// The service worker: the page loads without the server after one visit, and products opened
// before open again. It keeps the page's own files (the list comes from the server, as SHELL)
// and the answers of GET /api/products/{id} and /api/favorites; it always asks the network first, so nothing is
// ever older than it must be, and marks what it answers from its cache with X-Served-From: cache.

const SHELL = self.SHELL_FILES ?? [];
const SHELL_CACHE = "catalog-shell-v1";
const PRODUCTS_CACHE = "catalog-products-v1";
/** At most this many products are kept; past it the oldest go. */
const KEPT_PRODUCTS = 500;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL_CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" || SHELL.includes(url.pathname)) {
    event.respondWith(networkFirst(request, SHELL_CACHE, { ignoreSearch: request.mode === "navigate", key: request.mode === "navigate" ? "/" : request }));
  } else if (url.pathname === "/api/schema") {
    event.respondWith(networkFirst(request, SHELL_CACHE));
  } else if (/^\/api\/products\/[^/]+(\/variants|\/stock)?$/.test(url.pathname) || url.pathname === "/api/favorites") {
    event.respondWith(networkFirst(request, PRODUCTS_CACHE, { trim: true }));
  }
});

/** The network's answer (kept for later when it is a success), or the kept one when the network fails. */
async function networkFirst(request, cacheName, { ignoreSearch = false, key = request, trim = false } = {}) {
  const cache = await caches.open(cacheName);
  try {
    const response = await fetch(request);
    if (response.ok) {
      await cache.put(key, response.clone());
      if (trim) await trimCache(cache);
    } else if (response.status === 404) {
      await cache.delete(key);
    }
    return response;
  } catch (error) {
    const kept = await cache.match(key, { ignoreSearch });
    if (!kept) throw error;
    const headers = new Headers(kept.headers);
    headers.set("X-Served-From", "cache");
    return new Response(await kept.blob(), { status: kept.status, statusText: kept.statusText, headers });
  }
}

async function trimCache(cache) {
  const keys = await cache.keys();
  for (const old of keys.slice(0, Math.max(0, keys.length - KEPT_PRODUCTS))) await cache.delete(old);
}
