// The product fields the editor shows, in order, with their labels and hints.

export const FIELDS = [
  { name: "productId", label: "productId", hint: "Required, at most 255 characters (fewer with accents)." },
  { name: "title", label: "Title", hint: "Required.", wide: true },
  { name: "listPrice", label: "List price", hint: "For example 19.99", inputmode: "decimal" },
  { name: "salesPrice", label: "Sale price", hint: "Not above the list price.", inputmode: "decimal" },
  { name: "color", label: "Color" },
  { name: "size", label: "Size" },
  { name: "productType", label: "Type", hint: "Pick one the catalog uses, or type a new one.", list: "type-options" },
  { name: "taxRate", label: "Tax rate (%)", hint: "From 0 to 100.", inputmode: "decimal" },
  { name: "imageURL", label: "Image address", hint: "http:// or https://, or choose a picture below.", wide: true },
  { name: "brand", label: "Brand" },
  { name: "groupId", label: "Product family", hint: "Variants of one product share it." },
  { name: "options", label: "Options", hint: "A variant's options by name, such as Length: 14 Inches; Color: beige", wide: true },
  { name: "currency", label: "Currency", hint: "A code such as USD or EUR." },
  { name: "quantity", label: "Stock", hint: "A whole number; empty when unknown.", inputmode: "numeric" },
  { name: "description", label: "Description", wide: true },
];

export const KNOWN_FIELDS = new Set(FIELDS.map((field) => field.name));
