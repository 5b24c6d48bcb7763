// Add and edit: the form, its field errors, unsaved changes kept from Escape, and what happens after a save.

import { $ } from "./elements.js";
import { withDecimalPoint } from "./formats.js";
import { request, productPath, ApiError, Unreachable } from "./api.js";
import { state } from "./state.js";
import { openDialog, closeDialog, returnFocusTo, guardClosing } from "./dialogs.js";
import { showMessage } from "./messages.js";
import { fields, isKnownField } from "./fields.js";
import { search, focusRow } from "./list.js";
import { queueChange, removeQueued } from "./outbox.js";
import { pickedImage, clearPickedImage, uploadImage } from "./images.js";

/** The form's values when it opened, to tell whether closing would lose something. */
let initialValues = "";

export function buildForm() {
  const container = $("editor-fields");
  for (const field of fields()) container.append(formField(field));
  guardClosing($("editor"), confirmDiscard);
  $("discard-yes").addEventListener("click", () => {
    $("discard-bar").hidden = true;
    closeDialog($("editor"));
  });
  $("discard-no").addEventListener("click", () => {
    $("discard-bar").hidden = true;
    $("editor-save").focus();
  });
  $("product-form").addEventListener("submit", saveProduct);
  // A field's error goes as soon as the field is changed, and the summary with the last of them.
  container.addEventListener("input", (event) => {
    const input = event.target;
    if (input.getAttribute("aria-invalid") !== "true") return;
    input.removeAttribute("aria-invalid");
    $("error-" + input.name).textContent = "";
    if (!container.querySelector('[aria-invalid="true"]')) $("editor-error").textContent = "";
  });
}



function formField(field) {
  const wrapper = document.createElement("div");
  wrapper.className = "field" + (field.wide ? " wide" : "");
  const id = "field-" + field.name;
  const label = document.createElement("label");
  label.htmlFor = id;
  label.textContent = field.label;
  const input = document.createElement("input");
  input.id = id;
  input.name = field.name;
  input.type = "text";
  input.autocomplete = "off";
  if (field.inputmode) input.inputMode = field.inputmode;
  if (field.list) input.setAttribute("list", field.list);
  const describedBy = [];
  wrapper.append(label);
  if (field.hint) {
    const hint = document.createElement("p");
    hint.className = "hint";
    hint.id = id + "-hint";
    hint.textContent = field.hint;
    describedBy.push(hint.id);
    wrapper.append(hint);
  }
  const error = document.createElement("p");
  error.className = "field-error";
  error.id = "error-" + field.name;
  describedBy.push(error.id);
  input.setAttribute("aria-describedby", describedBy.join(" "));
  wrapper.append(input, error);
  if (field.extra) wrapper.dataset.extra = "true";
  return wrapper;
}

/**
 * Opens the form: empty to add, filled from `product` to edit it.
 * `queued` is a change waiting in the outbox that the user resolves here.
 */
export function openEditor(product, opener, queued = null) {
  const editingId = queued ? queued.productId : product ? product.productId : null;
  state.editing = { productId: editingId, outboxKey: queued ? queued.key : null };
  $("editor-title").textContent = editingId === null ? "Add a product" : `Edit ${editingId}`;
  const container = $("editor-fields");
  for (const extra of container.querySelectorAll("[data-extra]")) extra.remove();
  const values = queued ? queued.body : product;
  if (values) {
    for (const key of Object.keys(values)) {
      if (!isKnownField(key)) container.append(formField({ name: key, label: key, extra: true, wide: true }));
    }
  }
  for (const input of inputs()) {
    const value = values ? values[input.name] : null;
    input.value = value !== null && value !== undefined ? value : "";
  }
  clearErrors();
  clearPickedImage();
  $("discard-bar").hidden = true;
  if (queued && queued.problem) $("editor-error").textContent = queued.problem;
  initialValues = JSON.stringify(formValues());
  openDialog($("editor"), opener);
  loadTypeOptions();
  $("field-productId").focus();
}

function inputs() {
  return $("editor-fields").querySelectorAll("input");
}

function formValues() {
  const body = {};
  for (const input of inputs()) body[input.name] = input.inputMode === "decimal" ? withDecimalPoint(input.value) : input.value;
  return body;
}

