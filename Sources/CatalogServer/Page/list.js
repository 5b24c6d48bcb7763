// The list: search as you type, 20 products a page, more as you scroll; starred products first.

import { $, thumbnail, hiddenText } from "./elements.js";
import { counted, familyPhrase, formatPrice, numberFormat, optionPairs, thousandths } from "./formats.js";
import { request, productPath, Unreachable } from "./api.js";
import { state, isUnfiltered } from "./state.js";
import { showMessage, hideMessage } from "./messages.js";
import { recordSearch } from "./address.js";
import { isShown, noteExtras, shownExtras } from "./columns.js";

const PAGE_SIZE = 20;
const listeners = [];
const firstPageListeners = [];

/** Runs `action(params)` each time a new search starts, with its query parameters (facets follow it). */
export function onNewSearch(action) {
  listeners.push(action);
}

/** Runs `action(count)` each time the first page of a search is shown, with its count of matches. */
export function onFirstPage(action) {
  firstPageListeners.push(action);
}

/** The query string of the current search, without paging. */
function searchParams() {
  const params = new URLSearchParams({ q: state.list.query });
  if (state.list.sort !== "relevance") params.set("sort", state.list.sort);
  for (const [name, values] of Object.entries(state.list.filters)) {
    for (const value of values) params.append(name, value);
  }
  return params;
}

/**
 * Starts a new search and puts it in the address (`typed` when a keystroke changed it); the
 * request of the search before is cancelled, and an answer to an older one is dropped.
 */
export function search(query = state.list.query, { typed = false } = {}) {
  const list = state.list;
  list.generation += 1;
  if (list.controller) list.controller.abort();
  list.controller = new AbortController();
  list.query = query.replace(/^[ \t]+|[ \t]+$/g, ""); // spaces around a query are never meant
  list.cursor = null;
  list.hasMore = false;
  recordSearch(typed);
  const params = searchParams();
  for (const action of listeners) action(params);
  // The export links download every match of this search, not only the rows loaded.
  // A download is opened in a spreadsheet: what a seller typed must not run there as a formula.
  $("export-csv").href = "/api/export?" + params + "&spreadsheet=safe";
  $("export-json").href = "/api/export?" + params + "&format=json";
  return loadPage(list.generation, true);
}

async function loadPage(generation, first) {
  const list = state.list;
  list.loading = true;
  setLoading(true, first);
  const params = searchParams();
  params.set("limit", String(PAGE_SIZE));
  if (!first && list.cursor) params.set("after", list.cursor);
  const started = performance.now();
  try {
    const body = await request("/api/products?" + params, { signal: list.controller.signal });
    if (generation !== list.generation) return;
    // How long the answer took, in view beside the count (as search engines say "in 4 ms").
    if (first) $("took").textContent = `in ${numberFormat.format(Math.max(1, Math.round(performance.now() - started)))} ms`;
    if (first) {
      $("rows").replaceChildren();
      if (isUnfiltered()) appendRows(starredProducts(), true);
      // A failed search's error is over once a search succeeds.
      if ($("message").classList.contains("error")) hideMessage();
    }
    finishPage(body, first);
  } catch (error) {
    if (error.name === "AbortError" || generation !== list.generation) return;
    // An unreachable server shows the connection banner; the list stays, marked as out of date,
    // and the count says which search it still shows.
    if (error instanceof Unreachable) {
      if (first) showUnsearched();
      return;
    }
    showMessage(error.message, true);
    if (first) {
      $("rows").replaceChildren();
      $("count").textContent = "";
      $("end").hidden = true;
    }
  } finally {
    if (generation === list.generation) {
      list.loading = false;
      setLoading(false, first);
      // Only a page that arrived asks for the next: a failed one waits for the connection's retry.
      if (state.reachable && !continueToDepth(generation) && list.hasMore && sentinelIsNear()) loadPage(generation, false);
    }
  }
}

