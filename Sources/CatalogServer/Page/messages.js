// The message line under the search box: a success that fades, or an error that stays until the next.

import { $ } from "./elements.js";

let timer = null;

export function showMessage(text, isError = false) {
  const message = $("message");
  message.textContent = text;
  message.classList.toggle("error", isError);
  message.setAttribute("role", isError ? "alert" : "status");
  message.hidden = false;
  clearTimeout(timer);
  if (!isError) timer = setTimeout(() => { message.hidden = true; }, 8000);
}

export function hideMessage() {
  clearTimeout(timer);
  $("message").hidden = true;
}
