// Everything the page remembers, in one place. Modules read and change it; only list.js redraws the list.

export const state = {
  /** The search the list shows, its pages so far, and whether a page is in flight. */
  list: {
    query: "",
    /** The order of the list: relevance, price, -price, title or newest. */
    sort: "relevance",
    /**
     * Chosen filters, by API parameter, one list each for the filters `GET /api/schema` lists
     * (filled when the page starts): any of a filter's values matches, filters combine with AND;
     * those of one value hold at most one, and so does brand (the page has one brand box).
     */
    filters: {},
    cursor: null,
    hasMore: false,
    loading: false,
    generation: 0,
    controller: null,
  },
  /** The productIds of the rows selected for a bulk action (see bulk.js); rows drawn later show it too. */
  selection: new Set(),
  /** Starred products by productId, as the server last listed them. */
  favorites: new Map(),
  /** The product the detail dialog shows. */
  current: null,
  /** What the editor is doing: adding (productId null) or editing; `outboxKey` when it resolves a waiting change. */
  editing: { productId: null, outboxKey: null },
  /** False while the server cannot be reached. */
  reachable: true,
  /** Adds and edits kept in this browser until the server can take them (see outbox.js). */
  outbox: [],
};

/** True when the list shows the whole catalog in its own order: no query, no filter, no sort (starred products come first then). */
export function isUnfiltered() {
  const { query, filters, sort } = state.list;
  return query === "" && sort === "relevance" && Object.values(filters).every((values) => values.length === 0);
}
