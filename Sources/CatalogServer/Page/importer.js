// Import on the page: choose a file, see how it will be read, choose replace or upsert (of the
// products, of the stock by store for a local inventory file, or of the collections a collection
// file names), then follow it live.

import { $ } from "./elements.js";
import { counted, numberFormat, formatSeconds, formatBytes } from "./formats.js";
import { request, upload, ApiError, Unreachable } from "./api.js";
import { labelOf } from "./fields.js";
import { search } from "./list.js";
import { loadFavorites } from "./favorites.js";
import { loadCollections } from "./collections.js";
import { state } from "./state.js";

const PREVIEW_BYTES = 1024 * 1024;
let events = null;
let previewed = null;

function toggleImportPanel(show) {
  $("import-panel").hidden = !show;
  $("import-button").setAttribute("aria-expanded", String(show));
  if (show) $("import-file").focus();
  else $("import-button").focus();
}

function mode() {
  return document.querySelector('input[name="import-mode"]:checked').value;
}

function setError(text) {
  $("import-error").textContent = text;
}

/** Shows how the chosen file will be read: the server previews its first megabyte. */
async function previewChosenFile() {
  const file = $("import-file").files[0];
  previewed = null;
  setError("");
  $("import-preview").hidden = true;
  $("import-confirm").hidden = true;
  if (!file) return;
  if (file.size === 0) {
    setError(`${file.name} is empty: there is nothing to import. Choose the CSV file your shop exported.`);
    return;
  }
  $("import-preview-text").textContent = `Reading the start of ${file.name}…`;
  $("import-preview").hidden = false;
  try {
    const preview = await request("/api/imports/preview", { method: "POST", body: file.slice(0, PREVIEW_BYTES), contentType: "text/csv" });
    if ($("import-file").files[0] !== file) return;
    previewed = { file, preview };
    showPreview(file, preview);
    await showConfirmation();
  } catch (error) {
    $("import-preview").hidden = true;
    setError(error instanceof Unreachable
      ? "The server cannot be reached, so the file cannot be read now. Try again when the connection is back."
      : `${file.name} cannot be imported. ${error.message}`);
  }
}

function showPreview(file, preview) {
  // A local inventory file: the stock modes are offered (and chosen), and the product ones only when it also reads as products.
  // So is a collection file (collection,productId rows): putting its products into collections is chosen.
  const stock = preview.stock;
  const collections = preview.collections === true;
  for (const label of document.querySelectorAll(".stock-mode")) label.hidden = !stock;
  for (const label of document.querySelectorAll(".collections-mode")) label.hidden = !collections;
  for (const label of document.querySelectorAll(".product-mode")) label.hidden = Boolean(preview.productsError);
  const chosen = stock ? "stock-replace" : collections ? "collections-upsert" : "replace";
  document.querySelector(`input[name="import-mode"][value="${chosen}"]`).checked = true;
  const stockText = (stock ? `${file.name} is a local inventory file (${stock.formatName}): it can set each product's quantity at each store. ` : "") +
    (collections ? `${file.name} is a collection file: it can put products into collections by name. ` : "");
  $("import-mapping").closest(".table-scroll").hidden = Boolean(preview.productsError);
  if (preview.productsError) {
    $("import-preview-text").textContent = stockText + "It does not read as a product file.";
    $("import-extra").textContent = "";
    return;
  }
  const rejects = preview.rejects.length;
  $("import-preview-text").textContent = stockText +
    `${file.name}: ${preview.formatName}, ${delimiterName(preview.delimiter)}, ${preview.encoding === "utf8" ? "UTF-8" : preview.encoding}. ` +
    `Key: ${preview.key}. ` +
    (rejects === 0 ? `The first ${counted(preview.products.length, "product")} read cleanly.` : `${counted(rejects, "row")} of the start would be rejected, for example line ${preview.rejects[0].line}: ${preview.rejects[0].reason}`);
  const body = $("import-mapping");
  body.replaceChildren();
  for (const [field, source] of Object.entries(preview.fields)) {
    const row = document.createElement("tr");
    const label = labelOf(field);
    for (const text of [label, source, preview.products[0] ? String(preview.products[0][field] ?? "—") : "—"]) {
      const cell = document.createElement("td");
      // A long value (a description) shows its start: the table stays short enough to reach the buttons below it.
      cell.textContent = text.length > PREVIEW_CHARACTERS ? text.slice(0, PREVIEW_CHARACTERS).trimEnd() + "…" : text;
      if (text.length > PREVIEW_CHARACTERS) cell.title = text;
      row.append(cell);
    }
    body.append(row);
  }
  $("import-extra").textContent = preview.extraColumns.length === 0 ? "" :
    `Also kept: ${preview.extraColumns.slice(0, 12).join(", ")}${preview.extraColumns.length > 12 ? ` and ${preview.extraColumns.length - 12} more` : ""}.`;
}

