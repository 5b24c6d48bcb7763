// The list's optional columns: which ones show is the person's choice, kept in this browser, made
// in the Columns menu at the end of the list's header. Beside the known fields, a feed's own
// columns (kept under their headers) are offered as the list meets them, hidden until chosen.

import { $ } from "./elements.js";
import { isKnownField, labelOf } from "./fields.js";

/** The optional columns, in the list's order: the field each shows (labelled as GET /api/schema labels it) and whether it shows until someone chooses. */
export const COLUMNS = [
  { key: "brand", field: "brand", shown: false },
  { key: "color", field: "color", shown: true },
  { key: "size", field: "size", shown: true },
  { key: "type", field: "productType", shown: true },
  { key: "stock", field: "quantity", shown: true },
  { key: "currency", field: "currency", shown: false },
];
const STORAGE_KEY = "productcatalog.columns";

function chosen() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) || "null");
    if (saved && typeof saved === "object") return saved;
  } catch {
    // an unreadable choice is no choice
  }
  return {};
}

/** The feed's own columns met in the list so far, in the order met. */
const extras = [];
let changed = () => {};

/** The feed's own columns chosen to show, in the order met. */
export function shownExtras() {
  const saved = chosen();
  return extras.filter((name) => saved["extra:" + name]);
}

/** Offers the columns of `products` that are no known field (a feed's own), once each. */
export function noteExtras(products) {
  let added = false;
  for (const product of products) {
    for (const key of Object.keys(product)) {
      if (isKnownField(key) || key === "highlights" || extras.includes(key)) continue;
      extras.push(key);
      $("columns-choices").append(choice("extra:" + key, key, isShown("extra:" + key)));
      added = true;
    }
  }
  if (added) headExtras();
}

/** The header cells of the chosen extra columns, before the Columns menu's. */
function headExtras() {
  const row = $("columns-button").closest("tr");
  for (const cell of row.querySelectorAll("th.c-extra")) cell.remove();
  for (const name of shownExtras()) {
    const cell = document.createElement("th");
    cell.scope = "col";
    cell.className = "field-col c-extra";
    cell.textContent = name;
    row.insertBefore(cell, $("columns-button").closest("th"));
  }
}

function choice(key, label, checked) {
  const line = document.createElement("label");
  const box = document.createElement("input");
  box.type = "checkbox";
  box.dataset.column = key;
  box.checked = checked;
  line.append(box, " ", label);
  return line;
}

/** Whether the column `key` shows. */
export function isShown(key) {
  const saved = chosen();
  return key in saved ? Boolean(saved[key]) : COLUMNS.find((column) => column.key === key)?.shown ?? false;
}

function apply() {
  for (const column of COLUMNS) $("results").classList.toggle(`hide-${column.key}`, !isShown(column.key));
}

export function wireColumns(onChange) {
  const choices = $("columns-choices");
  for (const column of COLUMNS) {
    choices.append(choice(column.key, labelOf(column.field), isShown(column.key)));
    document.querySelector(`#results thead th.c-${column.key}`).textContent = labelOf(column.field);
  }
  const button = $("columns-button");
  const show = (open) => {
    choices.hidden = !open;
    button.setAttribute("aria-expanded", String(open));
    if (open) choices.querySelector("input").focus();
  };
  button.addEventListener("click", () => show(choices.hidden));
  choices.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    show(false);
    button.focus();
  });
  // A click elsewhere closes the menu.
  document.addEventListener("click", (event) => {
    if (!choices.hidden && !choices.contains(event.target) && event.target !== button) show(false);
  });
  choices.addEventListener("change", (event) => {
    const box = event.target.closest("input[data-column]");
    if (!box) return;
    const saved = chosen();
    saved[box.dataset.column] = box.checked;
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify(saved));
    } catch {
      // private browsing without storage: the choice holds until the page reloads
    }
    apply();
    headExtras();
    onChange();
  });
  apply();
}
