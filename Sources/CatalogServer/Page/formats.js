// Formats for people: counts, sizes, durations and prices as the page shows and reads them.

export const numberFormat = new Intl.NumberFormat("en-US");

/** "1 product", "2 products": `count` formatted, with the singular or plural noun. */
export function counted(count, singular, plural = singular + "s") {
  return `${numberFormat.format(count)} ${count === 1 ? singular : plural}`;
}

/** Exact thousandths of a decimal string such as "12.50" or "12.345", for comparing prices without floating point. */
export function thousandths(price) {
  const [whole, fraction = ""] = price.split(".");
  return Number(whole) * 1000 + Number((fraction + "000").slice(0, 3));
}

/** "12.3 MB": a size in bytes for people (decimal megabytes, as file browsers show them). */
export function formatBytes(bytes) {
  if (bytes < 1e6) return `${numberFormat.format(Math.round(bytes / 1e3))} kB`;
  return `${(bytes / 1e6).toLocaleString("en-US", { maximumFractionDigits: 1 })} MB`;
}

export function formatSeconds(seconds) {
  if (seconds < 10) return `${seconds.toFixed(1)} s`;
  if (seconds < 120) return `${Math.round(seconds)} s`;
  return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
}

/** "12,50" as "12.50": a decimal comma, as imports read one (a comma before 3 digits may be a thousands separator, and is left to the server to refuse). */
export function withDecimalPoint(text) {
  return /^\s*\d+,\d{1,2}\s*$/.test(text) ? text.replace(",", ".") : text;
}

const priceFormats = new Map();

/**
 * "¥12,100", "€19.50": a price (a decimal string, as the API gives one) in its currency's way, or
 * "1,234.50" when the product names no currency (or one the browser does not know).
 */
export function formatPrice(text, currency) {
  if (text === null || text === undefined || text === "") return "";
  const key = currency || "";
  if (!priceFormats.has(key)) {
    let format = null;
    try {
      format = currency ? new Intl.NumberFormat("en-US", { style: "currency", currency, currencyDisplay: "narrowSymbol" }) : null;
    } catch {
      format = null; // not a currency code the browser knows: the number alone
    }
    priceFormats.set(key, format);
  }
  const format = priceFormats.get(key);
  if (format) return format.format(Number(text));
  const [whole, fraction] = text.split(".");
  return numberFormat.format(Number(whole)) + (fraction !== undefined ? "." + fraction : "");
}

/**
 * A family listed as one result, in a few words: "12 variants · 4 lengths · 3 colors · $77.80–$153.00";
 * an option with one value across the family is named with it ("Color: black").
 */
export function familyPhrase(family, currency) {
  const parts = [counted(family.variants, "variant")];
  for (const option of family.options) {
    parts.push(option.values.length === 1 ? `${option.name}: ${option.values[0]}` : `${option.values.length} ${option.name.toLowerCase()}s`);
  }
  if (family.lowestPrice !== null && family.highestPrice !== null && family.lowestPrice !== family.highestPrice) {
    parts.push(`${formatPrice(family.lowestPrice, currency)}–${formatPrice(family.highestPrice, currency)}`);
  }
  return parts.join(" · ");
}

/** A variant's options (the field as stored: "Length: 14 Inches; Color: beige") as name and value pairs. */
export function optionPairs(text) {
  if (!text) return [];
  return text.split("; ").filter(Boolean).map((part) => {
    const colon = part.indexOf(": ");
    return colon < 0 ? { name: "Option", value: part } : { name: part.slice(0, colon), value: part.slice(colon + 2) };
  });
}