function delimiterName(delimiter) {
  return { ",": "comma-separated", "\t": "tab-separated", ";": "semicolon-separated", "|": "pipe-separated" }[delimiter] || `separated by “${delimiter}”`;
}

/** Says what the chosen mode will do, warning before a replace that would undo changes made here. */
async function showConfirmation() {
  if (!previewed) return;
  $("import-warning").hidden = true;
  $("import-confirm").hidden = false;
  if (mode().startsWith("collections-")) {
    const replacing = mode() === "collections-replace";
    $("import-start").textContent = replacing ? "Replace those collections' products" : "Put into collections";
    $("import-mode-text").textContent = replacing
      ? "Each collection the file names holds exactly the file's products for it; other collections and the products stay as they are."
      : "Each product goes into the collection its row names, made when it is new; nothing is taken out.";
    return;
  }
  if (mode().startsWith("stock-")) {
    const replacing = mode() === "stock-replace";
    $("import-start").textContent = replacing ? "Replace the stock" : "Update the stock";
    $("import-mode-text").textContent = replacing
      ? "The file becomes the stock by store: each product's quantity at each store it names; the products stay as they are."
      : "The quantities of the products and stores the file names are set; the others stay as they are.";
    return;
  }
  const replace = mode() === "replace";
  $("import-start").textContent = replace ? "Replace the catalog" : "Add and update";
  $("import-warning").hidden = true;
  $("import-confirm").hidden = false;
  if (!replace) {
    $("import-mode-text").textContent = "Products in the file are added, or updated where the productId exists; the others stay as they are.";
    return;
  }
  $("import-mode-text").textContent = "The file becomes the catalog: products not in it are removed.";
  try {
    const summary = await request("/api/catalog");
    if (mode() !== "replace") return;
    const edits = summary.handEditsSinceImport;
    if (edits > 0) {
      $("import-warning").textContent =
        `${counted(edits, "product")} added, edited or deleted on this page since the last import will be undone: ` +
        "the catalog becomes exactly the file. Choose “Add and update” to keep them.";
      $("import-warning").hidden = false;
    }
  } catch {
    // Without the count the plain description above still holds.
  }
}

async function startImport(event) {
  event.preventDefault();
  const file = $("import-file").files[0];
  setError("");
  if (!file) {
    setError("Choose a CSV file first.");
    $("import-file").focus();
    return;
  }
  if (!previewed || previewed.file !== file) {
    await previewChosenFile();
    return;
  }
  resetImportStatus();
  // The stars before a replace: those on products the file does not hold go with them, and the summary says so.
  starsBefore = new Set(state.favorites.keys());
  $("import-start").disabled = true;
  if (mode().startsWith("collections-")) return importCollections(file, mode().slice("collections-".length));
  try {
    // The upload's own progress, in bytes; the import's phases follow on the same bar from 0.
    importingStock = mode().startsWith("stock-");
    const path = importingStock ? `/api/imports?kind=stock&mode=${mode().slice("stock-".length)}` : `/api/imports?mode=${mode()}`;
    const record = await upload(path, file, "text/csv", (sent, total) => {
      const percent = Math.floor((sent / total) * 100);
      $("import-progress").value = percent;
      $("import-phase").textContent = `Uploading ${file.name}: ${formatBytes(sent)} of ${formatBytes(total)} (${percent}%)`;
    });
    $("import-progress").value = 0;
    followImport(record.id);
  } catch (error) {
    importFailed(error instanceof ApiError ? error.message : "The upload failed: the server cannot be reached. The catalog was not changed.");
  }
}

