// The detail dialog: every field of one product, its variants, and the way to edit or delete it.

import { $, setImage } from "./elements.js";
import { request, productPath } from "./api.js";
import { state } from "./state.js";
import { openDialog } from "./dialogs.js";
import { showMessage } from "./messages.js";
import { FIELDS } from "./fields.js";
import { starButton } from "./list.js";
import { recordOpened } from "./address.js";
import { numberFormat } from "./formats.js";

/** Opens the detail of `productId` and puts it in the address; focus goes back to `opener` when it closes. */
export async function openDetail(productId, opener) {
  let product;
  try {
    product = await request(productPath(productId));
  } catch (error) {
    showMessage(error.message, true);
    return;
  }
  state.current = product;
  $("detail-title").textContent = product.title || product.productId;
  setImage($("detail-image"), product.imageURL);
  $("detail-image").alt = product.imageURL ? `Image of ${product.title || product.productId}` : "";
  $("detail-star").replaceChildren(starButton(product.productId));
  const fields = $("detail-fields");
  fields.replaceChildren();
  for (const [key, value] of Object.entries(product)) {
    const label = FIELDS.find((field) => field.name === key)?.label ?? key;
    const term = document.createElement("dt");
    term.textContent = label;
    const detail = document.createElement("dd");
    detail.textContent = value === null || value === "" ? "—" : value;
    fields.append(term, detail);
  }
  showVariants(product);
  showStock(product);
  openDialog($("detail"), opener);
  recordOpened(product.productId);
}

/** Lists the other products of the same family (groupId), each a link to its own detail. */
async function showVariants(product) {
  const section = $("detail-variants");
  section.hidden = true;
  $("variant-list").replaceChildren();
  if (!product.groupId) return;
  let body;
  try {
    body = await request(productPath(product.productId) + "/variants");
  } catch {
    return; // the detail is whole without them
  }
  if (state.current !== product) return;
  const others = body.products.filter((variant) => variant.productId !== product.productId);
  if (others.length === 0) return;
  $("variants-title").textContent = `Variants of this product (${others.length + 1} in the family “${product.groupId}”)`;
  for (const variant of others) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "id-button";
    button.dataset.variant = variant.productId;
    button.textContent = variant.productId;
    const fields = [variant.color, variant.size, variant.salesPrice || variant.listPrice].filter(Boolean).join(" · ");
    item.append(button, document.createTextNode(fields ? " " + fields : ""));
    $("variant-list").append(item);
  }
  section.hidden = false;
}

/** The product's quantity at each store (catalog import-stock), and their sum; hidden when it has none. */
async function showStock(product) {
  const section = $("detail-stock");
  section.hidden = true;
  $("stock-rows").replaceChildren();
  let body;
  try {
    body = await request(productPath(product.productId) + "/stock");
  } catch {
    return; // the detail is whole without it
  }
  if (state.current !== product || body.stock.length === 0) return;
  let total = 0;
  for (const entry of body.stock) {
    const row = document.createElement("tr");
    const store = document.createElement("td");
    store.textContent = entry.store;
    const quantity = document.createElement("td");
    quantity.className = "number";
    quantity.textContent = numberFormat.format(entry.quantity);
    row.append(store, quantity);
    $("stock-rows").append(row);
    total += entry.quantity;
  }
  $("stock-total").textContent = numberFormat.format(total);
  section.hidden = false;
}
