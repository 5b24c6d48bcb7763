// Stars: a product starred here is listed first in the unfiltered list and marked everywhere.

import { request, productPath, Unreachable } from "./api.js";
import { state, isUnfiltered } from "./state.js";
import { paintStar, search } from "./list.js";
import { showMessage } from "./messages.js";
import { queueChange } from "./outbox.js";

/** Reads the starred products from the server. */
export async function loadFavorites() {
  try {
    const body = await request("/api/favorites");
    state.favorites = new Map(body.products.map((product) => [product.productId, product]));
  } catch (error) {
    if (!(error instanceof Unreachable)) showMessage("The starred products could not be read: " + error.message, true);
  }
}

/** The server cannot be reached: the star waits in this browser with the other changes, and shows at once. */
async function keepStarForLater(productId, starring) {
  try {
    const earlier = state.outbox.find((entry) => entry.kind === "star" && entry.productId === productId);
    await queueChange({ kind: "star", productId, body: { starred: starring }, image: null }, earlier ? earlier.key : null);
  } catch (error) {
    showMessage(`The star was not changed: the server cannot be reached, and this browser could not keep it (${error.message}).`, true);
    return;
  }
  for (const other of document.querySelectorAll(`[data-star="${CSS.escape(productId)}"]`)) paintStar(other, starring);
  showMessage(`The server cannot be reached: the ${starring ? "star" : "unstar"} of ${productId} is kept in this browser and will be sent when the connection is back.`);
}

/** Stars or unstars `productId` from the toggle `button`, then redraws the list when its order changes. */
export async function toggleStar(button) {
  const productId = button.dataset.star;
  // As the button shows it: a star kept in this browser while offline counts.
  const starring = button.getAttribute("aria-pressed") !== "true";
  button.disabled = true;
  try {
    await request("/api/favorites/" + encodeURIComponent(productId), { method: starring ? "PUT" : "DELETE" });
    if (starring) {
      state.favorites.set(productId, await request(productPath(productId)));
    } else {
      state.favorites.delete(productId);
    }
    for (const other of document.querySelectorAll(`[data-star="${CSS.escape(productId)}"]`)) paintStar(other, starring);
    showMessage(starring ? `Starred ${productId}: it is listed first.` : `Unstarred ${productId}.`);
    if (isUnfiltered()) {
      await search();
      const again = document.querySelector(`#rows [data-star="${CSS.escape(productId)}"]`);
      if (again) again.focus();
    }
  } catch (error) {
    if (error instanceof Unreachable) {
      await keepStarForLater(productId, starring);
    } else {
      showMessage(`The star was not changed: ${error.message}`, true);
    }
  } finally {
    if (document.contains(button)) button.disabled = false;
  }
}
