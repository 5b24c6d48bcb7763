// Whether the server can be reached: a banner while it cannot, a retry, and what to do once it is back.

import { $ } from "./dom.js";
import { state } from "./state.js";

const RETRY_MS = 4000;
const listeners = [];
let retryTimer = null;

/** Runs `action` each time the server can be reached again after it could not. */
export function onReconnect(action) {
  listeners.push(action);
}

/** Notes that a request reached the server. */
export function markReachable() {
  if (state.reachable) return;
  state.reachable = true;
  clearTimeout(retryTimer);
  $("connection").hidden = true;
  document.body.classList.remove("offline");
  for (const action of listeners) action();
}

/** Notes that a request could not reach the server; shows the banner and starts retrying. */
export function markUnreachable() {
  if (!state.reachable) return;
  state.reachable = false;
  $("connection").hidden = false;
  document.body.classList.add("offline");
  scheduleRetry();
}

function scheduleRetry() {
  clearTimeout(retryTimer);
  retryTimer = setTimeout(probe, RETRY_MS);
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
