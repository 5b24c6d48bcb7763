// Filter chips: the most common types, colors, sizes and stores (in stock there) of the current matches, with counts,
// then the variants' options by name (Length, Material…); a chip filters, and several chips of one
// field or option match any of them (Black or Navy). A field with chosen values is counted without
// its own filter, so its other values stay to be added; options are counted without the option filters.

import { $ } from "./elements.js";
import { numberFormat, thousandths, withDecimalPoint } from "./formats.js";
import { request } from "./api.js";
import { state } from "./state.js";
import { search, onNewSearch } from "./list.js";
import { schema } from "./schema.js";

/** The counted fields' groups of chips, each labelled as GET /api/schema labels its filter. */
const GROUPS = [
  { key: "productType", filter: "type" },
  { key: "color", filter: "color" },
  { key: "size", filter: "size" },
  // Only a catalog with stock by store (catalog import-stock) counts stores.
  { key: "store", filter: "store" },
];

/** What the filter `name` is called: its label in the schema. */
function labelOf(name) {
  return schema.filters.find((filter) => filter.name === name)?.label ?? name;
}
/** The options' chips: one group per option name, each chip's value `Name:Value`. */
const OPTIONS = { key: "options", filter: "option" };
let generation = 0;
let controller = null;

/** Counts the matches of the search that just started; the request of the one before is cancelled. */
async function loadFacets(params) {
  const mine = ++generation;
  if (controller) controller.abort();
  controller = new AbortController();
  const signal = controller.signal;
  let counts;
  try {
    const chosen = [...GROUPS, OPTIONS].filter((group) => params.has(group.filter));
    const answers = await Promise.all([params, ...chosen.map((group) => without(params, group.filter))]
      .map((query) => request("/api/facets?" + query, { signal })));
    counts = answers[0];
    chosen.forEach((group, index) => {
      const own = answers[index + 1];
      if (group === OPTIONS) {
        counts.options = own.options;
        counts.optionsComplete = counts.optionsComplete && own.optionsComplete;
        return;
      }
      counts[group.key] = own[group.key];
      counts.complete = counts.complete && own.complete;
    });
  } catch {
    return; // the chips stay as they were; the list says what went wrong
  }
  if (mine !== generation) return;
  render(counts);
}

/** `params` without the values of `name`. */
function without(params, name) {
  const copy = new URLSearchParams(params);
  copy.delete(name);
  return copy;
}

function render(counts) {
  const container = $("facet-groups");
  // Redrawing must not lose the keyboard's place: the focused chip is focused again.
  const focused = container.contains(document.activeElement) ? document.activeElement : null;
  const focusKey = focused ? focused.dataset.filter + "\n" + focused.dataset.value : null;
  container.replaceChildren();
  let any = false;
  const groups = GROUPS.map((group) => {
    const chosen = state.list.filters[group.filter];
    const values = counts[group.key] ? counts[group.key].values : [];
    // Chosen values stay as chips even when they are not among the most common.
    const shown = [...values];
    for (const value of chosen) {
      if (!shown.some((entry) => entry.value.toLowerCase() === value.toLowerCase())) shown.push({ value, count: null });
    }
    return { ...group, label: labelOf(group.filter), chips: shown.map((entry) => ({ ...entry, label: entry.value })), complete: counts.complete };
  });
  groups.push(...optionGroups(counts));
  for (const group of groups) {
    if (group.chips.length === 0) continue;
    any = true;
    const chosen = state.list.filters[group.filter];
    const fieldset = document.createElement("div");
    fieldset.className = "facet-group";
    fieldset.setAttribute("role", "group");
    fieldset.setAttribute("aria-label", group.label);
    const title = document.createElement("span");
    title.className = "facet-label";
    title.textContent = group.label;
    fieldset.append(title);
    for (const entry of group.chips) {
      const pressed = chosen.some((value) => value.toLowerCase() === entry.value.toLowerCase());
      const chip = document.createElement("button");
      chip.type = "button";
      chip.className = "chip";
      chip.dataset.filter = group.filter;
      chip.dataset.value = entry.value;
      chip.setAttribute("aria-pressed", String(pressed));
      chip.textContent = entry.label;
      if (entry.count !== null) {
        const count = document.createElement("span");
        count.className = "chip-count";
        count.textContent = numberFormat.format(entry.count) + (group.complete ? "" : "+");
        chip.append(" ", count);
      }
      fieldset.append(chip);
    }
    container.append(fieldset);
  }
  if (focusKey) {
    const again = [...container.querySelectorAll(".chip")].find((chip) => chip.dataset.filter + "\n" + chip.dataset.value === focusKey);
    if (again) again.focus();
  }
  const chosenCount = Object.values(state.list.filters).reduce((sum, values) => sum + values.length, 0);
  $("facets").hidden = !any && chosenCount === 0;
  $("facets-clear").hidden = chosenCount === 0;
  $("filters-toggle").textContent = chosenCount ? `Filters (${chosenCount})` : "Filters";
  $("facets-note").textContent = counts.complete ? "" : `Counts among the first ${numberFormat.format(counts.counted)} matches.`;
}

/**
 * One group per option name the matches have, and per name chosen but no longer among them: each
 * chip filters `option=Name:Value` and is labelled with its value.
 */