function finishPage(body, first) {
  const list = state.list;
  // Starred products are already at the top of the unfiltered list, and products edited in this
  // browser but not sent yet are shown as edited, at the top.
  const skip = isUnfiltered() ? state.favorites : new Map();
  const pending = new Set(pendingChanges().map((entry) => entry.productId).filter(Boolean));
  if (first) {
    list.currencies = new Set();
    list.shownQuery = list.query;
  }
  noteExtras(body.products);
  for (const product of body.products) list.currencies.add(product.currency || "");
  appendRows(body.products.filter((product) => !skip.has(product.productId) && !pending.has(product.productId)), false, body.stock || {});
  if (first) showPending();
  list.cursor = body.nextCursor;
  list.hasMore = body.nextCursor !== null;
  // The count includes close spellings when the first page shows one: say so, since the count jumps when they start.
  if (first) list.closeSpellings = body.products.some((product) =>
    Object.values(product.highlights || {}).some((matches) => matches.some((match) => match.typo)));
  showCount(body.count, body.countComplete !== false, body.countEstimated === true);
  $("end").hidden = list.hasMore || (body.products.length === 0 && first);
  if (first) {
    // An empty list shows no bare header: the words under the count say what to do instead.
    $("results").hidden = $("rows").children.length === 0;
    for (const action of firstPageListeners) action(body.count);
  }
  $("results").classList.remove("stale");
}

/**
 * Lists exactly `productIds` (at most 100, read one by one), under `caption` in place of a count:
 * the products a bulk edit refused, to fix them. The next search lists what it finds again.
 */
export async function showProducts(productIds, caption) {
  const list = state.list;
  list.generation += 1;
  const generation = list.generation;
  if (list.controller) list.controller.abort();
  list.hasMore = false;
  const products = [];
  for (const productId of productIds.slice(0, 100)) {
    try {
      products.push(await request(productPath(productId)));
    } catch {
      // gone meanwhile (deleted): listed without it
    }
    if (generation !== list.generation) return;
  }
  $("rows").replaceChildren();
  appendRows(products, false);
  $("results").hidden = products.length === 0;
  $("end").hidden = true;
  $("count").textContent = caption;
}

/** The depth a reload returns to: { rows, y }, until the list is that long. */
let depth = null;

/**
 * After a reload, loads pages until the list holds `rows` rows again (at most 1,000), then
 * scrolls back to `y`: a reload after a deep scroll returns where it was, not to row 1.
 */
export function returnToDepth(rows, y) {
  depth = rows > PAGE_SIZE && y > 0 ? { rows: Math.min(rows, 1000), y } : null;
}

/** Loads the next page towards a depth to return to, or scrolls there once the list is long enough. */
function continueToDepth(generation) {
  if (!depth) return false;
  if ($("rows").children.length < depth.rows && state.list.hasMore) {
    loadPage(generation, false);
    return true;
  }
  window.scrollTo(0, depth.y);
  depth = null;
  return false;
}

/** Loads the next page when the end of the list comes into view. */
export function loadMore() {
  const list = state.list;
  if (!list.loading && list.hasMore && state.reachable) loadPage(list.generation, false);
}

/** How long a search may take before the rows on screen are marked out of date: most answer sooner, and a cue that flickers at every keystroke distracts. */
const BUSY_CUE_MS = 150;
let busyTimer = null;

/** A first page that takes a while marks the rows on screen as out of date and says so next to the count, in view. */
function setLoading(loading, first) {
  $("results").setAttribute("aria-busy", String(loading));
  if (first) {
    clearTimeout(busyTimer);
    if (loading) {
      busyTimer = setTimeout(() => {
        $("results").classList.add("stale");
        $("searching").hidden = false;
      }, BUSY_CUE_MS);
    } else {
      $("results").classList.remove("stale");
      $("searching").hidden = true;
    }
  } else {
    $("loading").hidden = !loading;
  }
}

function sentinelIsNear() {
  return $("sentinel").getBoundingClientRect().top < window.innerHeight + 200;
}

/** True when the list shows a manual collection and nothing else chosen. */
function isCollectionOnly() {
  const { filters, sort } = state.list;
  return filters.collection.length === 1 && sort === "relevance" &&
    Object.entries(filters).every(([name, values]) => name === "collection" || values.length === 0);
}

/** A search that could not reach the server: the count says so, and what the rows below are. */
function showUnsearched() {
  $("took").textContent = "";
  const shown = state.list.shownQuery;
  const hasRows = $("rows").children.length > 0;
  $("results").hidden = !hasRows;
  const what = state.list.query === "" ? "list the catalog" : `search for “${state.list.query}”`;
  const below = !hasRows ? "." : shown === undefined || shown === state.list.query ? "; the list below is from before."
    : shown === "" ? "; the list below is still the whole catalog, from before." : `; the list below is still for “${shown}”, from before.`;
  $("count").textContent = `Cannot ${what} while the server cannot be reached${below}`;
  $("count").title = "";
}

