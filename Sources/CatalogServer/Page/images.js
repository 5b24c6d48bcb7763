// A product image picked from disk: JPEG or PNG, cropped to a centred square in the browser, sent to the server.

import { $ } from "./elements.js";
import { request, productPath } from "./api.js";

const MAX_BYTES = 8 * 1024 * 1024;
const SIDE = 512;
let picked = null;

/** The cropped image waiting to be saved with the product, or null. */
export function pickedImage() {
  return picked;
}

export function clearPickedImage() {
  picked = null;
  $("image-file").value = "";
  $("image-error").textContent = "";
  $("image-preview").hidden = true;
}

/** Stores the picked image as the product's image; returns the product as the server now holds it. */
export async function uploadImage(productId) {
  const image = picked;
  const product = await request(productPath(productId) + "/image", { method: "PUT", body: image, contentType: image.type });
  picked = null;
  return product;
}

async function choose() {
  const file = $("image-file").files[0];
  picked = null;
  $("image-error").textContent = "";
  $("image-preview").hidden = true;
  if (!file) return;
  if (!["image/jpeg", "image/png"].includes(file.type)) {
    $("image-error").textContent = `${file.name} is not a JPEG or PNG picture; choose one of those.`;
    return;
  }
  if (file.size > MAX_BYTES) {
    $("image-error").textContent = `${file.name} is larger than 8 MB; choose a smaller picture.`;
    return;
  }
  let bitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    $("image-error").textContent = `${file.name} could not be read as a picture; it may be damaged.`;
    return;
  }
  // The largest centred square, scaled to at most SIDE pixels.
  const side = Math.min(bitmap.width, bitmap.height);
  const canvas = $("image-preview");
  canvas.width = canvas.height = Math.min(SIDE, side);
  canvas.getContext("2d").drawImage(bitmap, (bitmap.width - side) / 2, (bitmap.height - side) / 2, side, side, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  picked = await new Promise((resolve) => canvas.toBlob(resolve, file.type, 0.9));
  canvas.hidden = false;
}

export function wireImages() {
  $("image-file").addEventListener("change", choose);
}
