// The filters in use, as pills above the list at every width (each removes its value, Clear all
// removes every one), and the empty list's words: what is filtered, how many match without the
// filters, and a button to clear them.

import { $ } from "./elements.js";
import { counted } from "./formats.js";
import { request } from "./api.js";
import { state } from "./state.js";
import { schema } from "./schema.js";
import { search, onNewSearch, onFirstPage } from "./list.js";
import { showFilterBar, clearFilters } from "./facets.js";

/** Filters shown otherwise than as pills: the options, as chips of their own. */
const NOT_PILLS = new Set(["option"]);
const BASES = { effective: "as sold", list: "by list price" };

/**
 * The filters in use, in the schema's order, each labelled as `GET /api/schema` names it; a flag
 * (on sale) shows its label alone: [{ name, value, text }].
 */
function inUse() {
  const filters = state.list.filters;
  return schema.filters.filter((filter) => !NOT_PILLS.has(filter.name)).flatMap((filter) => (filters[filter.name] || []).map((value) => ({
    name: filter.name, value,
    text: filter.values === "flag" ? filter.label : `${filter.label}: ${filter.name === "priceBasis" ? BASES[value] || value : value}`,
  })));
}

function remove(name, value) {
  const values = state.list.filters[name];
  const index = values.indexOf(value);
  if (index >= 0) values.splice(index, 1);
  showFilterBar();
  search();
}

function renderPills() {
  const pills = inUse();
  const container = $("pills");
  container.replaceChildren();
  container.hidden = pills.length === 0;
  for (const pill of pills) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "pill";
    button.dataset.filter = pill.name;
    button.dataset.value = pill.value;
    button.setAttribute("aria-label", `Remove the filter ${pill.text}`);
    button.append(pill.text, " ");
    const cross = document.createElement("span");
    cross.setAttribute("aria-hidden", "true");
    cross.textContent = "×";
    button.append(cross);
    container.append(button);
  }
  if (pills.length > 1) {
    const all = document.createElement("button");
    all.type = "button";
    all.className = "quiet small pill-clear";
    all.textContent = "Clear all";
    all.addEventListener("click", clearFilters);
    container.append(all);
  }
}

let emptyGeneration = 0;

/** Under an empty first page: what was searched, what filtered it, and the way out. */
async function renderEmpty(count) {
  const empty = $("empty");
  const mine = ++emptyGeneration;
  document.getElementById("empty-without")?.remove();
  const pills = inUse();
  const query = state.list.query;
  const collectionOnly = pills.length === 1 && pills[0].name === "collection" && query === "";
  if (count > 0 || collectionOnly || (query === "" && pills.length === 0)) {
    empty.hidden = true;
    return;
  }
  const text = $("empty-text");
  const actions = $("empty-actions");
  actions.replaceChildren();
  if (pills.length > 0) {
    const found = query === "" ? "No product has" : `No product matches “${query}” with`;
    text.textContent = `${found} ${pills.length === 1 ? "this filter" : `these ${pills.length} filters`}: ${pills.map((pill) => pill.text).join(" · ")}.`;
    actions.append(button("Clear the filters", clearFilters));
  } else {
    text.textContent = `No product matches “${query}”. Try fewer words, another spelling, or the start of a productId.`;
    actions.append(button("Clear the search", () => {
      $("search").value = "";
      search("");
      $("search").focus();
    }));
  }
  empty.hidden = false;
  if (pills.length > 0 && query !== "") {
    // How many the query finds without the filters, so that it is clear which side is too narrow.
    try {
      const page = await request("/api/products?" + new URLSearchParams({ q: query, limit: "1" }));
      if (mine !== emptyGeneration || page.count === 0) return;
      const note = document.createElement("p");
      note.id = "empty-without";
      note.className = "hint";
      note.textContent = `Without the filters, ${counted(page.count, "product")}${page.countComplete === false ? "+" : ""} ${page.count === 1 ? "matches" : "match"} “${query}”.`;
      actions.before(note);
    } catch {
      // the list said what it could; the count without the filters is a courtesy
    }
  }
}

function button(label, action) {
  const element = document.createElement("button");
  element.type = "button";
  element.className = "small";
  element.textContent = label;
  element.addEventListener("click", action);
  return element;
}

export function wirePills() {
  onNewSearch(() => {
    renderPills();
    emptyGeneration += 1;
    $("empty").hidden = true;
  });
  onFirstPage(renderEmpty);
  $("pills").addEventListener("click", (event) => {
    const pill = event.target.closest(".pill");
    if (pill) remove(pill.dataset.filter, pill.dataset.value);
  });
}
