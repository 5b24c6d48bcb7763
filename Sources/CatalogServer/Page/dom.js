// Small helpers every module uses: element lookup, number and time formats, images.

export const $ = (id) => document.getElementById(id);

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

const PLACEHOLDER_IMAGE = "data:image/svg+xml," + encodeURIComponent(
  "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 40 40'>" +
  "<rect width='40' height='40' rx='6' fill='#c9ced6'/>" +
  "<path d='M7 31l9-11 6 7 4-5 7 9z' fill='#8a919b'/><circle cx='27' cy='13' r='4' fill='#8a919b'/></svg>");

/** An image of `url`, or the built-in placeholder when there is none or it fails to load. */
export function thumbnail(url, className, size) {
  const image = document.createElement("img");
  image.className = className;
  image.alt = "";
  image.width = size;
  image.height = size;
  image.loading = "lazy";
  setImage(image, url);
  return image;
}

/** Shows `url` (a web address, or an image this server stores under /images/) in `image`. */
export function setImage(image, url) {
  image.onerror = () => {
    image.onerror = null;
    image.src = PLACEHOLDER_IMAGE;
  };
  image.src = url && (/^https?:\/\//i.test(url) || url.startsWith("/images/")) ? url : PLACEHOLDER_IMAGE;
}

export function hiddenText(text) {
  const span = document.createElement("span");
  span.className = "visually-hidden";
  span.textContent = text;
  return span;
}
