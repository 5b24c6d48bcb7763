// Product catalog page: search as you type, scroll 20 at a time, import a CSV live, add, edit, delete.
"use strict";

const PAGE_SIZE = 20;
const DEBOUNCE_MS = 200;
const PLACEHOLDER_IMAGE = "data:image/svg+xml," + encodeURIComponent(
  "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 40 40'>" +
  "<rect width='40' height='40' rx='6' fill='#c9ced6'/>" +
  "<path d='M7 31l9-11 6 7 4-5 7 9z' fill='#8a919b'/><circle cx='27' cy='13' r='4' fill='#8a919b'/></svg>");

const FIELDS = [
  { name: "productId", label: "productId", hint: "Required, at most 255 characters (fewer with accents)." },
  { name: "title", label: "Title", hint: "Required.", wide: true },
  { name: "listPrice", label: "List price", hint: "For example 19.99", inputmode: "decimal" },
  { name: "salesPrice", label: "Sale price", hint: "Not above the list price.", inputmode: "decimal" },
  { name: "color", label: "Color" },
  { name: "size", label: "Size" },
  { name: "productType", label: "Type" },
  { name: "taxRate", label: "Tax rate (%)", hint: "From 0 to 100.", inputmode: "decimal" },
  { name: "imageURL", label: "Image address", hint: "http:// or https://, or empty.", wide: true },
  { name: "brand", label: "Brand" },
  { name: "groupId", label: "Product family", hint: "Variants of one product share it." },
  { name: "currency", label: "Currency", hint: "A code such as USD or EUR." },
  { name: "quantity", label: "Stock", hint: "A whole number; empty when unknown.", inputmode: "numeric" },
  { name: "description", label: "Description", wide: true },
];
const KNOWN_FIELDS = new Set(FIELDS.map((field) => field.name));

const $ = (id) => document.getElementById(id);
const numberFormat = new Intl.NumberFormat("en-US");

// MARK: - Search and infinite scroll

/** What the list shows: one search, its pages so far, and whether a page is in flight. */
const list = {
  query: "",
  cursor: null,
  hasMore: false,
  loading: false,
  generation: 0,
  controller: null,
};

/** Starts a new search; answers to any older search are dropped when they arrive. */
function search(query) {
  list.generation += 1;
  if (list.controller) list.controller.abort();
  list.controller = new AbortController();
  list.query = query.replace(/^[ \t]+|[ \t]+$/g, ""); // spaces around a query are never meant
  list.cursor = null;
  list.hasMore = false;
  return loadPage(list.generation, true);
}

async function loadPage(generation, first) {
  list.loading = true;
  setLoading(true);
  // q finds productIds starting with the query, then products with words starting with its words.
  const params = new URLSearchParams({ q: list.query, limit: String(PAGE_SIZE) });
  if (!first && list.cursor) params.set("after", list.cursor);
  try {
    const response = await fetch("/api/products?" + params, { signal: list.controller.signal });
    const body = await response.json();
    if (generation !== list.generation) return;
    if (!response.ok) throw new Error(body.error ? body.error.message : "The search failed.");
    if (first) $("rows").replaceChildren();
    const fragment = document.createDocumentFragment();
    for (const product of body.products) fragment.append(productRow(product));
    $("rows").append(fragment);
    list.cursor = body.nextCursor;
    list.hasMore = body.nextCursor !== null;
    showCount(body.count, body.countComplete !== false);
    $("end").hidden = list.hasMore || body.products.length === 0 && first;
  } catch (error) {
    if (error.name === "AbortError" || generation !== list.generation) return;
    showMessage(error.message, true);
  } finally {
    if (generation === list.generation) {
      list.loading = false;
      setLoading(false);
      if (list.hasMore && sentinelIsNear()) loadPage(generation, false);
    }
  }
}

function loadMore() {
  if (!list.loading && list.hasMore) loadPage(list.generation, false);
}

function setLoading(loading) {
  $("loading").hidden = !loading;
  $("results").setAttribute("aria-busy", String(loading));
}

function sentinelIsNear() {
  return $("sentinel").getBoundingClientRect().top < window.innerHeight + 200;
}

