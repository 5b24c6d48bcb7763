// The list's order: the sort menu and the sortable column headers, which show the same choice.

import { $ } from "./dom.js";
import { state } from "./state.js";
import { search } from "./list.js";

/** Shows `state.list.sort` in the menu and on the headers: the sorted column's arrow and `aria-sort`. */
export function showSort() {
  const sort = state.list.sort;
  $("sort").value = sort;
  for (const button of document.querySelectorAll(".sort-button")) {
    const sorts = button.dataset.sorts.split(" ");
    const header = button.closest("th");
    const index = sorts.indexOf(sort);
    // Newest is an order of its own, not of the column it sits in: it marks the button, not the column.
    const descending = sort.startsWith("-") || sort === "newest";
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

export function wireSorting() {
  $("sort").addEventListener("change", (event) => sortBy(event.target.value));
  // A header cycles through its orders (ascending, then descending where there is one), then back to the best match.
  $("results").querySelector("thead").addEventListener("click", (event) => {
    const button = event.target.closest(".sort-button");
    if (!button) return;
    const sorts = button.dataset.sorts.split(" ");
    const index = sorts.indexOf(state.list.sort);
    sortBy(index + 1 < sorts.length ? sorts[index + 1] : "relevance");
  });
}
