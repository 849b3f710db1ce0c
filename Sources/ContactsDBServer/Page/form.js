// The add and edit form. Its texts and lists are made from the card's
// form as the library declares it (`/api/info`'s `card`): a text or a
// list added there appears here with its captions and kinds.

import { $, api, button, element, send, state, thumbnailURL } from "./shared.js";
import { fieldPath, numberOrText } from "./helpers.js";
import { reload } from "./list.js";
import { showContact } from "./contact.js";

let itemCounter = 0;
let built = false;

/// The card's texts and lists, each list by its key.
const texts = () => state.info.card.sections.flatMap((section) => section.texts || []);
const lists = () => state.info.card.sections.map((section) => section.list).filter(Boolean);
const listOf = (key) => lists().find((list) => list.key === key);
/// A noun inside a sentence: "Add phone", "Add URL".
const lowered = (noun) => (noun === noun.toUpperCase() ? noun : noun.toLowerCase());

/// Makes the form's texts and lists, once: the card's form is the
/// binary's own, the same in every answer of `/api/info`.
function buildForm() {
  if (built) return;
  built = true;
  $("card-fields").replaceChildren(...state.info.card.sections.map((section) => {
    if (section.list) return section.list.lines ? linesField(section.list) : listFieldset(section.list);
    const fields = section.texts.map(textField);
    if (!section.title) return fields.length === 1 ? fields[0] : fieldsetOf(null, fields);
    return fieldsetOf(section.title, fields);
  }));
}

function fieldsetOf(title, children, { id, className = "fields" } = {}) {
  const fieldset = element("fieldset", { className });
  if (id) fieldset.id = id;
  if (title) fieldset.append(element("legend", { text: title }));
  fieldset.append(...children);
  return fieldset;
}

/// A text's caption and input: a choice, a text of several lines, a
/// number, or one line.
function textField(text) {
  const field = element("div", { className: "field" });
  const caption = element("label", { text: text.hint ? `${text.label} (${text.hint})` : text.label });
  caption.htmlFor = "f-" + text.key;
  let input;
  if (text.choices) {
    input = document.createElement("select");
    input.append(...text.choices.map((choice) => new Option(choice.label, choice.value)));
  } else if (text.lines) {
    input = document.createElement("textarea");
    input.rows = text.lines;
  } else {
    input = document.createElement("input");
    input.autocomplete = "off";
    if (text.number) input.inputMode = "numeric";
    if (text.hint) input.placeholder = text.hint.split(",")[0];
  }
  input.id = "f-" + text.key;
  input.name = text.key;
  field.append(caption, input);
  return field;
}

function listFieldset(spec) {
  const add = button(`Add ${lowered(spec.noun)}`, undefined, { className: "add-item" });
  add.dataset.list = spec.key;
  return fieldsetOf(spec.title, [add], { id: "f-" + spec.key, className: "list-field" });
}

/// A list of plain texts (vCard lines): one per line.
function linesField(spec) {
  const field = textField({ key: spec.key, label: spec.parts[0]?.label || spec.title, lines: 2 });
  field.querySelector("textarea").spellcheck = false;
  return field;
}

/// An input with its label, in a span the item's layout places.
function labelledInput(id, text, { hideLabel = false, type = "text", value = "" } = {}) {
  const part = element("span", { className: "part" });
  const caption = element("label", { text, className: hideLabel ? "visually-hidden" : undefined });
  caption.htmlFor = id;
  const input = document.createElement("input");
  input.id = id;
  input.type = type;
  input.value = value;
  input.autocomplete = "off";
  part.append(caption, input);
  return { part, input };
}

/// One entry of a list in the form: its kind (a label offered, or one
/// typed), its parts, "preferred" where the list has it, and the place
/// for its error. The entry as read stays with the row, so that what the
/// form does not show (a phone's vCard parameters) is written back.
function listItem(spec, item) {
  const n = ++itemCounter;
  const row = element("div", { className: "item" });
  row.original = item;
  const error = element("p", { className: "error" });
  error.id = `${spec.key}-error-${n}`;
  if (spec.kind) {
    const kind = labelledInput(`${spec.key}-${spec.kind}-${n}`, `${spec.noun} ${spec.kind === "service" ? "service" : "label"}`,
      { hideLabel: true, value: item[spec.kind] ?? spec.kinds[0] ?? "" });
    kind.input.className = "kind";
    kind.input.dataset.part = spec.kind;
    kind.input.setAttribute("list", "kinds-" + spec.key);
    row.append(kind.part);
  }
  for (const { key, label, type } of spec.parts) {
    const part = labelledInput(`${spec.key}-${key}-${n}`, label, { type, value: item[key] || "" });
    part.input.dataset.part = key;
    if (type === "tel") part.input.addEventListener("input", () => formatPhone(part.input));
    row.append(part.part);
  }
  if (spec.preferred) {
    const preferred = element("label", { className: "check" });
    const box = element("input", { className: "preferred" });
    box.type = "checkbox";
    box.checked = Boolean(item.preferred);
    box.setAttribute("aria-label", `Preferred ${lowered(spec.noun)}`);
    preferred.append(box, " Preferred");
    row.append(preferred);
  }
  row.append(button("Remove", () => row.remove(), { label: `Remove this ${lowered(spec.noun)}` }), error);
  for (const input of row.querySelectorAll("input:not([type=checkbox])")) input.setAttribute("aria-describedby", error.id);
  return row;
}

