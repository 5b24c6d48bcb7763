// The product fields: their labels, hints and kinds of value come from GET /api/schema (the
// library's ProductField); this file says only how the editor lays them out.

import { schema } from "./schema.js";

/** The editor's order, and which fields take a whole line or suggest values; a field the schema adds comes after them. */
const LAYOUT = [
  { name: "productId" },
  { name: "title", wide: true },
  { name: "listPrice" },
  { name: "salesPrice" },
  { name: "color" },
  { name: "size" },
  { name: "productType", list: "type-options" },
  { name: "taxRate" },
  { name: "imageURL", wide: true },
  { name: "brand" },
  { name: "groupId" },
  { name: "options", wide: true },
  { name: "currency" },
  { name: "quantity" },
  { name: "description", wide: true },
];

/** The keyboard a kind of value asks for. */
const INPUT_MODES = { decimal: "decimal", wholeNumber: "numeric" };

/** The fields the editor shows, in order: { name, label, hint, inputmode, wide, list }. */
export function fields() {
  const described = new Map(schema.fields.map((field) => [field.name, field]));
  const laidOut = LAYOUT.filter((field) => described.has(field.name) || !schema.fields.length);
  const added = schema.fields.filter((field) => !LAYOUT.some((known) => known.name === field.name)).map((field) => ({ name: field.name }));
  return [...laidOut, ...added].map((field) => {
    const description = described.get(field.name) ?? {};
    return {
      ...field,
      label: description.label ?? field.name,
      hint: description.hint ?? undefined,
      inputmode: INPUT_MODES[description.value],
    };
  });
}

/** Whether `name` is a known field (not a feed's own column). */
export function isKnownField(name) {
  return schema.fields.some((field) => field.name === name) || LAYOUT.some((field) => field.name === name);
}

/** What a person calls the field `name`: its label, or for a feed's own column its header. */
export function labelOf(name) {
  return schema.fields.find((field) => field.name === name)?.label ?? name;
}
