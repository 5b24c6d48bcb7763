// What a bulk action acts on: the rows selected, where a family's row (a product listed for its
// family, not opened into its variants) stands for every variant of the family, and a variant's
// row for that variant alone.

import { request, productPath } from "./api.js";
import { state } from "./state.js";

/** The most products one bulk action or collection change acts on: the server's limit for a batch. */
export const MAX_CHOSEN = 1000;

/** The productIds selected through a family's row: each stands for its whole family. */
const families = new Set();

/** Notes whether `productId`, just selected or taken out, was chosen as a whole family (from its family's row). */
export function noteChosen(productId, asFamily) {
  if (asFamily && state.selection.has(productId)) families.add(productId);
  else families.delete(productId);
}

/** The selected families: those chosen from their row that are still selected. */
export function chosenFamilies() {
  return [...families].filter((productId) => state.selection.has(productId));
}

/** Empties the selection. */
export function clearSelection() {
  state.selection.clear();
  families.clear();
}

/**
 * The productIds a bulk action acts on, at most `limit`, each once: every variant of each family
 * chosen (read from the server, 8 families at a time), the others as they are. `truncated` says
 * whether more were chosen than `limit`.
 */
export async function chosenProductIds(limit) {
  const chosen = new Set(chosenFamilies());
  const selected = [...state.selection];
  const variants = new Map();
  const wanted = selected.filter((productId) => chosen.has(productId));
  for (let start = 0; start < wanted.length; start += 8) {
    const answers = await Promise.all(wanted.slice(start, start + 8).map((productId) => request(productPath(productId) + "/variants")));
    answers.forEach((answer, index) => variants.set(wanted[start + index], answer.products.map((product) => product.productId)));
  }
  const ids = [];
  const seen = new Set();
  for (const productId of selected) {
    for (const id of variants.get(productId) ?? [productId]) {
      if (seen.has(id)) continue;
      seen.add(id);
      ids.push(id);
    }
  }
  return { ids: ids.slice(0, limit), truncated: ids.length > limit };
}
