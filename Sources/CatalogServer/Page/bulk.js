// Bulk actions: select rows (a click, shift-click for a range, or every match of the search up to
// a limit), then star, unstar, delete (with a few seconds to undo) or set a field on all of them
// (previewed first, with an Undo after), each as one request to POST /api/products/batch, which
// says what changed, what it refused, and what a set replaced. A family's row selects the whole
// family, every variant; a variant's row, opened under it, that variant alone (see selection.js).

import { $ } from "./elements.js";
import { counted, withDecimalPoint } from "./formats.js";
import { request } from "./api.js";
import { state } from "./state.js";
import { search, onNewSearch, showProducts } from "./list.js";
import { showMessage } from "./messages.js";
import { loadFavorites } from "./favorites.js";
import { labelOf } from "./fields.js";
import { MAX_CHOSEN, chosenFamilies, chosenProductIds, clearSelection, noteChosen } from "./selection.js";
/** How long a bulk delete can be undone before it is sent. */
const UNDO_MS = 6000;
/** How long a bulk set can be undone after it was sent: nothing waits on it, so longer. */
const UNDO_SET_MS = 10000;
const selected = state.selection;
let lastClicked = null;
let pendingDelete = null;
let undoSet = null;

function rows() {
  return [...$("rows").querySelectorAll("tr:not(.pending)")];
}

function paint() {
  for (const row of rows()) {
    const box = row.querySelector(".select-box");
    if (box) box.checked = selected.has(row.dataset.productId);
  }
  $("bulk").hidden = selected.size === 0;
  if (selected.size === 0) closeForms();
  $("bulk-count").textContent = selectionText();
  const shown = rows().map((row) => row.dataset.productId);
  const all = $("select-shown");
  all.checked = shown.length > 0 && shown.every((id) => selected.has(id));
  all.indeterminate = !all.checked && shown.some((id) => selected.has(id));
}

/** "3 products selected", or with families chosen from their rows, "3 selected: 2 families with all their variants". */
function selectionText() {
  const families = chosenFamilies().length;
  if (families === 0) return `${counted(selected.size, "product")} selected`;
  return `${selected.size} selected: ${counted(families, "family", "families")} with all their variants`;
}

function toggle(row, shift) {
  const all = rows();
  const ids = all.map((candidate) => candidate.dataset.productId);
  const id = row.dataset.productId;
  const on = !selected.has(id);
  const first = lastClicked === null ? -1 : all.indexOf(lastClicked);
  const range = shift && first >= 0
    ? all.slice(Math.min(first, all.indexOf(row)), Math.max(first, all.indexOf(row)) + 1)
    : [row];
  for (const each of range) {
    const eachId = each.dataset.productId;
    if (on && selected.size < MAX_CHOSEN) selected.add(eachId);
    if (!on) selected.delete(eachId);
    noteChosen(eachId, on && each.dataset.family === "true");
  }
  lastClicked = row;
  paint();
}

/** Selects `row` or takes it out of the selection, as a click on its box does; returns whether it is selected now. */
export function toggleSelection(row) {
  toggle(row, false);
  return selected.has(row.dataset.productId);
}

/** Selects every match of the current search, up to MAX_CHOSEN, read 100 at a time. */
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
      for (const product of page.products) {
        if (selected.size >= MAX_CHOSEN) break;
        selected.add(product.productId);
        // Listed for its family: the whole family is chosen, as its row would choose it.
        noteChosen(product.productId, Boolean(product.family));
      }
      cursor = page.nextCursor;
    } while (cursor && selected.size < MAX_CHOSEN);
  } catch (error) {
    showMessage(`Not every match could be selected: ${error.message}`, true);
  }
  paint();
  if (cursor) showMessage(`Selected the first ${MAX_CHOSEN.toLocaleString("en-US")} matches: a bulk action changes at most that many at once.`);
}

/** "Sale price: the sale price (50.00) is above the list price": a refusal in the page's words. */
function refusalText(entry) {
  const fields = Object.entries(entry.fields || {});
  if (fields.length === 0) return `${entry.productId}: ${entry.message}`;
  return `${entry.productId}: ` + fields.map(([name, text]) => `${labelOf(name)}: ${text}`).join("; ");
}

/** Sends one batch; its answer, or null when nothing was changed (an error, said). */
async function post(action, productIds, fields) {
  try {
    return await request("/api/products/batch", { method: "POST", json: { action, productIds, ...(fields ? { fields } : {}) } });
  } catch (error) {
    showMessage(`Nothing was changed: ${error.message}`, true);
    return null;
  }
}