let phoneSequence = 0;

/// Shows the number as libphonenumber formats it being typed, for the
/// database's region; an answer that comes after more typing is dropped.
async function formatPhone(input) {
  const typed = input.value;
  const sequence = ++phoneSequence;
  let answer;
  try {
    answer = await api("/api/phone-format?text=" + encodeURIComponent(typed));
  } catch {
    return;
  }
  if (sequence !== phoneSequence || input.value !== typed) return;
  const atEnd = input.selectionStart === typed.length;
  input.value = answer.shown;
  if (atEnd) input.setSelectionRange(answer.shown.length, answer.shown.length);
}

let previewURL = null;

export function showPreview(src) {
  if (previewURL) URL.revokeObjectURL(previewURL);
  previewURL = src && src.startsWith("blob:") ? src : null;
  const preview = $("photo-preview");
  preview.hidden = !src;
  if (src) preview.src = src; else preview.removeAttribute("src");
}

/// The form for `contact`, or for a new one.
export function openEditor(contact) {
  buildForm();
  state.editing = contact || null;
  state.formRows = {};
  $("editor-title").textContent = contact ? `Edit ${contact.displayName}` : "Add contact";
  clearErrors();
  for (const text of texts()) {
    const value = contact ? contact[text.key] : undefined;
    $("f-" + text.key).value = value === null || value === undefined ? (text.choices ? text.choices[0].value : "") : String(value);
  }
  for (const spec of lists()) fillList(spec, contact);
  $("f-favorite").checked = Boolean(contact && contact.favorite);
  $("f-newGroup").value = "";
  $("f-book").replaceChildren(...state.info.books.map((entry) => {
    const chosen = contact ? entry.name === contact.book : entry.isDefault;
    return new Option(entry.name, entry.name, chosen, chosen);
  }));
  renderGroupBoxes((contact && contact.groups) || []);
  $("f-photo").value = "";
  $("f-photo-remove").checked = false;
  $("photo-remove-label").hidden = !(contact && contact.hasPhoto);
  showPreview(contact && contact.hasPhoto ? thumbnailURL(contact) : null);
  $("editor").showModal();
  $("f-firstName").focus();
}

/// A list's rows for the contact's entries, and the kinds it offers.
function fillList(spec, contact) {
  const entries = (contact && contact[spec.key]) || [];
  if (spec.lines) {
    $("f-" + spec.key).value = entries.join("\n");
    return;
  }
  let options = $("kinds-" + spec.key);
  if (!options) {
    options = element("datalist");
    options.id = "kinds-" + spec.key;
    $("edit-form").append(options);
  }
  options.replaceChildren(...spec.kinds.map((kind) => new Option(kind)));
  const fieldset = $("f-" + spec.key);
  fieldset.querySelectorAll(".item").forEach((row) => row.remove());
  // A new contact starts with a phone and an email to fill in.
  const shown = entries.length || contact || !["phones", "emails"].includes(spec.key) ? entries : [{}];
  for (const item of shown) fieldset.insertBefore(listItem(spec, item), fieldset.querySelector(".add-item"));
}

/// A box for each group of the chosen book, and for each group checked
/// (one of another book, when the book changes: a move keeps it by name).
export function renderGroupBoxes(checked) {
  const book = $("f-book").value;
  const names = state.info.groups.filter((group) => group.book === book).map((group) => group.name);
  for (const name of checked) if (!names.includes(name)) names.push(name);
  $("group-boxes").replaceChildren(...names.map((name) => {
    const caption = element("label", { className: "check" });
    const box = document.createElement("input");
    box.type = "checkbox";
    box.value = name;
    box.checked = checked.includes(name);
    caption.append(box, " " + name);
    return caption;
  }));
}

export const checkedGroups = () => [...$("group-boxes").querySelectorAll("input:checked")].map((box) => box.value);

export function addItem(key) {
  const fieldset = $("f-" + key);
  const row = listItem(listOf(key), {});
  fieldset.insertBefore(row, fieldset.querySelector(".add-item"));
  row.querySelector("input[data-part]:not(.kind)").focus();
}

function clearErrors() {
  $("form-error").textContent = "";
  for (const invalid of $("edit-form").querySelectorAll("[aria-invalid]")) invalid.removeAttribute("aria-invalid");
  for (const message of $("edit-form").querySelectorAll(".field .error, .item .error, fieldset > .error")) message.textContent = "";
}

