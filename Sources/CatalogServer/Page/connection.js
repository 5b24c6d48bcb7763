// Whether the server can be reached: a banner while it cannot, retries that back off, and what to do once it is back.

import { $ } from "./elements.js";
import { state } from "./state.js";

/** The first retry's wait; each next one waits twice as long, up to the last. */
const FIRST_RETRY_MS = 1000;
const LAST_RETRY_MS = 30000;
const listeners = [];
let retryTimer = null;
let retryMs = FIRST_RETRY_MS;
/** The reconnect actions, when a connection that came back too soon after the last ones must wait. */
let reconnectTimer = null;
/** When the reconnect actions last ran (performance.now()). */
let lastReconnect = -Infinity;

/** Runs `action` each time the server can be reached again after it could not. */
export function onReconnect(action) {
  listeners.push(action);
}

/**
 * Notes that a request reached the server. The reconnect actions reload the list, so a connection
 * that answers some requests and not others (a flaky proxy, a half-applied outage) would run them
 * in a loop: they run at most once per retry wait.
 */
export function markReachable() {
  if (state.reachable) return;
  state.reachable = true;
  clearTimeout(retryTimer);
  $("connection").hidden = true;
  document.body.classList.remove("offline");
  reconnectTimer = setTimeout(reconnect, Math.max(0, lastReconnect + retryMs - performance.now()));
}

function reconnect() {
  lastReconnect = performance.now();
  for (const action of listeners) action();
}

/** Notes that a request could not reach the server; shows the banner and starts retrying. */
export function markUnreachable() {
  if (!state.reachable) return;
  state.reachable = false;
  clearTimeout(reconnectTimer);
  describeOutage();
  $("connection").hidden = false;
  document.body.classList.add("offline");
  // The waits start again from 1 s only after a connection that held at least as long as the last of them.
  if (performance.now() - lastReconnect >= retryMs / 2) retryMs = FIRST_RETRY_MS;
  scheduleRetry();
}

/** The banner's words: what is on the page while the server is away, and what happens to changes. */
export function describeOutage() {
  const rows = $("rows").querySelectorAll("tr:not(.pending)").length;
  $("connection-text").textContent = rows > 0
    ? "The server cannot be reached. The list below is from before and may be out of date; it refreshes by itself when the server is back. Products you add or edit meanwhile are kept in this browser and sent then."
    : "The server cannot be reached, and this browser kept no list to show meanwhile; it appears by itself when the server is back. Products you add or edit meanwhile are kept in this browser and sent then.";
}

/** The next probe, after 1 s, 2 s, 4 s … up to 30 s: an outage costs a handful of requests, not a flood. */
function scheduleRetry() {
  clearTimeout(retryTimer);
  retryTimer = setTimeout(probe, retryMs);
  retryMs = Math.min(retryMs * 2, LAST_RETRY_MS);
}

/** Asks the server for the smallest answer it gives; reachable again on any HTTP answer. */
async function probe() {
  if (state.reachable) return;
  try {
    await fetch("/api/products?limit=1", { cache: "no-store" });
    markReachable();
  } catch {
    scheduleRetry();
  }
}

export function watchConnection() {
  window.addEventListener("online", probe);
  window.addEventListener("offline", markUnreachable);
  $("connection-retry").addEventListener("click", probe);
}
