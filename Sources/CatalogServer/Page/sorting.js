// The list's order: the sort menu and the sortable column headers, which show the same choice.

import { $ } from "./elements.js";
import { state } from "./state.js";
import { search } from "./list.js";
import { schema } from "./schema.js";

/** The sorts whose largest value comes first, as `GET /api/schema` describes them. */
const descendingSorts = new Set();

/** Fills the sort menu with the sorts `GET /api/schema` lists (the one description the API and the CLI read too), with their labels. */
export function showSorts() {
  if (schema.sorts.length === 0) return;
  $("sort").replaceChildren(...schema.sorts.map((sort) => new Option(sort.label, sort.name)));
  descendingSorts.clear();
  for (const sort of schema.sorts) if (sort.descending) descendingSorts.add(sort.name);
  showSort();
}

/** Shows `state.list.sort` in the menu and on the headers: the sorted column's arrow and `aria-sort`. */
export function showSort() {
  const sort = state.list.sort;
  $("sort").value = sort;
  for (const button of document.querySelectorAll(".sort-button[data-sorts]")) {
    const sorts = button.dataset.sorts.split(" ");
    const header = button.closest("th");
    const index = sorts.indexOf(sort);
    // Newest is an order of its own, not of the column it sits in: it marks the button, not the column.
    const descending = descendingSorts.has(sort);
    if (header.hasAttribute("aria-sort")) header.setAttribute("aria-sort", index < 0 ? "none" : descending ? "descending" : "ascending");
    else button.setAttribute("aria-pressed", String(index >= 0));
    button.querySelector(".sort-arrow").textContent = index < 0 ? "" : descending ? " ▼" : " ▲";
  }
}

function sortBy(sort) {
  state.list.sort = sort;
  showSort();
  search($("search").value);
}

/**
 * The list's header is one Tab stop, so that the first row is few Tabs from the search box: the
 * arrow keys, Home and End move between its controls, and the last one used keeps the stop.
 */
function wireHeaderKeys() {
  const head = $("results").querySelector("thead");
  // The Columns menu's boxes are its own: Tab moves among them while it is open.
  const controls = [...head.querySelectorAll("input, button")].filter((control) => !control.closest("#columns-choices"));
  const keep = (control) => controls.forEach((each) => { each.tabIndex = each === control ? 0 : -1; });
  keep(controls[0]);
  head.addEventListener("focusin", (event) => { if (controls.includes(event.target)) keep(event.target); });
  head.addEventListener("keydown", (event) => {
    const index = controls.indexOf(document.activeElement);
    const next = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: controls.length - 1 }[event.key];
    if (index < 0 || next === undefined || next < 0 || next >= controls.length) return;
    event.preventDefault();
    controls[next].focus();
  });
}

export function wireSorting() {
  wireHeaderKeys();
  $("sort").addEventListener("change", (event) => sortBy(event.target.value));
  // A header cycles through its orders (ascending, then descending where there is one), then back to the best match.
  $("results").querySelector("thead").addEventListener("click", (event) => {
    const button = event.target.closest(".sort-button[data-sorts]");
    if (!button) return;
    const sorts = button.dataset.sorts.split(" ");
    const index = sorts.indexOf(state.list.sort);
    sortBy(index + 1 < sorts.length ? sorts[index + 1] : "relevance");
  });
}