/** Says how many products match; `complete` is false when the server stopped counting at `count`. */
function showCount(count, complete) {
  const query = list.query;
  const products = count === 1 && complete ? "product" : "products";
  const amount = numberFormat.format(count) + (complete ? "" : "+");
  if (query === "") {
    $("count").textContent = count === 0
      ? "The catalog is empty. Import a CSV file or add a product."
      : `${amount} ${products} in the catalog`;
  } else {
    $("count").textContent = count === 0
      ? `No product matches “${query}”.`
      : `${amount} ${products} ${count === 1 && complete ? "matches" : "match"} “${query}”`;
  }
}

/** A table row for `product`; its productId is a button that opens the detail. */
function productRow(product) {
  const row = document.createElement("tr");
  row.dataset.productId = product.productId;

  const thumbCell = cell("thumb-cell", "");
  thumbCell.append(thumbnail(product.imageURL, "thumb", 40));
  row.append(thumbCell);

  const idCell = cell("id-cell", "");
  idCell.dataset.label = "productId";
  const button = document.createElement("button");
  button.type = "button";
  button.className = "id-button";
  button.textContent = product.productId;
  button.setAttribute("aria-label", `${product.productId}: show details`);
  idCell.append(button);
  row.append(idCell);

  row.append(cell("title-cell", product.title, "Title"));
  row.append(cell("num list-price", product.listPrice, "List price"));
  const onSale = product.salesPrice !== null && product.listPrice !== null &&
    thousandths(product.salesPrice) < thousandths(product.listPrice);
  const saleCell = cell("num sale-price" + (onSale ? " sale" : ""), product.salesPrice, "Sale price");
  if (onSale) saleCell.append(hiddenText(" (reduced)"));
  row.append(saleCell);
  row.append(cell("", product.color, "Color"));
  row.append(cell("", product.size, "Size"));
  row.append(cell("", product.productType, "Type"));
  return row;
}

function cell(className, text, label) {
  const td = document.createElement("td");
  if (className) td.className = className;
  if (label) td.dataset.label = label;
  if (text) td.textContent = text;
  return td;
}

function hiddenText(text) {
  const span = document.createElement("span");
  span.className = "visually-hidden";
  span.textContent = text;
  return span;
}

/** Exact thousandths of a decimal string such as "12.50" or "12.345", for comparing prices without floating point. */
function thousandths(price) {
  const [whole, fraction = ""] = price.split(".");
  return Number(whole) * 1000 + Number((fraction + "000").slice(0, 3));
}

/** An image of `url`, or the built-in placeholder when there is none or it fails to load. */
function thumbnail(url, className, size) {
  const image = document.createElement("img");
  image.className = className;
  image.alt = "";
  image.width = size;
  image.height = size;
  image.loading = "lazy";
  setImage(image, url);
  return image;
}

function setImage(image, url) {
  image.onerror = () => {
    image.onerror = null;
    image.src = PLACEHOLDER_IMAGE;
  };
  image.src = url && /^https?:\/\//i.test(url) ? url : PLACEHOLDER_IMAGE;
}

// MARK: - Messages

let messageTimer = null;

function showMessage(text, isError = false) {
  const message = $("message");
  message.textContent = text;
  message.classList.toggle("error", isError);
  message.setAttribute("role", isError ? "alert" : "status");
  message.hidden = false;
  clearTimeout(messageTimer);
  if (!isError) messageTimer = setTimeout(() => { message.hidden = true; }, 8000);
}

// MARK: - Product detail

let current = null;

async function openDetail(productId, opener) {
  let response, body;
  try {
    response = await fetch("/api/products/" + encodeURIComponent(productId));
    body = await response.json();
  } catch (error) {
    showMessage("The server could not be reached: " + error.message, true);
    return;
  }
  if (!response.ok) {
    showMessage(body.error.message, true);
    return;
  }
  current = body;
  $("detail-title").textContent = body.title || body.productId;
  setImage($("detail-image"), body.imageURL);
  $("detail-image").alt = body.imageURL ? `Image of ${body.title || body.productId}` : "";
  const fields = $("detail-fields");
  fields.replaceChildren();
  for (const [key, value] of Object.entries(body)) {
    const label = FIELDS.find((field) => field.name === key)?.label ?? key;
    const term = document.createElement("dt");
    term.textContent = label;
    const detail = document.createElement("dd");
    detail.textContent = value === null || value === "" ? "—" : value;
    fields.append(term, detail);
  }
  openDialog($("detail"), opener);
}

