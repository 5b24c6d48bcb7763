// Changes made while the server could not be reached: kept in IndexedDB, shown with a count, sent when it is back.
//
// Each waiting change is { key, kind: "add" | "edit" | "star", productId (the edited or starred product's id,
// null for an add), body (the form's fields; for a star, { starred }), image (a picked image, or null), queuedAt,
// problem (null, or why the server refused it) }. Waiting adds and edits are shown at the top of the list. A change the server
// refuses (the productId was taken meanwhile, a field is no longer valid) stays, with its problem, until
// the user edits and sends it again or discards it: nothing is dropped without the user saying so.

import { $ } from "./elements.js";
import { counted } from "./formats.js";
import { request, productPath, ApiError, Unreachable } from "./api.js";
import { state } from "./state.js";
import { showMessage } from "./messages.js";
import { showPending } from "./list.js";

const DATABASE = "product-catalog";
const STORE = "outbox";
let database = null;
let sending = false;
let resolveChange = null;

/** Opens the browser's database; the page works without it, but cannot keep changes offline. */
function open() {
  if (database) return Promise.resolve(database);
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open(DATABASE, 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore(STORE, { keyPath: "key", autoIncrement: true });
    opening.onsuccess = () => {
      database = opening.result;
      resolve(database);
    };
    opening.onerror = () => reject(opening.error || new Error("IndexedDB is not available"));
  });
}

function transact(mode, work) {
  return open().then((db) => new Promise((resolve, reject) => {
    const transaction = db.transaction(STORE, mode);
    const result = work(transaction.objectStore(STORE));
    transaction.oncomplete = () => resolve(result.result);
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error || new Error("the browser refused to store the change"));
  }));
}

/** Keeps `change` (replacing the waiting change `key`, when given) and shows it as waiting. */
export async function queueChange(change, key = null) {
  const entry = { ...change, queuedAt: new Date().toISOString(), problem: null };
  if (key !== null) entry.key = key;
  await transact("readwrite", (store) => store.put(entry));
  await refreshOutbox();
}

export async function removeQueued(key) {
  await transact("readwrite", (store) => store.delete(key));
  await refreshOutbox();
}

async function update(entry) {
  await transact("readwrite", (store) => store.put(entry));
}

/** Reads the waiting changes and shows their count (and the panel, when open). */
export async function refreshOutbox() {
  try {
    state.outbox = await transact("readonly", (store) => store.getAll());
  } catch {
    state.outbox = [];
  }
  const waiting = state.outbox.filter((entry) => !entry.problem).length;
  const problems = state.outbox.length - waiting;
  const parts = [];
  if (waiting) parts.push(`${counted(waiting, "change")} waiting to be sent`);
  if (problems) parts.push(`${counted(problems, "change")} the server refused: review ${problems === 1 ? "it" : "them"}`);
  $("outbox").hidden = state.outbox.length === 0;
  $("outbox").classList.toggle("has-problems", problems > 0);
  $("outbox-text").textContent = parts.join("; ") + ".";
  renderPanel();
  showPending();
}

/** Sends the waiting changes in the order they were made; stops at the first that cannot reach the server. */
export async function sendWaiting() {
  if (sending || !state.reachable) return;
  sending = true;
  let sent = 0;
  try {
    await refreshOutbox();
    for (const entry of state.outbox) {
      if (entry.problem) continue;
      try {
        if (entry.kind === "star") {
          await request("/api/favorites/" + encodeURIComponent(entry.productId), { method: entry.body.starred ? "PUT" : "DELETE" });
          await transact("readwrite", (store) => store.delete(entry.key));
          sent += 1;
          continue;
        }
        const saved = await request(entry.kind === "add" ? "/api/products" : productPath(entry.productId), {
          method: entry.kind === "add" ? "POST" : "PUT",
          json: entry.body,
        });
        if (entry.image) {
          await request(productPath(saved.productId) + "/image", { method: "PUT", body: entry.image, contentType: entry.image.type });
        }
        await transact("readwrite", (store) => store.delete(entry.key));
        sent += 1;
      } catch (error) {
        if (error instanceof Unreachable) break;
        entry.problem = problemOf(error, entry);
        // The edited product is gone: sending the change again means adding it.
        if (error instanceof ApiError && error.status === 404 && entry.kind === "edit") {
          entry.kind = "add";
          entry.productId = null;
        }
        await update(entry);
      }
    }
  } finally {
    sending = false;
    await refreshOutbox();
  }
  if (sent > 0) showMessage(`Sent ${counted(sent, "change")} made while the server could not be reached.`);
  return sent;
}

function problemOf(error, entry) {
  const id = entry.body.productId || entry.productId;
  if (error instanceof ApiError && error.status === 409 && error.fields && error.fields.productId) {
    return `While this change waited, productId ${id} was taken by another product. Choose another productId, or discard this change.`;
  }
  if (error instanceof ApiError && error.status === 404) {
    return `While this change waited, ${entry.productId} was deleted or replaced by an import. Save to add it again, or discard this change.`;
  }
  const fields = error.fields ? Object.entries(error.fields).map(([name, text]) => `${name}: ${text}`) : [];
  return [error.message, ...fields].join(" ");
}

function renderPanel() {
  const list = $("outbox-list");
  list.replaceChildren();
  for (const entry of state.outbox) {
    const item = document.createElement("li");
    const what = document.createElement("p");
    const id = entry.body.productId || entry.productId;
    const verb = entry.kind === "star" ? (entry.body.starred ? "Star" : "Unstar") : entry.kind === "add" ? "Add" : "Edit";
    what.textContent = `${verb} ${id}${entry.body.title ? ` “${entry.body.title}”` : ""}: ` +
      (entry.problem ? "refused by the server." : "waiting to be sent.");
    item.append(what);
    if (entry.problem) {
      const problem = document.createElement("p");
      problem.className = "field-error";
      problem.textContent = entry.problem;
      item.append(problem);
    }
    const actions = document.createElement("div");
    actions.className = "row-actions";
    if (entry.kind !== "star") actions.append(actionButton("Edit", "resolve", entry.key));
    actions.append(actionButton("Discard", "discard", entry.key, "quiet"));
    item.append(actions);
    list.append(item);
  }
}

function actionButton(text, action, key, className = "") {
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = text;
  button.dataset.action = action;
  button.dataset.key = String(key);
  if (className) button.className = className;
  return button;
}

/** `open(entry, opener)` opens the editor on a waiting change (editor.js registers it, so the two do not import each other). */
export function onResolve(open) {
  resolveChange = open;
}

export function wireOutbox() {
  $("outbox-review").addEventListener("click", () => {
    const panel = $("outbox-panel");
    panel.hidden = !panel.hidden;
    $("outbox-review").setAttribute("aria-expanded", String(!panel.hidden));
    if (!panel.hidden) panel.querySelector("button")?.focus();
  });
  $("outbox-send").addEventListener("click", () => sendWaiting());
  $("outbox-list").addEventListener("click", async (event) => {
    const button = event.target.closest("button[data-action]");
    if (!button) return;
    const entry = state.outbox.find((candidate) => String(candidate.key) === button.dataset.key);
    if (!entry) return;
    if (button.dataset.action === "discard") {
      await removeQueued(entry.key);
      showMessage(`Discarded the change to ${entry.body.productId || entry.productId}.`);
      $("outbox-review").focus();
    } else if (resolveChange) {
      resolveChange(entry, button);
    }
  });
}
