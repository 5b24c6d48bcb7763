// Product catalog page: the entry point. It wires the modules together; each holds one part of the page:
//   api.js         every request, its errors, and what an unreachable server means
//   connection.js  the banner while the server cannot be reached, and the retry
//   state.js       what the page remembers
//   list.js        search as you type, 20 a page, starred products first
//   facets.js      filter chips with counts
//   favorites.js   stars
//   detail.js      one product, its variants;  remove.js  delete
//   editor.js      add and edit;  images.js  a picture cropped to a square
//   outbox.js      changes kept in this browser while the server cannot be reached
//   importer.js    preview, replace or upsert, live progress
//   dialogs.js, messages.js, dom.js, fields.js   the small shared parts

import { $, debounce } from "./dom.js";
import { state } from "./state.js";
import { search, loadMore } from "./list.js";
import { watchConnection, onReconnect } from "./connection.js";
import { wireDialogs, closeDialog, openerOf } from "./dialogs.js";
import { openDetail } from "./detail.js";
import { askDelete, deleteCurrent } from "./remove.js";
import { buildForm, openEditor } from "./editor.js";
import { wireImages } from "./images.js";
import { loadFavorites, toggleStar } from "./favorites.js";
import { wireFacets } from "./facets.js";
import { wireOutbox, refreshOutbox, sendWaiting, onResolve } from "./outbox.js";
import { wireImport } from "./importer.js";

const DEBOUNCE_MS = 200;

function wireSearch() {
  const debouncedSearch = debounce((query) => search(query), DEBOUNCE_MS);
  $("search").addEventListener("input", (event) => debouncedSearch(event.target.value));
  $("sort").addEventListener("change", (event) => {
    state.list.sort = event.target.value;
    search($("search").value);
  });
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
  new IntersectionObserver((entries) => {
    if (entries.some((entry) => entry.isIntersecting)) loadMore();
  }, { rootMargin: "0px 0px 200px 0px" }).observe($("sentinel"));
}

function wireList() {
  $("rows").addEventListener("click", (event) => {
    const star = event.target.closest("button.star");
    if (star) return toggleStar(star);
    const row = event.target.closest("tr");
    if (row) openDetail(row.dataset.productId, row.querySelector(".id-button"));
  });
}

function wireDetail() {
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

async function start() {
  wireDialogs();
  buildForm();
  wireImages();
  wireSearch();
  wireList();
  wireDetail();
  wireFacets();
  wireOutbox();
  wireImport();
  watchConnection();
  $("add-button").addEventListener("click", (event) => openEditor(null, event.currentTarget));
  onResolve((entry, opener) => openEditor(null, opener, entry));
  onReconnect(async () => {
    await sendWaiting();
    await loadFavorites();
    await search();
  });
  await loadFavorites();
  await search("");
  await refreshOutbox();
  await sendWaiting();
}

start();