/// The form as the JSON format holds a contact: for an edit, every field
/// the form shows, empty ones null (cleared). An entry whose parts are all
/// empty is left out; `rows` keeps the rows sent, in order, so that an
/// error naming `phones[1]` finds its row.
function formValue() {
  const editing = Boolean(state.editing);
  const value = {};
  for (const text of texts()) {
    const typed = $("f-" + text.key).value.trim();
    if (typed) value[text.key] = text.number ? numberOrText(typed) : typed;
    else if (editing) value[text.key] = null;
  }
  const rows = {};
  for (const spec of lists()) {
    if (spec.lines) {
      value[spec.key] = $("f-" + spec.key).value.split("\n").map((line) => line.trim()).filter(Boolean);
      continue;
    }
    value[spec.key] = [];
    rows[spec.key] = [];
    for (const row of $("f-" + spec.key).querySelectorAll(".item")) {
      const item = { ...row.original };
      if (spec.kind) item[spec.kind] = row.querySelector(".kind").value.trim();
      for (const { key } of spec.parts) item[key] = row.querySelector(`[data-part="${key}"]`).value.trim();
      if (spec.preferred) item.preferred = row.querySelector(".preferred").checked;
      if (!spec.parts.some(({ key }) => item[key])) continue;
      value[spec.key].push(item);
      rows[spec.key].push(row);
    }
  }
  const newGroup = $("f-newGroup").value.trim();
  value.groups = [...checkedGroups(), ...(newGroup ? [newGroup] : [])];
  value.favorite = $("f-favorite").checked;
  return { value, rows };
}

/// The photo to send: a file chosen (as `photo set` reads stdin, at most
/// one byte past the limit, for the store to say it is too large), null
/// to remove it, or undefined to leave it as it is.
async function photoValue() {
  const file = $("f-photo").files[0];
  if (file) return { data: await base64(file.slice(0, state.info.photoBytes + 1)) };
  return state.editing && $("f-photo-remove").checked ? null : undefined;
}

function base64(blob) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^[^,]*,/, ""));
    reader.onerror = () => reject(new Error(`The file could not be read: ${reader.error}`));
    reader.readAsDataURL(blob);
  });
}

/// The input an error's field names: `lastName`, `phones[1].value`,
/// `addresses[0]` (the entry's first part), `photo`, `extra[2]`.
function fieldOf(path) {
  const at = fieldPath(path);
  if (!at) return null;
  const spec = listOf(at.key);
  if (spec && !spec.lines && at.index !== undefined) {
    const row = state.formRows[at.key]?.[at.index];
    if (!row) return $("f-" + at.key);
    return (at.part && row.querySelector(`[data-part="${at.part}"]`)) || row.querySelector("input[data-part]:not(.kind)");
  }
  if (at.key === "groups") return $("f-newGroup");
  return $("f-" + at.key);
}

/// Puts the store's error at its field, or at the top of the form when
/// it names none.
function showError(error) {
  const input = fieldOf(error.field);
  if (!input) {
    $("form-error").textContent = error.message;
    $("form-error").focus();
    return;
  }
  const isFieldset = input.tagName === "FIELDSET";
  const holder = isFieldset ? input : input.closest(".item, .field") || input.parentElement;
  let message = holder.querySelector(isFieldset ? ":scope > .error" : ".error");
  if (!message) {
    message = element("p", { className: "error" });
    message.id = (input.id || "field") + "-error";
    if (isFieldset) input.querySelector("legend").after(message); else holder.append(message);
    if (!isFieldset) input.setAttribute("aria-describedby", message.id);
  }
  message.textContent = error.message;
  const target = isFieldset ? input.querySelector("input, select, textarea, button") : input;
  target.setAttribute("aria-invalid", "true");
  target.focus();
}

/// Sends the form: an update (and a move, when the book changed) or an
/// add, then shows the contact; or shows the error at its field.
export async function save(event) {
  event.preventDefault();
  clearErrors();
  const editing = state.editing;
  const { value, rows } = formValue();
  state.formRows = rows;
  const saveButton = $("save-edit");
  saveButton.disabled = true;
  try {
    const photo = await photoValue();
    if (photo !== undefined) value.photo = photo;
    const book = $("f-book").value;
    let id;
    if (editing) {
      await send("PATCH", `/api/contact?id=${encodeURIComponent(editing.id)}&revision=${editing.revision}`, value);
      id = editing.id;
      // A move is `contactsdb move`: the card goes to the other book whole.
      if (book && book !== editing.book) await send("POST", `/api/move?id=${encodeURIComponent(id)}&to=${encodeURIComponent(book)}`);
    } else {
      id = (await send("POST", "/api/contact" + (book ? "?book=" + encodeURIComponent(book) : ""), value)).id;
    }
    $("editor").close();
    await reload({ keepScroll: true });
    await showContact(id);
  } catch (error) {
    showError(error);
  } finally {
    saveButton.disabled = false;
  }
}