/** Sends a collection file in one request, which answers when its products are in their collections. */
async function importCollections(file, collectionsMode) {
  $("import-phase").textContent = `Putting the products of ${file.name} into collections…`;
  let summary;
  try {
    summary = await request(`/api/collections/import?mode=${collectionsMode}`, { method: "POST", body: file, contentType: "text/csv" });
  } catch (error) {
    $("import-start").disabled = false;
    $("import-phase").textContent = "The collections were not changed.";
    setError(error instanceof ApiError ? error.message : "The server cannot be reached; the collections were not changed.");
    return;
  }
  $("import-progress").value = 100;
  $("import-phase").textContent = "Done: 100%";
  $("import-rows").textContent = numberFormat.format(summary.rowsRead);
  $("import-rejected").textContent = numberFormat.format(summary.rowsRejected);
  $("import-eta").textContent = "done";
  const rejected = summary.firstRejects.length ? ` For example, line ${summary.firstRejects[0].line}: ${summary.firstRejects[0].reason}.` : "";
  $("import-summary").textContent =
    `Put ${counted(summary.added, "product")} into ${counted(summary.collections, "collection")} (${numberFormat.format(summary.collectionsCreated)} new)` +
    `${summary.removed ? `, after taking ${numberFormat.format(summary.removed)} out` : ""}; ${numberFormat.format(summary.alreadyThere)} already there, ` +
    `${numberFormat.format(summary.rowsRejected)} rejected.${rejected}`;
  $("import-start").disabled = false;
  previewed = null;
  $("import-confirm").hidden = true;
  $("import-preview").hidden = true;
  await loadCollections();
}

function resetImportStatus() {
  $("import-status").hidden = false;
  $("import-phase").textContent = "Uploading…";
  $("import-progress").value = 0;
  $("import-rows").textContent = "0";
  $("import-rate").textContent = "–";
  $("import-eta").textContent = "–";
  $("import-rejected").textContent = "0";
  $("import-summary").textContent = "";
  $("import-rejects").hidden = true;
}

/** Listens to the import's Server-Sent Events until it finishes or fails. */
function followImport(id) {
  if (events) events.close();
  const source = new EventSource(`/api/imports/${id}/events`);
  events = source;
  source.addEventListener("progress", (event) => showImportProgress(JSON.parse(event.data)));
  source.addEventListener("finished", (event) => {
    source.close();
    importFinished(id, JSON.parse(event.data));
  });
  source.addEventListener("failed", (event) => {
    source.close();
    importFailed(JSON.parse(event.data).message, id);
  });
  source.onerror = () => {
    if (source.readyState === EventSource.CONNECTING) {
      $("import-phase").textContent = "Connection lost; reconnecting…";
    } else {
      importFailed("Lost the connection to the server; reload the page to see how the import ended.");
    }
  };
}

/** The most characters of one value the import's preview shows. */
const PREVIEW_CHARACTERS = 120;

const PHASES = {
  loading: "Reading and checking rows",
  writing: "Writing the new catalog",
  finishing: "Swapping in the new catalog",
};
/** A stock import's phases: it writes into the live catalog, in one transaction. */
const STOCK_PHASES = {
  loading: "Reading and checking rows",
  writing: "Writing the stock by store",
  finishing: "Counting the stores",
};
/** True while the import followed is a stock import. */
let importingStock = false;
/** The starred productIds when the import started. */
let starsBefore = new Set();

/** How far the phase itself is, in its own units: the file's bytes read, then the rows written. */
function phaseProgress(progress) {
  if (progress.phase === "loading" && progress.totalBytes) {
    return `${Math.floor((progress.bytesRead / progress.totalBytes) * 100)}% of the file · `;
  }
  const toWrite = progress.rowsRead - progress.rowsRejected - progress.duplicates;
  if (progress.phase === "writing" && toWrite > 0) {
    return `${numberFormat.format(Math.min(progress.rowsInserted, toWrite))} of ${counted(toWrite, "row")} · `;
  }
  return "";
}

/**
 * The bar and time left are the server's numbers for the whole import; the rate is the phase's.
 * Rows counts the rows read, which only grows: the writing phase shows its progress on the bar.
 */
