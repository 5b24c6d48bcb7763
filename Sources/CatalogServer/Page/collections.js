// Collections beside the search: a chip per collection (a manual one with its count), which shows
// it as the list; the selected rows added to one, new or existing, or taken out of the one shown;
// the one shown deleted (after a question); the search saved as a smart one.
// A collection is shown by going to the address of its search (`collection=Summer`, or a smart
// one's own `q=linen&sort=price`), so Back, reload and the export links follow it like any search.

import { $ } from "./elements.js";
import { counted, numberFormat } from "./formats.js";
import { request } from "./api.js";
import { state } from "./state.js";
import { search, onNewSearch } from "./list.js";
import { showMessage } from "./messages.js";
import { MAX_CHOSEN, chosenProductIds, clearSelection } from "./selection.js";

/** The collections as the server last listed them. */
let collections = [];

/** Lists the collections again (after a change, or when the server is back). */
export async function loadCollections() {
  try {
    collections = (await request("/api/collections")).collections;
  } catch {
    return; // the chips stay as they were
  }
  render();
}

/** The address's search without the open product, to save as a smart collection. */
function currentSearch() {
  const params = new URLSearchParams(location.search);
  params.delete("product");
  return params.toString();
}

/** `search`'s parameters in one order, to compare a collection's with the address's. */
function normalized(search) {
  const params = new URLSearchParams(search);
  params.delete("product");
  params.sort();
  return params.toString();
}

function render() {
  const chips = $("collection-chips");
  const shown = normalized(location.search);
  chips.replaceChildren();
  // The same chips in the top bar, where they are in view without opening the filters (wide screens).
  const top = $("top-collections");
  top.replaceChildren();
  top.hidden = collections.length === 0;
  for (const collection of collections) {
    const chip = document.createElement("button");
    chip.type = "button";
    chip.className = "chip";
    chip.dataset.search = collection.search;
    chip.setAttribute("aria-pressed", String(shown === normalized(collection.search)));
    chip.textContent = collection.name;
    const count = document.createElement("span");
    count.className = "chip-count";
    count.textContent = collection.kind === "manual" ? numberFormat.format(collection.products) : "smart";
    chip.append(" ", count);
    top.append(chip.cloneNode(true));
    chips.append(chip);
  }
  if (collections.length === 0) chips.textContent = "None yet: select rows and add them to one, or save a search.";
  const names = $("collection-names");
  names.replaceChildren(...collections.filter((entry) => entry.kind === "manual").map((entry) => new Option(entry.name)));
  const manual = state.list.filters.collection[0];
  if ($("collection-heading").textContent !== `Collection “${manual}”`) askDelete(false);
  $("collection-bar").hidden = !manual;
  $("collection-heading").textContent = manual ? `Collection “${manual}”` : "";
  $("bulk-collection-remove").hidden = !manual;
  $("bulk-collection-remove").textContent = manual ? `Take out of “${manual}”` : "";
}

/** Shows (or hides) the question before the collection shown is deleted. */
function askDelete(asking) {
  $("collection-delete").hidden = asking;
  $("collection-delete-confirm").hidden = !asking;
  $("collection-delete-question").textContent = asking ? `Delete the collection “${state.list.filters.collection[0]}”? Its products stay in the catalog.` : "";
  if (asking) $("collection-delete-no").focus();
}

/** Goes to the address `search` (with `?`, or empty for the whole catalog), as Back would show it. */
function go(search) {
  history.pushState({ product: null }, "", location.pathname + (search ? "?" + search : ""));
  window.dispatchEvent(new PopStateEvent("popstate"));
}

/** Deletes the collection shown, then lists the whole catalog. */
async function deleteShown() {
  const name = state.list.filters.collection[0];
  askDelete(false);
  try {
    await request(`/api/collections/${encodeURIComponent(name)}`, { method: "DELETE" });
  } catch (error) {
    showMessage(`The collection was not deleted: ${error.message}`, true);
    return;
  }
  showMessage(`Deleted the collection “${name}”; its products stay in the catalog.`);
  go("");
  await loadCollections();
}

