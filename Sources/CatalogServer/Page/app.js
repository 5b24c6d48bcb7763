// Product catalog page: the entry point. It wires the modules together; each holds one part of the page:
//   api.js         every request, its errors, and what an unreachable server means
//   connection.js  the banner while the server cannot be reached, and the retries
//   state.js       what the page remembers;  address.js  the view in the URL, Back and Forward
//   list.js        search as you type, 20 a page, starred products first
//   facets.js      filter chips with counts;  sorting.js  the sort menu and sortable headers
//   pills.js       the filters in use above the list, and what an empty list says
//   columns.js     the optional columns, chosen in the Columns menu and kept in this browser
//   keys.js        the list from the keyboard: j, k, x, e, Enter and /
//   favorites.js   stars;  bulk.js  select rows, then star, delete or set a field (preview, undo)
//   collections.js collections beside the search: show one, add the selected rows, save a search
//   detail.js      one product, its variants;  remove.js  delete
//   editor.js      add and edit;  images.js  a picture cropped to a square
//   outbox.js      changes (and stars) kept in this browser while the server cannot be reached
//   sw.js          the service worker: the page and the products opened, kept for offline
//   importer.js    preview, replace or upsert, live progress
//   dialogs.js, messages.js, elements.js, formats.js, fields.js   the small shared parts

import { $ } from "./elements.js";
import { state } from "./state.js";
import { search, loadMore, returnToDepth, toggleFamily } from "./list.js";
import { watchConnection, onReconnect } from "./connection.js";
import { wireDialogs, closeDialog, openerOf } from "./dialogs.js";
import { openDetail } from "./detail.js";
import { askDelete, deleteCurrent } from "./remove.js";
import { buildForm, openEditor } from "./editor.js";
import { wireImages } from "./images.js";
import { loadFavorites, toggleStar } from "./favorites.js";
import { wireFacets, showFilterBar } from "./facets.js";
import { wireOutbox, refreshOutbox, sendWaiting, onResolve } from "./outbox.js";
import { wireImport } from "./importer.js";
import { viewOf, recordClosed, recordDepth, depthOf } from "./address.js";
import { wireSorting, showSort, showSorts } from "./sorting.js";
import { loadSchema, filterNames } from "./schema.js";
import { wireBulk } from "./bulk.js";
import { wirePills } from "./pills.js";
import { wireColumns } from "./columns.js";
import { wireKeys } from "./keys.js";
import { wireCollections, loadCollections } from "./collections.js";

function wireSearch() {
  // Every keystroke searches: the request before is cancelled, and an older answer never replaces a
  // newer one. Keys that land within one frame (a paste, a script typing) make one search.
  let frame = null;
  $("search").addEventListener("input", () => {
    if (frame !== null) return;
    frame = requestAnimationFrame(() => {
      frame = null;
      search($("search").value, { typed: true });
    });
  });
  $("search-form").addEventListener("submit", (event) => {
    event.preventDefault();
    search($("search").value);
  });
  new IntersectionObserver((entries) => {
    if (entries.some((entry) => entry.isIntersecting)) loadMore();
  }, { rootMargin: "0px 0px 200px 0px" }).observe($("sentinel"));
}

function wireList() {
  $("rows").addEventListener("click", (event) => {
    const star = event.target.closest("button.star");
    if (star) return toggleStar(star);
    const family = event.target.closest("button.family-toggle");
    if (family) return toggleFamily(family);
    const row = event.target.closest("tr");
    if (!row) return;
    // A change not sent yet opens in the editor, to change or send again.
    const waiting = row.dataset.outboxKey && state.outbox.find((entry) => String(entry.key) === row.dataset.outboxKey);
    if (waiting) return openEditor(null, row.querySelector(".id-button"), waiting);
    openDetail(row.dataset.productId, row.querySelector(".id-button"));
  });
}

/** Shows the view an address names: its search, and its product's detail when it names one. */
function showView(view, { searching = true } = {}) {
  const list = state.list;
  const same = list.query === view.query && list.sort === view.sort &&
    JSON.stringify(list.filters) === JSON.stringify(view.filters);
  list.sort = view.sort;
  list.filters = view.filters;
  $("search").value = view.query;
  showSort();
  showFilterBar();
  if (searching && !same) search(view.query);
  const detail = $("detail");
  if (view.product && !(detail.open && state.current?.productId === view.product)) openDetail(view.product, null);
  else if (!view.product && detail.open) closeDialog(detail);
}

function wireDetail() {
  $("detail").addEventListener("close", recordClosed);
  $("detail-edit").addEventListener("click", () => {
    const opener = openerOf($("detail"));
    closeDialog($("detail"));
    openEditor(state.current, opener);
  });
  $("detail-delete").addEventListener("click", (event) => askDelete(event.currentTarget));
  $("confirm-delete").addEventListener("click", deleteCurrent);
  $("detail-star").addEventListener("click", (event) => {
    const star = event.target.closest("button.star");
    if (star) toggleStar(star);
  });
  $("variant-list").addEventListener("click", (event) => {
    const button = event.target.closest("[data-variant]");
    if (button) openDetail(button.dataset.variant, openerOf($("detail")));
  });
}

/** The service worker (sw.js) keeps the page and the products opened, for when the server cannot be reached. */
function keepForOffline() {
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
}

async function start() {
  keepForOffline();
  // The list's sticky header sits just under the sticky top bar and search box, whatever their heights.
  for (const [element, name] of [[document.querySelector(".top-bar"), "--top-bar-height"], [$("search-form"), "--search-height"]]) {
    new ResizeObserver(([entry]) => document.documentElement.style.setProperty(name, `${entry.target.offsetHeight}px`)).observe(element);
  }
  wireDialogs();
  wireImages();
  wireSearch();
  wireList();
  wireDetail();
  wireFacets();
  wireSorting();
  wireBulk();
  wirePills();
  wireKeys();
  wireCollections();
  wireOutbox();
  wireImport();
  watchConnection();
  $("add-button").addEventListener("click", (event) => openEditor(null, event.currentTarget));
  onResolve((entry, opener) => openEditor(null, opener, entry));
  window.addEventListener("popstate", () => showView(viewOf()));
  onReconnect(async () => {
    await sendWaiting();
    await loadFavorites();
    await search();
    await loadCollections();
  });
  // The filters and sorts the page offers, the fields' labels and hints, are the server's (GET /api/schema).
  await loadSchema();
  buildForm();
  // A column shown or hidden draws the list again: the brand's line under a title follows it.
  wireColumns(() => search());
  for (const name of filterNames()) state.list.filters[name] ??= [];
  showSorts();
  await loadFavorites();
  const view = viewOf();
  showView(view, { searching: false });
  // A reload returns to the depth the list was scrolled to; the depth is noted as it scrolls.
  history.scrollRestoration = "manual";
  const { rows, y } = depthOf();
  returnToDepth(rows, y);
  let noting = null;
  window.addEventListener("scroll", () => {
    clearTimeout(noting);
    noting = setTimeout(() => recordDepth($("rows").children.length, Math.round(scrollY)), 200);
  }, { passive: true });
  await search(view.query);
  await loadCollections();
  await refreshOutbox();
  await sendWaiting();
}

start();
