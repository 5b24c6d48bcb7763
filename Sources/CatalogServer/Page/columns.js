// The list's optional columns: which ones show is the person's choice, kept in this browser, made
// in the Columns menu at the end of the list's header.

import { $ } from "./elements.js";

/** The optional columns, in the list's order, and whether each shows until someone chooses. */
export const COLUMNS = [
  { key: "brand", label: "Brand", shown: false },
  { key: "color", label: "Color", shown: true },
  { key: "size", label: "Size", shown: true },
  { key: "type", label: "Type", shown: true },
  { key: "stock", label: "Stock", shown: true },
  { key: "currency", label: "Currency", shown: false },
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

/** Whether the column `key` shows. */
export function isShown(key) {
  const saved = chosen();
  return key in saved ? Boolean(saved[key]) : COLUMNS.find((column) => column.key === key)?.shown ?? true;
}

function apply() {
  for (const column of COLUMNS) $("results").classList.toggle(`hide-${column.key}`, !isShown(column.key));
}

export function wireColumns(onChange) {
  const choices = $("columns-choices");
  for (const column of COLUMNS) {
    const label = document.createElement("label");
    const box = document.createElement("input");
    box.type = "checkbox";
    box.dataset.column = column.key;
    box.checked = isShown(column.key);
    label.append(box, " ", column.label);
    choices.append(label);
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
    onChange();
  });
  apply();
}