// MARK: - Add and edit

/** The product being edited (its productId as stored), or null when adding. */
let editing = null;

function buildForm() {
  const container = $("editor-fields");
  for (const field of FIELDS) container.append(formField(field));
}

function formField(field) {
  const wrapper = document.createElement("div");
  wrapper.className = "field" + (field.wide ? " wide" : "");
  const id = "field-" + field.name;
  const label = document.createElement("label");
  label.htmlFor = id;
  label.textContent = field.label;
  const input = document.createElement("input");
  input.id = id;
  input.name = field.name;
  input.type = "text";
  input.autocomplete = "off";
  if (field.inputmode) input.inputMode = field.inputmode;
  const describedBy = [];
  wrapper.append(label);
  if (field.hint) {
    const hint = document.createElement("p");
    hint.className = "hint";
    hint.id = id + "-hint";
    hint.textContent = field.hint;
    describedBy.push(hint.id);
    wrapper.append(hint);
  }
  const error = document.createElement("p");
  error.className = "field-error";
  error.id = "error-" + field.name;
  describedBy.push(error.id);
  input.setAttribute("aria-describedby", describedBy.join(" "));
  wrapper.append(input, error);
  if (field.extra) wrapper.dataset.extra = "true";
  return wrapper;
}

function openEditor(product, opener) {
  editing = product ? product.productId : null;
  $("editor-title").textContent = product ? `Edit ${product.productId}` : "Add a product";
  const container = $("editor-fields");
  for (const extra of container.querySelectorAll("[data-extra]")) extra.remove();
  if (product) {
    for (const key of Object.keys(product)) {
      if (!KNOWN_FIELDS.has(key)) container.append(formField({ name: key, label: key, extra: true, wide: true }));
    }
  }
  for (const input of container.querySelectorAll("input")) {
    input.value = product && product[input.name] !== null && product[input.name] !== undefined ? product[input.name] : "";
  }
  clearErrors();
  openDialog($("editor"), opener);
  $("field-productId").focus();
}

function clearErrors() {
  $("editor-error").textContent = "";
  for (const input of $("editor-fields").querySelectorAll("input")) {
    input.removeAttribute("aria-invalid");
    $("error-" + input.name).textContent = "";
  }
}