function showImportProgress(progress) {
  const fraction = progress.fractionCompleted ?? 0;
  $("import-progress").value = Math.min(99, Math.floor(fraction * 100));
  $("import-phase").textContent = `${(importingStock ? STOCK_PHASES : PHASES)[progress.phase] || progress.phase}: ${phaseProgress(progress)}` +
    `${Math.floor(fraction * 100)}% of the import`;
  $("import-rows").textContent = numberFormat.format(progress.rowsRead);
  // Swapping in has no rows to count: its rate would read 0, and its last second is "finishing".
  $("import-rate").textContent = progress.phase === "finishing" ? "–" : numberFormat.format(Math.round(progress.rowsPerSecond));
  $("import-eta").textContent = progress.etaSeconds === null ? "–"
    : progress.etaSeconds < 1 ? "finishing…" : formatSeconds(progress.etaSeconds);
  $("import-rejected").textContent = numberFormat.format(progress.rowsRejected);
}

function importFinished(id, summary) {
  $("import-progress").value = 100;
  $("import-phase").textContent = "Done: 100%";
  $("import-rows").textContent = numberFormat.format(summary.rowsRead);
  $("import-rate").textContent = numberFormat.format(summary.seconds > 0 ? Math.round(summary.rowsRead / summary.seconds) : summary.rowsRead);
  $("import-eta").textContent = "done";
  $("import-rejected").textContent = numberFormat.format(summary.rowsRejected);
  const rejected = `${numberFormat.format(summary.rowsRejected)} rejected` +
    (summary.unknownProducts ? ` (${numberFormat.format(summary.unknownProducts)} naming a product the catalog does not hold)` : "");
  const parts = [`${numberFormat.format(summary.rowsRead)} rows read`, rejected,
    `${numberFormat.format(summary.duplicates)} ${summary.duplicates === 1 ? "duplicate" : "duplicates"} collapsed`];
  // A stock import's summary says what the stock holds now; a product import's, the products written.
  $("import-summary").textContent = "stockRows" in summary
    ? `Imported the stock in ${formatSeconds(summary.seconds)}: ${parts.join(", ")}. The catalog holds ${counted(summary.stockRows, "product–store quantity", "product–store quantities")}; ${counted(summary.stores, "store has", "stores have")} products in stock.`
    : `Imported ${numberFormat.format(summary.rowsInserted)} products in ${formatSeconds(summary.seconds)}: ${parts.join(", ")}.` +
      (summary.editsReplaced > 0
        ? ` The catalog is now the file: ${counted(summary.editsReplaced, "change")} made on this page since the last import (adds, edits and deletes) ${summary.editsReplaced === 1 ? "was" : "were"} undone.`
        : "");
  showRejectsLink(id, summary.rowsRejected > 0);
  $("import-start").disabled = false;
  previewed = null;
  $("import-confirm").hidden = true;
  $("import-preview").hidden = true;
  loadFavorites().then(() => {
    const lost = [...starsBefore].filter((productId) => !state.favorites.has(productId));
    if (lost.length > 0 && !("stockRows" in summary)) {
      $("import-summary").textContent += ` ${counted(lost.length, "star")} went with ${lost.length === 1 ? "its product" : "their products"}, which the file does not hold (${lost.slice(0, 3).join(", ")}${lost.length > 3 ? ", …" : ""}).`;
    }
    search();
  });
}

function showRejectsLink(id, shown) {
  $("import-rejects-link").href = `/api/imports/${id}/rejects`;
  $("import-rejects").hidden = !shown;
}

async function importFailed(message, id = null) {
  $("import-phase").textContent = importingStock ? "The import stopped; the stock was not changed." : "The import stopped; the catalog was not changed.";
  setError(message);
  $("import-start").disabled = false;
  if (id === null) return;
  try {
    const record = await request(`/api/imports/${id}`);
    showRejectsLink(id, record.rejectsURL !== null);
  } catch {
    // The message stands without the link.
  }
}

export function wireImport() {
  $("import-button").addEventListener("click", () => toggleImportPanel($("import-panel").hidden));
  $("import-close").addEventListener("click", () => toggleImportPanel(false));
  $("import-panel").addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      event.preventDefault();
      toggleImportPanel(false);
    }
  });
  $("import-file").addEventListener("change", previewChosenFile);
  for (const radio of document.querySelectorAll('input[name="import-mode"]')) radio.addEventListener("change", showConfirmation);
  $("import-form").addEventListener("submit", startImport);
}
