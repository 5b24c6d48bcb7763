// Modal dialogs: they open from a control and give focus back to it, or to what the caller names.

const openers = new WeakMap();
const guards = new WeakMap();

export function openDialog(dialog, opener) {
  openers.set(dialog, opener || document.activeElement);
  if (!dialog.open) dialog.showModal();
}

/** Closes `dialog` and gives focus back at once (the close event comes later, after work that may move focus on). */
export function closeDialog(dialog) {
  if (!dialog.open) return;
  dialog.close();
  restoreFocus(dialog);
}

function restoreFocus(dialog) {
  const opener = openers.get(dialog);
  if (opener && document.contains(opener) && !opener.closest("[hidden]")) opener.focus();
  else document.getElementById("search").focus();
}

/** The control that opened `dialog`. */
export function openerOf(dialog) {
  return openers.get(dialog);
}

/** Where focus goes when `dialog` closes next, instead of its opener (which may be gone). */
export function returnFocusTo(dialog, element) {
  openers.set(dialog, element);
}

/**
 * Makes Escape, Close and Cancel ask `guard` first: it returns true to let the dialog close.
 * Without a guard they just close.
 */
export function guardClosing(dialog, guard) {
  guards.set(dialog, guard);
}

function requestClose(dialog) {
  const guard = guards.get(dialog);
  if (!guard || guard()) closeDialog(dialog);
}

export function wireDialogs() {
  for (const dialog of document.querySelectorAll("dialog")) {
    // A close that did not go through closeDialog (none is expected) still leaves focus somewhere useful.
    dialog.addEventListener("close", () => {
      if (document.activeElement === document.body || document.activeElement === null) restoreFocus(dialog);
    });
    // Escape goes through the guard too; the browser's own cancel would close at once.
    dialog.addEventListener("cancel", (event) => {
      event.preventDefault();
      requestClose(dialog);
    });
    dialog.addEventListener("keydown", (event) => {
      if (event.key === "Escape") {
        event.preventDefault();
        requestClose(dialog);
      }
    });
    for (const button of dialog.querySelectorAll("[data-close]")) {
      button.addEventListener("click", () => requestClose(dialog));
    }
  }
}
