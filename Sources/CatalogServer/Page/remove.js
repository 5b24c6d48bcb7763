// Delete: asked for once, then the list closes up and focus goes to the product that followed.

import { $ } from "./elements.js";
import { request, productPath, Unreachable } from "./api.js";
import { state } from "./state.js";
import { openDialog, closeDialog, returnFocusTo } from "./dialogs.js";
import { showMessage } from "./messages.js";
import { search, focusRow } from "./list.js";

export function askDelete(opener) {
  const current = state.current;
  $("confirm-text").textContent = `“${current.title || current.productId}” (${current.productId}) will be removed from the catalog. This cannot be undone.`;
  $("confirm-error").textContent = "";
  openDialog($("confirm"), opener);
}

export async function deleteCurrent() {
  const productId = state.current.productId;
  const rows = [...$("rows").children];
  const index = rows.findIndex((row) => row.dataset.productId === productId);
  const neighbour = index >= 0 ? (rows[index + 1] || rows[index - 1]) : null;
  const button = $("confirm-delete");
  button.disabled = true;
  try {
    await request(productPath(productId), { method: "DELETE" });
    state.favorites.delete(productId);
    returnFocusTo($("confirm"), $("search"));
    returnFocusTo($("detail"), $("search"));
    closeDialog($("confirm"));
    closeDialog($("detail"));
    await search();
    if (!(neighbour && focusRow(neighbour.dataset.productId))) $("search").focus();
    showMessage(`Deleted ${productId}.`);
  } catch (error) {
    $("confirm-error").textContent = error instanceof Unreachable
      ? "The server cannot be reached, so the product was not deleted. Try again when the connection is back."
      : error.message;
  } finally {
    button.disabled = false;
  }
}
