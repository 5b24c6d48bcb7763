// Bulk actions: select rows (a click, shift-click for a range, or every match of the search up to
// a limit), then star, unstar, delete (with a few seconds to undo) or set a field on all of them,
// each as one request to POST /api/products/batch, which says what changed and what it refused.

import { $ } from "./elements.js";
import { counted, withDecimalPoint } from "./formats.js";
import { request } from "./api.js";
import { state } from "./state.js";
import { search, onNewSearch } from "./list.js";
import { showMessage } from "./messages.js";
import { loadFavorites } from "./favorites.js";

/** The most products one batch changes: the server's limit. */
const MAX_SELECTED = 1000;
/** How long a bulk delete can be undone before it is sent. */
const UNDO_MS = 6000;
const selected = state.selection;
let lastClicked = null;
let pendingDelete = null;

function rows() {
  return [...$("rows").querySelectorAll("tr:not(.pending)")];
}

function paint() {
  for (const row of rows()) {
    const box = row.querySelector(".select-box");
    if (box) box.checked = selected.has(row.dataset.productId);
  }
  $("bulk").hidden = selected.size === 0;
  $("bulk-count").textContent = `${counted(selected.size, "product")} selected`;
  const shown = rows().map((row) => row.dataset.productId);
  const all = $("select-shown");
  all.checked = shown.length > 0 && shown.every((id) => selected.has(id));
  all.indeterminate = !all.checked && shown.some((id) => selected.has(id));
}

function toggle(row, shift) {
  const ids = rows().map((candidate) => candidate.dataset.productId);
  const id = row.dataset.productId;
  const on = !selected.has(id);
  const range = shift && lastClicked !== null && ids.includes(lastClicked)
    ? ids.slice(Math.min(ids.indexOf(lastClicked), ids.indexOf(id)), Math.max(ids.indexOf(lastClicked), ids.indexOf(id)) + 1)
    : [id];
  for (const each of range) {
    if (on && selected.size < MAX_SELECTED) selected.add(each);
    if (!on) selected.delete(each);
  }
  lastClicked = id;
  paint();
}

/** Selects every match of the current search, up to MAX_SELECTED, read 100 at a time. */
async function selectAllMatches() {
  const params = new URLSearchParams({ q: state.list.query });
  if (state.list.sort !== "relevance") params.set("sort", state.list.sort);
  for (const [name, values] of Object.entries(state.list.filters)) for (const value of values) params.append(name, value);
  params.set("limit", "100");
  let cursor = null;
  try {
    do {
      if (cursor) params.set("after", cursor);
      const page = await request("/api/products?" + params);
      for (const product of page.products) if (selected.size < MAX_SELECTED) selected.add(product.productId);
      cursor = page.nextCursor;
    } while (cursor && selected.size < MAX_SELECTED);
  } catch (error) {
    showMessage(`Not every match could be selected: ${error.message}`, true);
  }
  paint();
  if (cursor) showMessage(`Selected the first ${MAX_SELECTED.toLocaleString("en-US")} matches: a bulk action changes at most that many at once.`);
}

/** Sends one batch and says what changed and what was refused. */
async function send(action, productIds, fields) {
  let answer;
  try {
    answer = await request("/api/products/batch", { method: "POST", json: { action, productIds, ...(fields ? { fields } : {}) } });
  } catch (error) {
    showMessage(`Nothing was changed: ${error.message}`, true);
    return null;
  }
  const verb = { star: "Starred", unstar: "Unstarred", delete: "Deleted", set: "Changed" }[action];
  const refused = answer.refused.map((entry) => `${entry.productId}: ${entry.message}`);
  showMessage(`${verb} ${counted(answer.changed, "product")}.` + (refused.length ? ` Refused ${refused.length}: ${refused.slice(0, 5).join("; ")}${refused.length > 5 ? "; …" : ""}` : ""),
    refused.length > 0 && answer.changed === 0);
  return answer;
}

async function act(action) {
  const ids = [...selected];
  if (action === "delete") return deleteWithUndo(ids);
  let fields = null;
  if (action === "set") {
    const field = $("bulk-field").value;
    const text = $("bulk-value").value.trim();
    fields = { [field]: field.endsWith("Price") ? withDecimalPoint(text) : text };
  }
  const answer = await send(action, ids, fields);
  if (!answer) return;
  if (action === "star" || action === "unstar") await loadFavorites();
  await search();
}

/** Hides the rows at once and sends the delete only after UNDO_MS, unless Undo is pressed. */
function deleteWithUndo(ids) {
  if (pendingDelete) finishDelete();
  const hidden = rows().filter((row) => ids.includes(row.dataset.productId));
  for (const row of hidden) row.hidden = true;
  selected.clear();
  paint();
  pendingDelete = { ids, hidden, timer: setTimeout(finishDelete, UNDO_MS) };
  $("undo-text").textContent = `${counted(ids.length, "product")} will be deleted.`;
  $("undo").hidden = false;
  $("undo-button").focus();
}

async function finishDelete() {
  const work = pendingDelete;
  if (!work) return;
  pendingDelete = null;
  clearTimeout(work.timer);
  $("undo").hidden = true;
  const answer = await send("delete", work.ids);
  if (!answer) for (const row of work.hidden) row.hidden = false;
  else await search();
}

function undoDelete() {
  const work = pendingDelete;
  if (!work) return;
  pendingDelete = null;
  clearTimeout(work.timer);
  for (const row of work.hidden) row.hidden = false;
  for (const id of work.ids) selected.add(id);
  $("undo").hidden = true;
  paint();
  showMessage(`Nothing was deleted: the ${counted(work.ids.length, "product")} stay.`);
}

export function wireBulk() {
  $("rows").addEventListener("click", (event) => {
    const box = event.target.closest(".select-box");
    if (!box) return;
    event.stopPropagation();
    // The box's own change is undone: toggle() decides, so that shift-click selects a range.
    box.checked = !box.checked;
    toggle(box.closest("tr"), event.shiftKey);
  }, true);
  $("select-shown").addEventListener("change", (event) => {
    for (const row of rows()) {
      if (event.target.checked && selected.size < MAX_SELECTED) selected.add(row.dataset.productId);
      if (!event.target.checked) selected.delete(row.dataset.productId);
    }
    paint();
  });
  $("bulk-all").addEventListener("click", selectAllMatches);
  $("bulk-clear").addEventListener("click", () => {
    selected.clear();
    paint();
  });
  for (const button of document.querySelectorAll("[data-bulk]")) button.addEventListener("click", () => act(button.dataset.bulk));
  $("bulk-form").addEventListener("submit", (event) => {
    event.preventDefault();
    act("set");
  });
  $("undo-button").addEventListener("click", undoDelete);
  // A new search keeps the selection (it may be built from several), but the box of "all shown" follows the rows.
  onNewSearch(() => queueMicrotask(paint));
  window.addEventListener("pagehide", () => { if (pendingDelete) finishDelete(); });
}