/** Closing with unsaved changes asks first; returns true when the form may close now. */
function confirmDiscard() {
  const dirty = JSON.stringify(formValues()) !== initialValues || pickedImage() !== null;
  if (!dirty || !$("discard-bar").hidden) return !dirty;
  $("discard-bar").hidden = false;
  $("discard-no").focus();
  return false;
}

function clearErrors() {
  $("editor-error").textContent = "";
  for (const input of inputs()) {
    input.removeAttribute("aria-invalid");
    $("error-" + input.name).textContent = "";
  }
}

async function saveProduct(event) {
  event.preventDefault();
  clearErrors();
  const body = formValues();
  const { productId: editingId, outboxKey } = state.editing;
  const save = $("editor-save");
  save.disabled = true;
  try {
    let saved = await request(editingId === null ? "/api/products" : productPath(editingId), {
      method: editingId === null ? "POST" : "PUT",
      json: body,
    });
    if (pickedImage()) saved = await uploadImage(saved.productId);
    if (outboxKey !== null) await removeQueued(outboxKey);
    closeAfterSave(saved, editingId);
  } catch (error) {
    if (error instanceof Unreachable) {
      await keepForLater(body, editingId, outboxKey);
    } else if (error instanceof ApiError) {
      showFieldErrors(error);
    } else {
      $("editor-error").textContent = error.message;
    }
  } finally {
    save.disabled = false;
  }
}

/** The server cannot be reached: the change waits in this browser and is sent once it can. */
async function keepForLater(body, editingId, outboxKey) {
  try {
    await queueChange({ kind: editingId === null ? "add" : "edit", productId: editingId, body, image: pickedImage() }, outboxKey);
  } catch (error) {
    $("editor-error").textContent = "The server cannot be reached, and this browser could not keep the change either (" +
      error.message + "). Nothing was saved; copy what you typed before closing.";
    return;
  }
  initialValues = JSON.stringify(formValues());
  clearPickedImage();
  returnFocusTo($("editor"), $("outbox-review"));
  closeDialog($("editor"));
  showMessage(`The server cannot be reached: ${body.productId || "the product"} is kept in this browser and will be sent when the connection is back.`);
}

/**
 * After a save the list shows the saved product and focus goes to its row.
 * A new or renamed product is looked up by its productId, so the list never shows a search it no longer matches.
 */
async function closeAfterSave(saved, editingId) {
  const added = editingId === null;
  const renamed = !added && saved.productId !== editingId;
  initialValues = JSON.stringify(formValues());
  clearPickedImage();
  returnFocusTo($("editor"), $("search"));
  closeDialog($("editor"));
  if (state.favorites.has(editingId) || state.favorites.has(saved.productId)) {
    state.favorites.delete(editingId);
    state.favorites.set(saved.productId, saved);
  }
  if (added || renamed) {
    $("search").value = saved.productId;
    await search(saved.productId);
  } else {
    await search();
  }
  const verb = added ? "Added" : "Saved";
  const was = renamed ? ` (was ${editingId})` : "";
  const shown = focusRow(saved.productId);
  showMessage(`${verb} ${saved.productId}${was}.` + (shown ? "" : " It no longer matches the search above."));
}

function showFieldErrors(error) {
  let first = null;
  const unplaced = [];
  for (const [name, message] of Object.entries(error.fields || {})) {
    const input = $("editor-fields").querySelector(`input[name="${CSS.escape(name)}"]`);
    if (input) {
      input.setAttribute("aria-invalid", "true");
      $("error-" + name).textContent = message;
      first = first || input;
    } else {
      unplaced.push(`${name}: ${message}`);
    }
  }
  $("editor-error").textContent = [error.message, ...unplaced].join(" ");
  (first || $("field-productId")).focus();
}

/** Fills the type field's suggestions with the catalog's types (the server reads them once per change of the catalog). */
async function loadTypeOptions() {
  try {
    const body = await request("/api/catalog/types");
    const options = body.types.map((type) => {
      const option = document.createElement("option");
      option.value = type;
      return option;
    });
    $("type-options").replaceChildren(...options);
  } catch {
    // Suggestions are a help, not a need: the field takes any text.
  }
}
