// The one way the page talks to the server: every request, its errors, and what an unreachable server means.

import { markReachable, markUnreachable } from "./connection.js";

/** The server answered with an error; `fields` names the fields to fix. */
export class ApiError extends Error {
  constructor(status, message, fields = {}) {
    super(message);
    this.status = status;
    this.fields = fields;
  }
}

/** The server could not be reached (no network, or it is not running). */
export class Unreachable extends Error {
  constructor() {
    super("The server cannot be reached.");
  }
}

/**
 * Sends a request and returns the parsed JSON answer (null for 204).
 * `json` is sent as a JSON body; `body` with `contentType` as it is.
 * Throws ApiError for an error answer, Unreachable when no answer came, AbortError when aborted.
 */
export async function request(path, { method = "GET", json, body, contentType, signal } = {}) {
  const headers = {};
  if (json !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(json);
  } else if (contentType) {
    headers["Content-Type"] = contentType;
  }
  let response;
  try {
    response = await fetch(path, { method, headers, body, signal });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    markUnreachable();
    throw new Unreachable();
  }
  // The service worker answers from its cache what it kept when the network fails: the server is still away.
  if (response.headers.get("X-Served-From") !== "cache") markReachable();
  return answerOf(response.status, response.status === 204 ? "" : await response.text());
}

/**
 * Uploads `file` with progress (fetch cannot report upload progress); same answers and errors as request().
 * `onProgress` gets the bytes sent and the bytes in all.
 */
export function upload(path, file, contentType, onProgress) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", path);
    xhr.setRequestHeader("Content-Type", contentType);
    xhr.upload.onprogress = (progress) => {
      if (progress.lengthComputable) onProgress(progress.loaded, progress.total);
    };
    xhr.onload = () => {
      markReachable();
      try {
        resolve(answerOf(xhr.status, xhr.responseText));
      } catch (error) {
        reject(error);
      }
    };
    xhr.onerror = () => {
      markUnreachable();
      reject(new Unreachable());
    };
    xhr.send(file);
  });
}

function answerOf(status, text) {
  let answer = null;
  try {
    answer = text ? JSON.parse(text) : null;
  } catch {
    answer = null;
  }
  if (status >= 200 && status < 300) return answer;
  const error = answer && answer.error;
  throw new ApiError(status, error && error.message ? error.message : `The server answered with status ${status}.`, (error && error.fields) || {});
}

/** `/api/products/<id>`, the id encoded. */
export function productPath(productId) {
  return "/api/products/" + encodeURIComponent(productId);
}