async function saveProduct(event) {
  event.preventDefault();
  clearErrors();
  const body = {};
  for (const input of $("editor-fields").querySelectorAll("input")) body[input.name] = input.value;
  const url = editing === null ? "/api/products" : "/api/products/" + encodeURIComponent(editing);
  const save = $("editor-save");
  save.disabled = true;
  try {
    const response = await fetch(url, {
      method: editing === null ? "POST" : "PUT",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const answer = response.status === 204 ? null : await response.json();
    if (!response.ok) {
      showFieldErrors(answer.error);
      return;
    }
    const added = editing === null;
    closeDialog($("editor"));
    showMessage(added ? `Added ${answer.productId}.` : `Saved ${answer.productId}.`);
    if (added) {
      $("search").value = answer.productId;
      await search(answer.productId);
    } else {
      await search(list.query);
    }
  } catch (error) {
    $("editor-error").textContent = "The server could not be reached: " + error.message;
  } finally {
    save.disabled = false;
  }
}

function showFieldErrors(error) {
  let first = null;
  const unplaced = [];
  for (const [name, message] of Object.entries(error.fields || {})) {
    const input = $("editor-fields").querySelector(`input[name="${CSS.escape(name)}"]`);
    if (input) {
      input.setAttribute("aria-invalid", "true");
      $("error-" + name).textContent = message;
      first = first || input;
    } else {
      unplaced.push(`${name}: ${message}`);
    }
  }
  $("editor-error").textContent = [error.message, ...unplaced].join(" ");
  (first || $("field-productId")).focus();
}

// MARK: - Delete

function askDelete(opener) {
  $("confirm-text").textContent = `“${current.title || current.productId}” (${current.productId}) will be removed from the catalog. This cannot be undone.`;
  $("confirm-error").textContent = "";
  openDialog($("confirm"), opener);
}

async function deleteCurrent() {
  const productId = current.productId;
  const button = $("confirm-delete");
  button.disabled = true;
  try {
    const response = await fetch("/api/products/" + encodeURIComponent(productId), { method: "DELETE" });
    if (!response.ok) {
      const body = await response.json();
      $("confirm-error").textContent = body.error.message;
      return;
    }
    closeDialog($("confirm"));
    closeDialog($("detail"));
    showMessage(`Deleted ${productId}.`);
    await search(list.query);
  } catch (error) {
    $("confirm-error").textContent = "The server could not be reached: " + error.message;
  } finally {
    button.disabled = false;
  }
}

// MARK: - Dialogs

const openers = new WeakMap();

function openDialog(dialog, opener) {
  openers.set(dialog, opener || document.activeElement);
  if (!dialog.open) dialog.showModal();
}

function closeDialog(dialog) {
  if (dialog.open) dialog.close();
}

function restoreFocus(dialog) {
  const opener = openers.get(dialog);
  if (opener && document.contains(opener)) opener.focus();
}

// MARK: - Import

let importSource = null;

function toggleImportPanel(show) {
  const panel = $("import-panel");
  panel.hidden = !show;
  $("import-button").setAttribute("aria-expanded", String(show));
  if (show) $("import-file").focus();
  else $("import-button").focus();
}

function startImport(event) {
  event.preventDefault();
  const file = $("import-file").files[0];
  $("import-error").textContent = "";
  if (!file) {
    $("import-error").textContent = "Choose a CSV file first.";
    $("import-file").focus();
    return;
  }
  resetImportStatus();
  $("import-start").disabled = true;
  // XMLHttpRequest rather than fetch: it reports upload progress for large files.
  const request = new XMLHttpRequest();
  request.open("POST", "/api/imports");
  request.setRequestHeader("Content-Type", "text/csv");
  request.upload.onprogress = (progress) => {
    if (progress.lengthComputable) {
      $("import-phase").textContent = `Uploading ${file.name}: ${Math.floor(progress.loaded / progress.total * 100)}%`;
    }
  };
  request.onload = () => {
    let body = null;
    try { body = JSON.parse(request.responseText); } catch { body = null; }
    if (request.status !== 202 || !body) {
      importFailed(body && body.error ? body.error.message : `The upload failed (status ${request.status}).`);
      return;
    }
    followImport(body.id);
  };
  request.onerror = () => importFailed("The upload failed: the server could not be reached.");
  request.send(file);
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
  if (importSource) importSource.close();
  const source = new EventSource(`/api/imports/${id}/events`);
  importSource = source;
  source.addEventListener("progress", (event) => showImportProgress(JSON.parse(event.data)));
  source.addEventListener("finished", (event) => {
    source.close();
    importFinished(id, JSON.parse(event.data));
  });
  source.addEventListener("failed", (event) => {
    source.close();
    importFailed(JSON.parse(event.data).message);
  });
  source.onerror = () => {
    if (source.readyState === EventSource.CONNECTING) {
      $("import-phase").textContent = "Connection lost; reconnecting…";
    } else {
      importFailed("Lost the connection to the server; reload the page to see how the import ended.");
    }
  };
}

const PHASES = {
  loading: "Reading and checking rows",
  writing: "Writing the new catalog",
  finishing: "Swapping in the new catalog",
};

/** The bar and time left are the server's numbers for the whole import; rows and rate are the phase's. */
function showImportProgress(progress) {
  const fraction = progress.fractionCompleted ?? 0;
  $("import-progress").value = Math.min(99, Math.floor(fraction * 100));
  $("import-phase").textContent = `${PHASES[progress.phase] || progress.phase}: ${Math.floor(fraction * 100)}%`;
  $("import-rows").textContent = numberFormat.format(progress.phase === "loading" ? progress.rowsRead : progress.rowsInserted);
  $("import-rate").textContent = numberFormat.format(Math.round(progress.rowsPerSecond));
  $("import-eta").textContent = progress.etaSeconds === null ? "–" : formatSeconds(progress.etaSeconds);
  $("import-rejected").textContent = numberFormat.format(progress.rowsRejected);
}

function importFinished(id, summary) {
  $("import-progress").value = 100;
  $("import-phase").textContent = "Done: 100%";
  $("import-rows").textContent = numberFormat.format(summary.rowsRead);
  $("import-rate").textContent = numberFormat.format(summary.seconds > 0 ? Math.round(summary.rowsRead / summary.seconds) : summary.rowsRead);
  $("import-eta").textContent = "done";
  $("import-rejected").textContent = numberFormat.format(summary.rowsRejected);
  const parts = [`${numberFormat.format(summary.rowsRead)} rows read`, `${numberFormat.format(summary.rowsRejected)} rejected`,
    `${numberFormat.format(summary.duplicates)} ${summary.duplicates === 1 ? "duplicate" : "duplicates"} collapsed`];
  $("import-summary").textContent =
    `Imported ${numberFormat.format(summary.rowsInserted)} products in ${formatSeconds(summary.seconds)}: ${parts.join(", ")}.`;
  if (summary.rowsRejected > 0) {
    $("import-rejects-link").href = `/api/imports/${id}/rejects`;
    $("import-rejects").hidden = false;
  }
  $("import-start").disabled = false;
  search(list.query);
}

function importFailed(message) {
  $("import-phase").textContent = "The import stopped; the catalog was not changed.";
  $("import-error").textContent = message;
  $("import-start").disabled = false;
}

function formatSeconds(seconds) {
  if (seconds < 10) return `${seconds.toFixed(1)} s`;
  if (seconds < 120) return `${Math.round(seconds)} s`;
  return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
}

// MARK: - Wiring

function debounce(action, milliseconds) {
  let timer = null;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => action(...args), milliseconds);
  };
}