/**
 * Says how many products match; `complete` is false when the server stopped counting at `count`,
 * `estimated` true when `count` is the server's estimate of the products (families) among more matches.
 */
function showCount(count, complete, estimated = false) {
  const query = state.list.query;
  // "+": counting stopped there, so there are at least that many (the title says so in words);
  // "about": the families of a sample of the matches, scaled to all of them.
  const amount = estimated ? `About ${numberFormat.format(count)}` : numberFormat.format(count) + (complete ? "" : "+");
  $("count").title = estimated ? "An estimate: the products of a sample of the matches, scaled to all of them."
    : complete ? "" : `At least ${numberFormat.format(count)}: counting stopped there.`;
  const products = count === 1 && complete ? "product" : "products";
  const verb = count === 1 && complete ? "matches" : "match";
  let text;
  const filtered = Object.values(state.list.filters).some((values) => values.length > 0);
  if (query === "" && !filtered) {
    // The whole catalog, in its own order or sorted.
    text = count === 0 ? "The catalog is empty. Import a CSV file or add a product." : `${amount} ${products} in the catalog`;
  } else if (query === "" && isCollectionOnly()) {
    const name = state.list.filters.collection[0];
    text = count === 0 ? `The collection “${name}” is empty.` : `${amount} ${products} in the collection “${name}”`;
  } else if (query === "") {
    text = count === 0 ? "No product has the chosen values." : `${amount} ${products} with the chosen values`;
  } else {
    text = count === 0 ? `No product matches “${query}”${filtered ? " with the filters in use" : ""}.`
      : `${amount} ${products} ${verb} “${query}”${state.list.closeSpellings ? ", close spellings included" : ""}`;
  }
  if (state.favorites.size > 0 && isUnfiltered()) text += `, ${counted(state.favorites.size, "starred product")} first`;
  $("count").textContent = text;
  showCurrencyNote();
}

/** Sorted by price over several currencies: says that the numbers are compared as they are, not converted. */
export function showCurrencyNote() {
  const list = state.list;
  const codes = [...(list.currencies || [])].filter(Boolean).sort();
  const mixed = (list.sort === "price" || list.sort === "-price") && list.currencies && list.currencies.size > 1;
  $("currency-note").hidden = !mixed;
  if (mixed) {
    const named = codes.length ? codes.join(", ") + (list.currencies.has("") ? " and prices without a currency" : "") : "several currencies";
    $("currency-note").textContent = `Prices in ${named} are sorted by their numbers, not converted.`;
  }
}

/** The adds and edits waiting in this browser (see outbox.js) that the current search would list. */
function pendingChanges() {
  const query = state.list.query.toLowerCase();
  return state.outbox.filter((entry) => (entry.kind === "add" || entry.kind === "edit") && (query === "" ||
    [entry.body.productId, entry.body.title, entry.productId].some((text) => text && text.toLowerCase().includes(query))));
}

/** Shows the waiting adds and edits at the top of the list, each marked as not sent yet (or refused). */
export function showPending() {
  for (const row of $("rows").querySelectorAll("tr.pending")) row.remove();
  const rows = pendingChanges().map((entry) => {
    // The form's fields as the API gives a product: an empty field is no value.
    const fields = Object.fromEntries(Object.entries(entry.body).map(([name, value]) => [name, value === "" ? null : value]));
    const row = productRow({ ...fields, productId: entry.body.productId || entry.productId });
    row.classList.add("pending");
    row.dataset.outboxKey = String(entry.key);
    const note = document.createElement("span");
    note.className = "pending-note";
    note.textContent = entry.problem ? "refused by the server: review it" : "waiting to be sent";
    const badge = document.createElement("span");
    badge.className = "badge";
    badge.textContent = entry.problem ? "refused" : "not sent yet";
    row.querySelector(".id-cell").append(" ", badge, note);
    return row;
  });
  $("rows").prepend(...rows);
  // A list hidden for being empty shows again with the waiting rows.
  if (rows.length > 0) $("results").hidden = false;
}

function starredProducts() {
  return [...state.favorites.values()];
}

