// What a search takes, as GET /api/schema describes it: the server's one list of filters and
// sorts (SearchSchema in the library), which the API, the command line and this page all read.

import { request } from "./api.js";

/** The schema once loaded: { filters: [{ name, label, values, … }], sorts: [{ name, label, descending }], fields, keeps }. */
export let schema = { filters: [], sorts: [], fields: [], keeps: {} };

/**
 * Loads the schema (offline, the service worker answers with the one it kept). Returns false when
 * none could be had: the page then knows no filter or sort beyond the best match.
 */
export async function loadSchema() {
  try {
    schema = await request("/api/schema");
    return true;
  } catch {
    return false;
  }
}

/** The filters' names, in the schema's order. */
export function filterNames() {
  return schema.filters.map((filter) => filter.name);
}