function start() {
  buildForm();
  const debouncedSearch = debounce((query) => search(query), DEBOUNCE_MS);
  $("search").addEventListener("input", (event) => debouncedSearch(event.target.value));
  $("search-form").addEventListener("submit", (event) => {
    event.preventDefault();
    search($("search").value);
  });
  document.addEventListener("keydown", (event) => {
    const typing = event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement;
    if (event.key === "/" && !typing && !document.querySelector("dialog[open]")) {
      event.preventDefault();
      $("search").focus();
    }
  });

  $("rows").addEventListener("click", (event) => {
    const row = event.target.closest("tr");
    if (row) openDetail(row.dataset.productId, row.querySelector(".id-button"));
  });

  new IntersectionObserver((entries) => {
    if (entries.some((entry) => entry.isIntersecting)) loadMore();
  }, { rootMargin: "0px 0px 200px 0px" }).observe($("sentinel"));

  $("add-button").addEventListener("click", (event) => openEditor(null, event.currentTarget));
  $("detail-edit").addEventListener("click", () => {
    closeDialog($("detail"));
    openEditor(current, openers.get($("detail")));
  });
  $("detail-delete").addEventListener("click", (event) => askDelete(event.currentTarget));
  $("confirm-delete").addEventListener("click", deleteCurrent);
  $("product-form").addEventListener("submit", saveProduct);
  for (const dialog of document.querySelectorAll("dialog")) {
    dialog.addEventListener("close", () => restoreFocus(dialog));
    for (const button of dialog.querySelectorAll("[data-close]")) {
      button.addEventListener("click", () => closeDialog(dialog));
    }
  }

  $("import-button").addEventListener("click", () => toggleImportPanel($("import-panel").hidden));
  $("import-close").addEventListener("click", () => toggleImportPanel(false));
  $("import-form").addEventListener("submit", startImport);

  search("");
}

start();