function appendRows(products, starredGroup, stock = {}) {
  const fragment = document.createDocumentFragment();
  for (const product of products) fragment.append(productRow(product, starredGroup, stock[product.productId]));
  $("rows").append(fragment);
}

/**
 * What the Stock column shows: the quantity at the chosen stores when the list is filtered by
 * store, else the sum over the product's stores, else its own quantity; empty when unknown.
 */
function stockText(product, stores) {
  const chosen = state.list.filters.store.map((store) => store.toLowerCase());
  if (stores && stores.length) {
    const kept = chosen.length ? stores.filter((entry) => chosen.includes(entry.store.toLowerCase())) : stores;
    const total = kept.reduce((sum, entry) => sum + entry.quantity, 0);
    const where = chosen.length ? kept.map((entry) => entry.store).join(", ") || state.list.filters.store.join(", ")
      : `${stores.length} ${stores.length === 1 ? "store" : "stores"}`;
    return { text: numberFormat.format(total), title: `${numberFormat.format(total)} in stock at ${where}` };
  }
  if (product.quantity === null || product.quantity === undefined) return { text: "", title: "" };
  return { text: numberFormat.format(product.quantity), title: `${numberFormat.format(product.quantity)} in stock` };
}

/** The price cell: what the product sells for, in its currency, with the list price struck through when on sale. */
function priceCell(product) {
  const onSale = product.salesPrice !== null && product.listPrice !== null &&
    thousandths(product.salesPrice) < thousandths(product.listPrice);
  const shown = onSale ? product.salesPrice : product.listPrice ?? product.salesPrice;
  const td = cell("num price-cell" + (onSale ? " sale" : ""), formatPrice(shown, product.currency), "Price");
  if (onSale) {
    const was = document.createElement("s");
    was.className = "was";
    was.textContent = formatPrice(product.listPrice, product.currency);
    td.append(" ", was, hiddenText(" (reduced)"));
  }
  td.title = td.textContent.replace(" (reduced)", "");
  return td;
}

/**
 * Under a family's title: how many variants and their options, a button that opens the family
 * into its variants, a row each, below it (and closes it again).
 */
function familyToggle(product) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "family-toggle";
  button.dataset.family = product.productId;
  button.setAttribute("aria-expanded", "false");
  button.textContent = familyPhrase(product.family, product.currency);
  button.title = "Show the variants of this product";
  return button;
}

/** Opens the family of the row's product into a row per variant under it, or closes it. */
export async function toggleFamily(button) {
  const row = button.closest("tr");
  const id = row.dataset.productId;
  for (const old of [...$("rows").querySelectorAll("tr.variant-row")]) if (old.dataset.variantOf === id) old.remove();
  if (button.getAttribute("aria-expanded") === "true") {
    button.setAttribute("aria-expanded", "false");
    button.title = "Show the variants of this product";
    return;
  }
  let body;
  try {
    body = await request(productPath(id) + "/variants");
  } catch (error) {
    showMessage(error.message, true);
    return;
  }
  const stock = body.stock ?? {};
  const variants = body.products.map((variant) => {
    const variantRow = productRow(variant, false, stock[variant.productId] ?? null, true);
    variantRow.classList.add("variant-row");
    variantRow.dataset.variantOf = id;
    return variantRow;
  });
  row.after(...variants);
  button.setAttribute("aria-expanded", "true");
  button.title = "Hide the variants";
}

/**
 * A table row for `product`: a star, its productId as the button that opens the detail, its
 * fields; a variant shown under its family has its options where the title is.
 */
