// The message line at the bottom of the window: a success that fades, a warning or an error that
// stays until the next, each with an optional button that acts on it.

import { $ } from "./elements.js";

let timer = null;

/**
 * Shows `text`: a success (it fades after 8 s), an error (`isError`), or a warning (`warning`: part
 * of it went through). `action` ({ label, run }) adds a button that runs it and closes the message.
 */
export function showMessage(text, isError = false, { warning = false, action = null } = {}) {
  const message = $("message");
  message.replaceChildren(text);
  if (action) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "quiet small";
    button.textContent = action.label;
    button.addEventListener("click", () => {
      hideMessage();
      action.run();
    });
    message.append(" ", button);
  }
  message.classList.toggle("error", isError);
  message.classList.toggle("warning", warning && !isError);
  message.setAttribute("role", isError || warning ? "alert" : "status");
  message.hidden = false;
  clearTimeout(timer);
  if (!isError && !warning) timer = setTimeout(() => { message.hidden = true; }, 8000);
}

export function hideMessage() {
  clearTimeout(timer);
  $("message").hidden = true;
}