/** Takes the selected products out of the collection shown. */
async function removeSelected() {
  const name = state.list.filters.collection[0];
  if (!name || state.selection.size === 0) return;
  let answer;
  try {
    const { ids: productIds } = await chosenProductIds(MAX_CHOSEN);
    answer = await request(`/api/collections/${encodeURIComponent(name)}/products`, { method: "DELETE", json: { productIds } });
  } catch (error) {
    showMessage(`Nothing was taken out: ${error.message}`, true);
    return;
  }
  showMessage(`Took ${counted(answer.changed, "product")} out of “${answer.collection.name}”, which holds ${counted(answer.collection.products, "product")}.`);
  clearSelection();
  await loadCollections();
  await search();
}

/** Shows a collection: its search becomes the address and the list (as Back would show it); the chip of the one shown leaves it for the whole catalog. */
function show(chip) {
  go(chip.getAttribute("aria-pressed") === "true" ? "" : new URLSearchParams(chip.dataset.search).toString());
}

/** Puts the selected products in the collection typed, making it when it is new. */
async function addSelected(name) {
  if (state.selection.size === 0) return;
  // A name the page knows goes to that collection; another makes one (asking first would be a 404 to log).
  const known = collections.some((entry) => entry.name.toLowerCase() === name.toLowerCase());
  let answer;
  try {
    // A family chosen from its row puts every variant in.
    const { ids: productIds } = await chosenProductIds(MAX_CHOSEN);
    if (known) {
      answer = await request(`/api/collections/${encodeURIComponent(name)}/products`, { method: "POST", json: { productIds } });
    } else {
      const made = await request("/api/collections", { method: "POST", json: { name, productIds } });
      answer = { changed: made.products, unknown: [], collection: made };
    }
  } catch (error) {
    showMessage(`Nothing was added: ${error.message}`, true);
    return;
  }
  const unknown = answer.unknown.length ? ` ${counted(answer.unknown.length, "product")} no longer in the catalog.` : "";
  showMessage(`Added ${counted(answer.changed, "product")} to “${answer.collection.name}”, which holds ${counted(answer.collection.products, "product")}.${unknown}`);
  $("bulk-collection").value = "";
  await loadCollections();
  if (state.list.filters.collection.length) await search();
}

/** Opens or closes the form that names a smart collection. */
function toggleSaveForm(open) {
  $("collection-save-form").hidden = !open;
  $("collection-save").setAttribute("aria-expanded", String(open));
  if (open) $("collection-save-name").focus();
}

/** Saves the list's search (query, filters, sort) as a smart collection named `name`. */
async function saveSearch(name) {
  const params = new URLSearchParams(currentSearch());
  if (params.has("collection")) {
    showMessage("A smart collection cannot search another collection; leave the collection first.", true);
    return;
  }
  try {
    const made = await request("/api/collections", { method: "POST", json: { name, search: params.toString() } });
    showMessage(`Saved the search as the smart collection “${made.name}”.`);
  } catch (error) {
    showMessage(`The collection was not saved: ${error.message}`, true);
    return;
  }
  $("collection-save-name").value = "";
  toggleSaveForm(false);
  await loadCollections();
}

export function wireCollections() {
  for (const container of [$("collection-chips"), $("top-collections")]) {
    container.addEventListener("click", (event) => {
      const chip = event.target.closest(".chip");
      if (chip) show(chip);
    });
  }
  $("bulk-collection-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = $("bulk-collection").value.trim();
    if (name) addSelected(name);
  });
  $("collection-delete").addEventListener("click", () => askDelete(true));
  $("collection-delete-no").addEventListener("click", () => {
    askDelete(false);
    $("collection-delete").focus();
  });
  $("collection-delete-yes").addEventListener("click", deleteShown);
  $("bulk-collection-remove").addEventListener("click", removeSelected);
  $("collection-save").addEventListener("click", () => toggleSaveForm($("collection-save-form").hidden));
  $("collection-save-cancel").addEventListener("click", () => toggleSaveForm(false));
  $("collection-save-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = $("collection-save-name").value.trim();
    if (name) saveSearch(name);
  });
  // Each search may show another collection, or none: the chips and the heading follow.
  onNewSearch(() => queueMicrotask(render));
}
