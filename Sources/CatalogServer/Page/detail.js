// The detail dialog: every field of one product, its variants, and the way to edit or delete it.

import { $, setImage } from "./elements.js";
import { request, productPath } from "./api.js";
import { state } from "./state.js";
import { openDialog } from "./dialogs.js";
import { showMessage } from "./messages.js";
import { labelOf } from "./fields.js";
import { starButton } from "./list.js";
import { recordOpened } from "./address.js";
import { counted, formatPrice, numberFormat, optionPairs, thousandths } from "./formats.js";

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
  showSummary(product, null);
  const fields = $("detail-fields");
  fields.replaceChildren();
  // The description comes after the stock, in a section of its own; a quantity no one gave is not a field.
  $("description-text").textContent = product.description || "";
  $("detail-description").hidden = !product.description;
  // A variant's options as chips under the summary, not as a line of text among the fields.
  const chips = optionPairs(product.options).map((option) => {
    const chip = document.createElement("li");
    chip.textContent = `${option.name}: ${option.value}`;
    return chip;
  });
  $("detail-options").replaceChildren(...chips);
  $("detail-options").hidden = chips.length === 0;
  for (const [key, value] of Object.entries(product)) {
    if (key === "description" || key === "options" || (key === "quantity" && value === null)) continue;
    const label = labelOf(key);
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

/**
 * The line under the title: what the product sells for in its currency (and its list price when
 * on sale), and its stock: the sum over its stores when it has stock by store, else its quantity.
 */
function showSummary(product, stores) {
  const parts = [];
  const onSale = product.salesPrice !== null && product.listPrice !== null && thousandths(product.salesPrice) < thousandths(product.listPrice);
  const shown = onSale ? product.salesPrice : product.listPrice ?? product.salesPrice;
  if (shown !== null) parts.push(formatPrice(shown, product.currency) + (onSale ? ` (was ${formatPrice(product.listPrice, product.currency)})` : ""));
  if (stores && stores.length) {
    const total = stores.reduce((sum, entry) => sum + entry.quantity, 0);
    parts.push(`${numberFormat.format(total)} in stock`, counted(stores.length, "store"));
  } else if (product.quantity !== null && product.quantity !== undefined) {
    parts.push(product.quantity > 0 ? `${numberFormat.format(product.quantity)} in stock` : "Out of stock");
  }
  $("detail-summary").textContent = parts.join(" · ");
}

/**
 * The family's variants (same groupId), this one among them, as a table: options, price, stock
 * and productId, which opens the variant's own detail.
 */
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
  if (state.current !== product || body.products.length < 2) return;
  $("variants-title").textContent = `Variants of this product (${numberFormat.format(body.products.length)} in the family “${product.groupId}”)`;
  for (const variant of body.products) {
    const row = document.createElement("tr");
    const options = document.createElement("td");
    options.textContent = optionPairs(variant.options).map((option) => `${option.name}: ${option.value}`).join(" · ") ||
      [variant.color, variant.size].filter(Boolean).join(" · ") || "—";
    const price = document.createElement("td");
    price.className = "number";
    price.textContent = formatPrice(variant.salesPrice ?? variant.listPrice, variant.currency) || "—";
    const stock = document.createElement("td");
    stock.className = "number";
    const stores = body.stock?.[variant.productId];
    const quantity = stores ? stores.reduce((sum, entry) => sum + entry.quantity, 0) : variant.quantity;
    stock.textContent = quantity === null || quantity === undefined ? "—" : numberFormat.format(quantity);
    const id = document.createElement("td");
    if (variant.productId === product.productId) {
      id.textContent = `${variant.productId} (this one)`;
      row.className = "current";
    } else {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "id-button";
      button.dataset.variant = variant.productId;
      button.textContent = variant.productId;
      id.append(button);
    }
    row.append(options, price, stock, id);
    $("variant-list").append(row);
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
  showSummary(product, body.stock);
}