function productRow(product, starredGroup = false, stores = null, asVariant = false) {
  const row = document.createElement("tr");
  row.dataset.productId = product.productId;
  // A family's row: selecting it chooses every variant of the family (see selection.js).
  if (product.family && !asVariant) row.dataset.family = "true";
  if (starredGroup) row.classList.add("starred-group");

  const selectCell = cell("select-cell", "");
  const box = document.createElement("input");
  box.type = "checkbox";
  box.className = "select-box";
  box.setAttribute("aria-label", `Select ${product.productId}`);
  box.checked = state.selection.has(product.productId);
  selectCell.append(box);
  row.append(selectCell);

  const starCell = cell("star-cell", "");
  starCell.append(starButton(product.productId));
  row.append(starCell);

  const thumbCell = cell("thumb-cell", "");
  thumbCell.append(thumbnail(product.imageURL, "thumb", 40));
  row.append(thumbCell);

  const idCell = cell("id-cell", "");
  const button = document.createElement("button");
  button.type = "button";
  button.className = "id-button";
  button.textContent = product.productId;
  button.setAttribute("aria-label", `${product.productId}: show details`);
  idCell.append(button);
  row.append(idCell);

  const options = asVariant ? optionPairs(product.options).map((option) => `${option.name}: ${option.value}`).join(" · ") : "";
  const titleCell = options ? cell("title-cell", options, "Options") : highlightedCell("title-cell", product.title, "Title", product.highlights?.title);
  // Found by its brand while the Brand column is hidden: the brand shows under the title with its matched words.
  if (product.brand && product.highlights?.brand?.length && !isShown("brand")) {
    const line = document.createElement("span");
    line.className = "matched-field";
    line.append("Brand: ", highlighted(product.brand, product.highlights.brand));
    titleCell.append(line);
  }
  titleCell.title = product.title || "";
  if (product.family) titleCell.append(familyToggle(product));
  row.append(titleCell);
  row.append(priceCell(product));
  // The optional columns (columns.js), each marked with its key so that a hidden one is hidden in every row.
  row.append(highlightedCell("field-cell c-brand", product.brand, "Brand", product.highlights?.brand));
  row.append(cell("field-cell c-color", product.color, "Color"));
  row.append(cell("field-cell c-size", product.size, "Size"));
  row.append(highlightedCell("field-cell c-type", product.productType, "Type", product.highlights?.productType));
  const stock = stockText(product, stores);
  const stockCell = cell("num stock-cell c-stock", stock.text, "Stock");
  stockCell.title = stock.title;
  row.append(stockCell);
  row.append(cell("field-cell c-currency", product.currency, "Currency"));
  for (const name of shownExtras()) row.append(cell("field-cell c-extra", product[name] ?? "", name));
  row.append(cell("columns-cell", "")); // under the header's Columns menu
  return row;
}

/** The star toggle of a product: pressed when it is starred. */
export function starButton(productId) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "star";
  button.dataset.star = productId;
  paintStar(button, state.favorites.has(productId));
  return button;
}

export function paintStar(button, starred) {
  button.setAttribute("aria-pressed", String(starred));
  button.setAttribute("aria-label", `Star ${button.dataset.star}`);
  button.textContent = starred ? "★" : "☆";
  button.title = starred ? "Starred: shown first in the list. Click to unstar." : "Star: show it first in the list";
}

function cell(className, text, label) {
  const td = document.createElement("td");
  if (className) td.className = className;
  if (label) td.dataset.label = label;
  if (text) td.title = text; // the whole text, where one line cuts it
  if (text) {
    const value = document.createElement("span");
    value.className = "value";
    value.textContent = text;
    td.append(value);
  }
  return td;
}

/** A cell whose text has the words that matched the search in bold: `matches` are UTF-16 ranges, as the API gives them. */
function highlightedCell(className, text, label, matches) {
  const td = cell(className, matches && matches.length ? "" : text, label);
  if (!text || !matches || !matches.length) return td;
  const value = highlighted(text, matches);
  value.className = "value";
  td.append(value);
  return td;
}

/**
 * `text` with its matched words in bold; a word matched only as a close spelling of the query's
 * (a typo forgiven) is marked so, with the word it stands for in its title and for screen readers.
 */
function highlighted(text, matches) {
  const value = document.createElement("span");
  let position = 0;
  for (const match of [...matches].sort((a, b) => a.start - b.start)) {
    if (match.start < position || match.end > text.length) continue;
    value.append(text.slice(position, match.start));
    const mark = document.createElement("mark");
    mark.className = match.typo ? "match close" : "match";
    mark.textContent = text.slice(match.start, match.end);
    value.append(mark);
    if (match.typo) {
      mark.title = `Close spelling of “${match.word}”`;
      value.append(hiddenText(` (close spelling of ${match.word})`));
    }
    position = match.end;
  }
  value.append(text.slice(position));
  return value;
}

/** Puts keyboard focus on the row of `productId` when the list shows it; returns whether it did. */
export function focusRow(productId) {
  const row = [...$("rows").children].find((candidate) => candidate.dataset.productId === productId);
  if (!row) return false;
  row.querySelector(".id-button").focus();
  return true;
}