/**
 * Says what a batch changed and what it refused: a refusal is a warning that names the fields by
 * their labels and offers to list the refused products alone, selected, to fix them.
 */
function report(verb, answer) {
  const refused = answer.refused;
  if (refused.length === 0) {
    showMessage(`${verb} ${counted(answer.changed, "product")}.`);
    return;
  }
  const listed = refused.slice(0, 3).map(refusalText).join(" · ") + (refused.length > 3 ? " · …" : "");
  const ids = refused.map((entry) => entry.productId);
  showMessage(`${verb} ${counted(answer.changed, "product")}. ${counted(refused.length, "was", "were")} left as ${refused.length === 1 ? "it was" : "they were"}: ${listed}`,
    answer.changed === 0, {
      warning: true,
      action: {
        label: `Show the ${counted(refused.length, "refused product")}`,
        run: () => {
          selectOnly(ids);
          showProducts(ids, `The ${counted(ids.length, "product")} the bulk edit left as ${ids.length === 1 ? "it was" : "they were"}, selected. Search again for the rest.`);
        },
      },
    });
}

/** Sends one batch and says what it did. */
async function send(action, productIds, fields) {
  const answer = await post(action, productIds, fields);
  if (answer) report({ star: "Starred", unstar: "Unstarred", delete: "Deleted", set: "Changed" }[action], answer);
  return answer;
}

/** Makes `ids` the selection, the rest unselected. */
function selectOnly(ids) {
  clearSelection();
  for (const id of ids.slice(0, MAX_CHOSEN)) selected.add(id);
  paint();
}

/** The productIds the action acts on: families chosen from their rows bring every variant; null, said, when they cannot be read. */
async function chosen() {
  try {
    const { ids, truncated } = await chosenProductIds(MAX_CHOSEN);
    if (truncated) showMessage(`The families chosen hold more than ${counted(MAX_CHOSEN, "product")}: this acts on the first ${MAX_CHOSEN}.`, true);
    return ids;
  } catch (error) {
    showMessage(`The variants of the families chosen could not be read: ${error.message}`, true);
    return null;
  }
}

async function act(action) {
  const ids = await chosen();
  if (!ids) return;
  if (action === "delete") return deleteWithUndo(ids);
  const answer = await send(action, ids, null);
  if (!answer) return;
  if (action === "star" || action === "unstar") await loadFavorites();
  await search();
}

/** The field and text the Set form names, the text as the server reads a price. */
function setChange() {
  const field = $("bulk-field").value;
  const text = $("bulk-value").value.trim();
  return { field, text: field.endsWith("Price") ? withDecimalPoint(text) : text };
}

/** Shows what the Set form would do before anything is sent: "8 products: Color → Navy". */
function previewSet() {
  const { field, text } = setChange();
  const label = labelOf(field);
  const families = chosenFamilies().length;
  const what = families === 0 ? counted(selected.size, "product") : `${selected.size} selected (${counted(families, "family", "families")} with all their variants)`;
  $("bulk-preview-text").textContent = `${what}: ${label} → ${text === "" ? "(cleared)" : `“${text}”`}`;
  $("bulk-apply").textContent = families === 0 ? `Apply to ${counted(selected.size, "product")}` : "Apply";
  $("bulk-form").hidden = true;
  $("bulk-preview").hidden = false;
  $("bulk-apply").focus();
}

/** Sends the previewed set, then offers to undo it: what it replaced is set again, one batch per old value. */
async function applySet() {
  const { field, text } = setChange();
  const ids = await chosen();
  closeForms();
  if (!ids) return;
  const answer = await send("set", ids, { [field]: text });
  if (!answer) return;
  await search();
  const groups = new Map();
  for (const entry of answer.replaced || []) {
    const key = JSON.stringify(entry.fields);
    if (!groups.has(key)) groups.set(key, { fields: entry.fields, ids: [] });
    groups.get(key).ids.push(entry.productId);
  }
  if (groups.size === 0) return;
  const label = labelOf(field);
  offerUndo(`${label} set on ${counted(answer.changed, "product")}.`, async () => {
    const restored = { changed: 0, refused: [] };
    for (const group of groups.values()) {
      const part = await post("set", group.ids, group.fields);
      if (!part) {
        // The error is said; what was restored before it is in the list.
        await search();
        return;
      }
      restored.changed += part.changed;
      restored.refused.push(...part.refused);
    }
    report(`Restored the ${label.toLowerCase()} of`, restored);
    await search();
  }, () => {}, UNDO_SET_MS);
}

