// The list from the keyboard, as in a mail client: j and k move between rows, x selects the row,
// e edits its product, Enter opens it (the row's productId is a button), / goes to the search box.
// The keys act only outside text fields, menus and open dialogs; what they do is said in a live region.

import { $ } from "./elements.js";
import { request, productPath } from "./api.js";
import { openEditor } from "./editor.js";
import { toggleSelection } from "./bulk.js";
import { showMessage } from "./messages.js";

function rows() {
  return [...$("rows").querySelectorAll("tr")].filter((row) => !row.hidden);
}

/** The row that holds the focus, if any. */
function focusedRow() {
  const row = document.activeElement?.closest?.("#rows tr");
  return row && !row.hidden ? row : null;
}

function say(text) {
  $("keys-status").textContent = text;
}

function move(step) {
  const all = rows();
  if (all.length === 0) return;
  const current = focusedRow();
  const index = current ? all.indexOf(current) + step : step > 0 ? 0 : all.length - 1;
  const row = all[Math.max(0, Math.min(all.length - 1, index))];
  const button = row.querySelector(".id-button");
  button.focus();
  button.scrollIntoView({ block: "nearest" });
  say(`Row ${all.indexOf(row) + 1} of ${all.length}: ${row.dataset.productId}`);
}

async function edit(row) {
  let product;
  try {
    product = await request(productPath(row.dataset.productId));
  } catch (error) {
    showMessage(error.message, true);
    return;
  }
  openEditor(product, row.querySelector(".id-button"));
}

export function wireKeys() {
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || document.querySelector("dialog[open]")) return;
    const target = event.target;
    if (target instanceof HTMLInputElement && target.type !== "checkbox" || target instanceof HTMLTextAreaElement ||
        target instanceof HTMLSelectElement || target.isContentEditable) return;
    const row = focusedRow();
    switch (event.key) {
      case "/":
        $("search").focus();
        break;
      case "j":
        move(1);
        break;
      case "k":
        move(-1);
        break;
      case "x":
        if (!row) return;
        say(toggleSelection(row) ? `Selected ${row.dataset.productId}` : `Unselected ${row.dataset.productId}`);
        break;
      case "e":
        if (!row || row.classList.contains("pending")) return;
        edit(row);
        break;
      default:
        return;
    }
    event.preventDefault();
  });
}
