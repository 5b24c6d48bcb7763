// The view in the address bar: the query, the filters, the sort and the open product live in the
// URL, so Back and Forward move through them and a reload or a shared link shows the same view.
// A chosen filter, sort or product is a new history entry; the keystrokes of one query update one entry.

import { $ } from "./elements.js";
import { state } from "./state.js";
import { schema } from "./schema.js";

/** Filters the page keeps one value of though the API takes several: the page has one brand box. */
const ONE_ON_THE_PAGE = new Set(["brand"]);
/** True while the last entry was made by typing, so the next keystroke updates it instead of adding one. */
let typing = false;

/**
 * The address of the list as it is, with `productId` open: unless given, the one the detail
 * shows, or while it is still opening, the one the address names.
 */
function addressOf(productId = $("detail").open ? state.current?.productId : new URLSearchParams(location.search).get("product")) {
  const params = new URLSearchParams();
  if (state.list.query) params.set("q", state.list.query);
  for (const [name, values] of Object.entries(state.list.filters)) {
    for (const value of values) params.append(name, value);
  }
  if (state.list.sort !== "relevance") params.set("sort", state.list.sort);
  if (productId) params.set("product", productId);
  const text = params.toString();
  return location.pathname + (text ? "?" + text : "");
}

function record(address, { replace = false, product = null } = {}) {
  if (address === location.pathname + location.search) return;
  if (replace) history.replaceState({ product }, "", address);
  else history.pushState({ product }, "", address);
}

/** Records the list's search; `typed` when a keystroke changed it. */
export function recordSearch(typed) {
  record(addressOf(), { replace: typed && typing, product: history.state?.product ?? null });
  typing = typed;
}

/** Records that the detail of `productId` opened. */
export function recordOpened(productId) {
  typing = false;
  record(addressOf(productId), { product: productId });
}

/** Records that the detail closed: back to the entry it was opened from, or the same entry without it. */
export function recordClosed() {
  typing = false;
  if (!new URLSearchParams(location.search).has("product")) return;
  if (history.state?.product) history.back();
  else record(addressOf(null), { replace: true });
}

/** The view an address names: its query, filters, sort and open product. */
export function viewOf(search = location.search) {
  const params = new URLSearchParams(search);
  const filters = {};
  for (const filter of schema.filters) {
    const values = params.getAll(filter.name).filter((value) => value !== "");
    filters[filter.name] = filter.values !== "many" || ONE_ON_THE_PAGE.has(filter.name) ? values.slice(0, 1) : values;
  }
  const sort = schema.sorts.some((each) => each.name === params.get("sort")) ? params.get("sort") : "relevance";
  return { query: params.get("q") ?? "", filters, sort, product: params.get("product") || null };
}

/** Notes in the current entry how deep the list is scrolled, so that a reload can return there. */
export function recordDepth(rows, y) {
  history.replaceState({ ...(history.state || {}), rows, y }, "", location.href);
}

/** How deep the current entry's list was: { rows, y }, or zeros. */
export function depthOf() {
  return { rows: history.state?.rows ?? 0, y: history.state?.y ?? 0 };
}