/** The Undo bar: `undo` runs when it is pressed; after `ms` the bar goes and `expire` runs. */
function offerUndo(text, undo, expire = () => {}, ms = UNDO_MS) {
  // An Undo still offered ends as its time would have ended it: a waiting delete is sent.
  const before = undoSet;
  clearUndo();
  if (before) before.expire();
  $("undo-text").textContent = text;
  $("undo").hidden = false;
  undoSet = { undo, expire, timer: setTimeout(() => { clearUndo(); expire(); }, ms) };
}

function clearUndo() {
  if (!undoSet) return;
  clearTimeout(undoSet.timer);
  undoSet = null;
  $("undo").hidden = true;
}

/** Hides the rows at once and sends the delete only after UNDO_MS, unless Undo is pressed. */
function deleteWithUndo(ids) {
  if (pendingDelete) finishDelete();
  const hidden = rows().filter((row) => ids.includes(row.dataset.productId));
  for (const row of hidden) row.hidden = true;
  clearSelection();
  paint();
  pendingDelete = { ids, hidden };
  offerUndo(`${counted(ids.length, "product")} will be deleted.`, undoDelete, finishDelete);
  $("undo-button").focus();
}

async function finishDelete() {
  const work = pendingDelete;
  if (!work) return;
  pendingDelete = null;
  clearUndo();
  const answer = await send("delete", work.ids);
  if (!answer) for (const row of work.hidden) row.hidden = false;
  else await search();
}

function undoDelete() {
  const work = pendingDelete;
  if (!work) return;
  pendingDelete = null;
  for (const row of work.hidden) row.hidden = false;
  for (const id of work.ids) selected.add(id);
  paint();
  showMessage(`Nothing was deleted: the ${counted(work.ids.length, "product")} stay.`);
}

/** Folds the Set and collection forms and the preview: the bar shows its buttons only. */
function closeForms() {
  for (const id of ["bulk-form", "bulk-preview", "bulk-collection-form"]) $(id).hidden = true;
  $("bulk-set-open").setAttribute("aria-expanded", "false");
  $("bulk-collection-open").setAttribute("aria-expanded", "false");
}

/** Opens the form `formId` from its button (or folds it when open). */
function toggleForm(button, formId, focusId) {
  const open = button.getAttribute("aria-expanded") !== "true";
  closeForms();
  if (!open) return;
  button.setAttribute("aria-expanded", "true");
  $(formId).hidden = false;
  $(focusId).focus();
}

export function wireBulk() {
  $("rows").addEventListener("click", (event) => {
    // The whole cell around the box selects (a target large enough for a finger), never opening the product.
    const target = event.target.closest(".select-cell");
    if (!target) return;
    event.stopPropagation();
    // The box's own change is undone: toggle() decides, so that shift-click selects a range.
    const box = target.querySelector(".select-box");
    if (event.target === box) box.checked = !box.checked;
    toggle(target.closest("tr"), event.shiftKey);
  }, true);
  $("select-shown").addEventListener("change", (event) => {
    for (const row of rows()) {
      if (event.target.checked && selected.size < MAX_CHOSEN) selected.add(row.dataset.productId);
      if (!event.target.checked) selected.delete(row.dataset.productId);
      noteChosen(row.dataset.productId, event.target.checked && row.dataset.family === "true");
    }
    paint();
  });
  $("bulk-all").addEventListener("click", selectAllMatches);
  $("bulk-clear").addEventListener("click", () => {
    clearSelection();
    paint();
  });
  for (const button of document.querySelectorAll("[data-bulk]")) button.addEventListener("click", () => act(button.dataset.bulk));
  $("bulk-set-open").addEventListener("click", () => toggleForm($("bulk-set-open"), "bulk-form", "bulk-field"));
  $("bulk-collection-open").addEventListener("click", () => toggleForm($("bulk-collection-open"), "bulk-collection-form", "bulk-collection"));
  $("bulk-form").addEventListener("submit", (event) => {
    event.preventDefault();
    previewSet();
  });
  $("bulk-apply").addEventListener("click", applySet);
  $("bulk-preview-back").addEventListener("click", () => {
    $("bulk-preview").hidden = true;
    $("bulk-form").hidden = false;
    $("bulk-value").focus();
  });
  $("undo-button").addEventListener("click", () => {
    const work = undoSet;
    clearUndo();
    if (work) work.undo();
  });
  // A new search keeps the selection (it may be built from several), but the box of "all shown" follows the rows.
  onNewSearch(() => queueMicrotask(paint));
  window.addEventListener("pagehide", () => { if (pendingDelete) finishDelete(); });
}