function optionGroups(counts) {
  const chosen = state.list.filters.option;
  // An option named as a field counted above (Color, Size) fills that field: its chips are there.
  const fields = GROUPS.map((group) => labelOf(group.filter).toLowerCase());
  const groups = (counts.options ?? []).filter((option) => !fields.includes(option.name.toLowerCase())).map((option) => ({
    filter: "option",
    label: option.name,
    complete: counts.optionsComplete,
    chips: option.values.map((entry) => ({ value: option.name + ":" + entry.value, label: entry.value, count: entry.count })),
  }));
  for (const value of chosen) {
    const colon = value.indexOf(":");
    const name = colon >= 0 ? value.slice(0, colon).trim() : "";
    let group = groups.find((entry) => entry.label.toLowerCase() === name.toLowerCase());
    if (!group) {
      group = { filter: "option", label: name || "Any option", complete: counts.optionsComplete, chips: [] };
      groups.push(group);
    }
    if (!group.chips.some((chip) => chip.value.toLowerCase() === value.toLowerCase())) {
      group.chips.push({ value, label: colon >= 0 ? value.slice(colon + 1).trim() : value, count: null });
    }
  }
  return groups;
}

async function toggleChip(chip) {
  const values = state.list.filters[chip.dataset.filter];
  const value = chip.dataset.value;
  const index = values.findIndex((entry) => entry.toLowerCase() === value.toLowerCase());
  if (index >= 0) values.splice(index, 1);
  else values.push(value);
  chip.setAttribute("aria-pressed", String(index < 0));
  await search();
}

/** A price as the filter takes one: digits, and up to three decimals after a point or a comma. */
const PRICE = /^\d{1,12}(\.\d{1,3})?$/;

/**
 * The price bounds typed, checked here before anything is sent: a bad one is marked, said next to
 * the fields, and the list stays as it was. Returns the bounds, or null when one is wrong.
 */
function priceBounds() {
  const bounds = {};
  const problems = [];
  for (const [name, label] of [["minPrice", "Price from"], ["maxPrice", "Price up to"]]) {
    const box = $("filter-" + name);
    const text = withDecimalPoint(box.value.trim());
    const wrong = text !== "" && !PRICE.test(text);
    box.setAttribute("aria-invalid", String(wrong));
    if (wrong) problems.push(`${label}: “${box.value.trim()}” is not a price; type a number such as 25 or 19.99.`);
    bounds[name] = text;
  }
  if (problems.length === 0 && bounds.minPrice && bounds.maxPrice && thousandths(bounds.minPrice) > thousandths(bounds.maxPrice)) {
    $("filter-minPrice").setAttribute("aria-invalid", "true");
    problems.push("Price from is above Price up to; swap them.");
  }
  $("filter-error").textContent = problems.join(" ");
  return problems.length ? null : bounds;
}

/** Takes the price range, brand, on-sale and in-stock from their controls, and searches when they changed. */
function readFilterBar() {
  const filters = state.list.filters;
  const before = JSON.stringify(filters);
  const bounds = priceBounds();
  if (!bounds) return;
  for (const name of ["minPrice", "maxPrice"]) filters[name] = bounds[name] ? [bounds[name]] : [];
  const brand = $("filter-brand").value.trim();
  filters.brand = brand ? [brand] : [];
  filters.onSale = $("filter-onSale").checked ? ["true"] : [];
  filters.inStock = $("filter-inStock").checked ? ["true"] : [];
  if (JSON.stringify(filters) !== before) search();
}

/** Lifts every filter (chips, price range, brand, the boxes) and searches again. */
export function clearFilters() {
  for (const values of Object.values(state.list.filters)) values.length = 0;
  showFilterBar();
  search();
}

/** Shows the filters' values in the price range, brand, on-sale and in-stock controls (after Back, a reload or Clear). */
export function showFilterBar() {
  const filters = state.list.filters;
  for (const name of ["minPrice", "maxPrice", "brand"]) $("filter-" + name).value = filters[name][0] ?? "";
  for (const name of ["minPrice", "maxPrice"]) $("filter-" + name).setAttribute("aria-invalid", "false");
  $("filter-error").textContent = "";
  $("filter-onSale").checked = filters.onSale.length > 0;
  $("filter-inStock").checked = filters.inStock.length > 0;
}

export function wireFacets() {
  onNewSearch(loadFacets);
  // The filters fold behind a button, which says how many are chosen.
  $("filters-toggle").addEventListener("click", () => {
    const open = $("filters").classList.toggle("open");
    $("filters-toggle").setAttribute("aria-expanded", String(open));
  });
  // At phone width the filters are a sheet over the list: its button folds it and shows the results.
  $("filters-done").addEventListener("click", () => {
    $("filters").classList.remove("open");
    $("filters-toggle").setAttribute("aria-expanded", "false");
    $("filters-toggle").focus();
  });
  $("facet-groups").addEventListener("click", (event) => {
    const chip = event.target.closest(".chip");
    if (chip) toggleChip(chip);
  });
  $("filter-form").addEventListener("change", readFilterBar);
  $("filter-form").addEventListener("submit", (event) => {
    event.preventDefault();
    readFilterBar();
  });
  $("facets-clear").addEventListener("click", () => {
    clearFilters();
    $("search").focus();
  });
}
