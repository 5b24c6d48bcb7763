// Elements: lookup by id, product pictures (with a placeholder), text for screen readers only.

export const $ = (id) => document.getElementById(id);

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

/** Text read by screen readers and not shown. */
export function hiddenText(text) {
  const span = document.createElement("span");
  span.className = "visually-hidden";
  span.textContent = text;
  return span;
}
