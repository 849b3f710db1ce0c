// The contacts page: a thin client of the JSON endpoints of
// `contactsdb serve`. The list is virtual: rows of fixed heights (a
// contact's, a section header's), of which only those in view exist,
// filled by pages fetched as they come into view.
"use strict";

const ROW = 56;   // a contact's row, in pixels
const HEAD = 30;  // a section's header
const PAGE = 100;
const $ = (id) => document.getElementById(id);

const state = {
  info: null,
  has: new Set(),
  text: "",
  view: { kind: "all" },          // all | favorites | book | group
  sort: { key: "name", desc: false },
  total: 0,
  sections: [],                   // [{key, count, start (offset), row, top (pixels)}]
  pages: new Map(),               // page number → items, or a promise
  generation: 0,
  selected: null,                 // the id shown on the contact page
  editing: null,                  // the contact being edited, or null to add
};

// What the browser tests read: the time from a keystroke (or the page's
// start) to its results on screen, and how many changes from elsewhere
// the page has shown.
window.contactsTimings = { firstScreen: null, keystrokes: [], changesShown: 0 };

// MARK: - Requests

async function api(path, options = {}) {
  const response = await fetch(path, { credentials: "same-origin", ...options });
  const type = response.headers.get("content-type") || "";
  const body = type.startsWith("application/json") ? await response.json() : await response.text();
  if (!response.ok) {
    const error = new Error(body && body.error ? body.error : String(body).trim() || response.statusText);
    error.field = body && body.field;
    error.status = response.status;
    throw error;
  }
  return body;
}

const send = (method, path, value) => api(path, {
  method,
  headers: value === undefined ? {} : { "Content-Type": "application/json" },
  body: value === undefined ? undefined : JSON.stringify(value),
});

function listParameters() {
  const p = new URLSearchParams();
  if (state.has.size) p.set("has", [...state.has].join(","));
  if (state.text.trim()) p.set("text", state.text);
  if (state.view.kind === "favorites") p.set("favorite", "1");
  if (state.view.kind === "book") p.set("book", state.view.name);
  if (state.view.kind === "group") p.set("group", state.view.name);
  p.set("sort", state.sort.key);
  if (state.sort.desc) p.set("desc", "1");
  return p;
}

// MARK: - The list

/// Reads the first page with the count and sections, for new filters; a
/// newer call makes an older one's answer moot. A search shows its first
/// page at once, flat, and counts the rest after: counting every match
/// of a word's first letter costs more than a keystroke may.
async function reload({ keepScroll = false, started = 0, keystroke = false } = {}) {
  const generation = ++state.generation;
  const searching = state.text.trim() !== "";
  const p = listParameters();
  if (!searching) p.set("meta", "1");
  p.set("offset", "0");
  p.set("limit", String(PAGE));
  $("list").setAttribute("aria-busy", "true");
  let answer;
  try {
    answer = await api("/api/list?" + p);
  } catch (error) {
    if (generation === state.generation) showSummary(error.message);
    return;
  }
  if (generation !== state.generation) return;
  state.total = searching ? answer.contacts.length : answer.total;
  let start = 0;
  state.sections = (answer.sections || []).map((section, index) => {
    const entry = { key: section.sectionKey, count: section.count, start, row: start + index, top: start * ROW + index * HEAD };
    start += section.count;
    return entry;
  });
  state.pages = new Map([[0, answer.contacts]]);
  const list = $("list");
  setHeight();
  if (!keepScroll) list.scrollTop = 0;
  $("list-space").replaceChildren();
  rendered.clear();
  render();
  renderIndex();
  const more = searching && answer.contacts.length === PAGE;
  showSummary(`${state.total.toLocaleString()}${more ? "+" : ""} contact${state.total === 1 ? "" : "s"}`);
  list.setAttribute("aria-busy", "false");
  // The first screen counts from the navigation's start (the clock's
  // origin); a keystroke from its input event.
  if (keystroke) window.contactsTimings.keystrokes.push(performance.now() - started);
  else if (window.contactsTimings.firstScreen === null) window.contactsTimings.firstScreen = performance.now();
  if (more) {
    p.set("meta", "1");
    p.set("sections", "0");
    p.set("limit", "0");
    const counted = await api("/api/list?" + p).catch(() => null);
    if (!counted || generation !== state.generation) return;
    state.total = counted.total;
    setHeight();
    render();
    showSummary(`${state.total.toLocaleString()} contact${state.total === 1 ? "" : "s"}`);
  }
}

function setHeight() {
  $("list-space").style.height = state.total * ROW + state.sections.length * HEAD + "px";
}

function showSummary(text) { $("summary").textContent = text; }

const rowCount = () => state.total + state.sections.length;

/// What row `row` of the list shows: a section's header or a contact's
/// offset in the result.
function rowAt(row) {
  const sections = state.sections;
  if (!sections.length) return { offset: row };
  let low = 0, high = sections.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (sections[middle].row <= row) low = middle; else high = middle - 1;
  }
  const section = sections[low];
  return row === section.row ? { header: section.key, section: low }
    : { offset: section.start + (row - section.row - 1), section: low };
}

/// Where row `row` starts, in pixels.
function topOf(row) {
  const at = rowAt(row);
  if (!state.sections.length) return row * ROW;
  const section = state.sections[at.section];
  return at.header !== undefined ? section.top : section.top + HEAD + (at.offset - section.start) * ROW;
}

/// The row at `y` pixels from the top.
function rowAtY(y) {
  const sections = state.sections;
  if (!sections.length) return Math.floor(y / ROW);
  let low = 0, high = sections.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (sections[middle].top <= y) low = middle; else high = middle - 1;
  }
  const section = sections[low];
  if (y < section.top + HEAD) return section.row;
  return section.row + 1 + Math.min(section.count - 1, Math.floor((y - section.top - HEAD) / ROW));
}

function contactAt(offset) {
  const page = state.pages.get(Math.floor(offset / PAGE));
  return Array.isArray(page) ? page[offset % PAGE] : undefined;
}

function loadPage(number) {
  if (state.pages.has(number)) return;
  const generation = state.generation;
  const p = listParameters();
  p.set("offset", String(number * PAGE));
  p.set("limit", String(PAGE));
  const request = api("/api/list?" + p).then((answer) => {
    if (generation !== state.generation) return;
    state.pages.set(number, answer.contacts);
    render(true);
  }, () => { if (generation === state.generation) state.pages.delete(number); });
  state.pages.set(number, request);
}

const rendered = new Map(); // row → element

/// Puts the rows in view (and a few around them) in the document, and
/// only those; asks for the pages they need.
function render(refill = false) {
  const list = $("list");
  const space = $("list-space");
  const first = Math.max(0, rowAtY(list.scrollTop) - 8);
  const last = Math.min(rowCount() - 1, rowAtY(list.scrollTop + list.clientHeight) + 8);
  for (const [row, element] of rendered) {
    if (row < first || row > last || (refill && element.classList.contains("loading"))) {
      if (element.contains(document.activeElement)) continue;
      element.remove();
      rendered.delete(row);
    }
  }
  for (let row = first; row <= last; row++) {
    if (rendered.has(row)) continue;
    const at = rowAt(row);
    let element;
    if (at.header !== undefined) {
      element = document.createElement("div");
      element.className = "section-header";
      element.setAttribute("role", "heading");
      element.setAttribute("aria-level", "2");
      element.textContent = at.header;
    } else {
      const contact = contactAt(at.offset);
      if (!contact) loadPage(Math.floor(at.offset / PAGE));
      element = contactRow(contact, row);
    }
    element.style.top = topOf(row) + "px";
    element.dataset.row = String(row);
    space.appendChild(element);
    rendered.set(row, element);
  }
}

function contactRow(contact, row) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "row";
  button.setAttribute("role", "listitem");
  if (!contact) {
    button.classList.add("loading");
    button.innerHTML = '<span class="avatar"></span><span class="text"><span class="name">…</span></span>';
    return button;
  }
  button.dataset.id = contact.id;
  if (contact.id === state.selected) button.setAttribute("aria-current", "true");
  button.append(avatar(contact));
  const text = document.createElement("span");
  text.className = "text";
  const name = document.createElement("span");
  name.className = "name";
  name.textContent = contact.name + (contact.favorite ? " ★" : "");
  const sub = document.createElement("span");
  sub.className = "sub";
  sub.textContent = [contact.phone, contact.email].filter(Boolean).join(" · ");
  text.append(name, sub);
  button.append(text);
  button.addEventListener("click", () => showContact(contact.id));
  button.addEventListener("keydown", (event) => moveFocus(event, row));
  return button;
}

function avatar(contact) {
  if (contact.photo) {
    const image = document.createElement("img");
    image.className = "avatar";
    image.alt = "";
    image.loading = "lazy";
    image.src = "/api/thumbnail?id=" + encodeURIComponent(contact.id);
    return image;
  }
  const initials = document.createElement("span");
  initials.className = "avatar";
  initials.setAttribute("aria-hidden", "true");
  initials.textContent = [...(contact.name || "#")][0].toUpperCase();
  return initials;
}

/// Up and down walk the rows, as they would a native list.
function moveFocus(event, row) {
  const step = { ArrowDown: 1, ArrowUp: -1, PageDown: 8, PageUp: -8 }[event.key];
  if (!step) return;
  event.preventDefault();
  let target = row + step;
  while (target >= 0 && target < rowCount() && rowAt(target).header !== undefined) target += Math.sign(step);
  if (target < 0 || target >= rowCount()) return;
  const list = $("list");
  const top = topOf(target);
  if (top < list.scrollTop) list.scrollTop = top;
  else if (top + ROW > list.scrollTop + list.clientHeight) list.scrollTop = top + ROW - list.clientHeight;
  render();
  const element = rendered.get(target);
  if (element) element.focus();
}

function renderIndex() {
  const index = $("index");
  index.replaceChildren(...state.sections.map((section) => {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = section.key;
    button.setAttribute("aria-label", `Jump to ${section.key}`);
    button.addEventListener("click", () => {
      $("list").scrollTop = section.top;
      render();
      const header = rendered.get(section.row + 1);
      if (header) header.focus();
    });
    return button;
  }));
}

// MARK: - Views: all, favorites, books, groups

function renderViews() {
  const info = state.info;
  const item = (label, count, view) => {
    const li = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    const name = document.createElement("span");
    name.textContent = label;
    button.append(name);
    if (count !== undefined) {
      const number = document.createElement("span");
      number.className = "count";
      number.textContent = count.toLocaleString();
      button.append(number);
    }
    const current = state.view;
    button.setAttribute("aria-pressed", String(current.kind === view.kind && current.name === view.name));
    button.addEventListener("click", () => { state.view = view; renderViews(); reload(); });
    li.append(button);
    return li;
  };
  $("views").replaceChildren(item("All contacts", undefined, { kind: "all" }), item("Favorites", undefined, { kind: "favorites" }));
  $("books").replaceChildren(...info.books.map((book) => item(book.name, book.count, { kind: "book", name: book.name })));
  $("groups").replaceChildren(...info.groups.map((group) => item(group.name, group.memberCount, { kind: "group", name: group.name })));
}

async function loadInfo() {
  state.info = await api("/api/info");
  renderViews();
  renderFilterSheet();
  renderSortSheet();
}

// MARK: - Filter and sort sheets

function renderFilterSheet() {
  const boxes = $("filter-boxes");
  boxes.querySelectorAll("label").forEach((label) => label.remove());
  for (const name of state.info.attributes) {
    const label = document.createElement("label");
    const box = document.createElement("input");
    box.type = "checkbox";
    box.value = name;
    box.checked = state.has.has(name);
    box.addEventListener("change", () => {
      if (box.checked) state.has.add(name); else state.has.delete(name);
      updateFilterButton();
      reload();
    });
    label.append(box, " " + name[0].toUpperCase() + name.slice(1));
    boxes.append(label);
  }
}

function updateFilterButton() {
  $("open-filters").textContent = state.has.size ? `Filters (${state.has.size})` : "Filters";
}

const sortNames = { name: "Name (sections)", "first-name": "First name", "last-name": "Last name", company: "Company" };

function renderSortSheet() {
  const keys = $("sort-keys");
  keys.querySelectorAll("label").forEach((label) => label.remove());
  for (const key of state.info.sorts) {
    const label = document.createElement("label");
    const radio = document.createElement("input");
    radio.type = "radio";
    radio.name = "sort-key";
    radio.value = key;
    radio.checked = state.sort.key === key;
    radio.addEventListener("change", () => { state.sort.key = key; reload(); });
    label.append(radio, " " + (sortNames[key] || key));
    keys.append(label);
  }
}

// MARK: - A contact's page

const fieldNames = {
  firstName: "First name", lastName: "Last name", company: "Company", jobTitle: "Job title",
  department: "Department", nickname: "Nickname", note: "Note", phones: "Phone", emails: "Email",
  addresses: "Address", messengers: "Messenger", urls: "URL", dates: "Date", relations: "Relation",
  socialProfiles: "Profile", groups: "Groups", book: "Book", birthday: "Birthday", age: "Age",
};
const hidden = new Set(["id", "uid", "sortName", "sectionKey", "sortIndex", "displayName", "hasPhoto", "photo",
  "revision", "createdAt", "updatedAt", "favorite", "kind"]);

const label = (key) => fieldNames[key] || key.replace(/([A-Z])/g, " $1").replace(/^./, (c) => c.toUpperCase());

function describe(value) {
  if (value === null || value === undefined) return "";
  if (typeof value !== "object") return String(value);
  if (Array.isArray(value)) return value.map(describe).join(", ");
  // The kind of an item (its type, label or service) is in its term.
  return Object.entries(value).filter(([key]) => !["type", "label", "service"].includes(key))
    .map(([, part]) => describe(part)).filter(Boolean).join(", ");
}

async function showContact(id, { quiet = false } = {}) {
  state.selected = id;
  for (const element of rendered.values()) {
    if (element.dataset.id) element.toggleAttribute("aria-current", element.dataset.id === id);
    if (element.dataset.id === id) element.setAttribute("aria-current", "true");
  }
  const detail = $("detail");
  let answer;
  try {
    answer = await api("/api/contact?id=" + encodeURIComponent(id));
  } catch (error) {
    if (state.selected !== id) return;
    detail.replaceChildren(paragraph(error.status === 404 ? "This contact no longer exists." : error.message, "hint"));
    return;
  }
  if (state.selected !== id) return;
  const contact = answer.contact;
  const header = document.createElement("header");
  if (contact.hasPhoto) {
    const photo = document.createElement("img");
    photo.className = "photo";
    photo.alt = `Photo of ${contact.displayName}`;
    photo.src = `/api/photo?id=${encodeURIComponent(id)}&r=${contact.revision}`;
    header.append(photo);
  }
  const title = document.createElement("h2");
  title.id = "contact-name";
  title.textContent = contact.displayName + (contact.favorite ? " ★" : "");
  header.append(title);

  const list = document.createElement("dl");
  const add = (term, text) => {
    if (!text) return;
    const dt = document.createElement("dt");
    dt.textContent = term;
    const dd = document.createElement("dd");
    dd.textContent = text;
    list.append(dt, dd);
  };
  for (const [key, value] of Object.entries(contact)) {
    if (hidden.has(key)) continue;
    if (Array.isArray(value) && value.length && typeof value[0] === "object") {
      value.forEach((item, index) => {
        const kind = item.type || item.label || item.service;
        const shown = key === "phones" ? answer.phonesShown[index] : describe(item);
        add(label(key) + (kind ? ` (${kind})` : ""), shown);
      });
    } else {
      add(label(key), describe(value));
    }
  }
  add("Section", contact.sectionKey);
  add("Updated", contact.updatedAt);

  const actions = document.createElement("div");
  actions.className = "actions";
  actions.append(
    actionButton(contact.favorite ? "Remove from favorites" : "Add to favorites", async () => {
      await send("PATCH", `/api/contact?id=${encodeURIComponent(id)}&revision=${contact.revision}`, { favorite: !contact.favorite });
      await showContact(id);
    }),
    actionButton("Edit", () => openEditor(contact)),
    actionButton("Delete", async () => {
      if (!confirm(`Delete ${contact.displayName}?`)) return;
      await send("DELETE", `/api/contact?id=${encodeURIComponent(id)}&revision=${contact.revision}`);
      state.selected = null;
      detail.replaceChildren(paragraph(`Deleted ${contact.displayName}.`, "hint"));
      reload({ keepScroll: true });
    }, "danger"),
  );
  const status = paragraph("", "error");
  status.setAttribute("role", "alert");
  detail.replaceChildren(header, actions, status, list);
  if (!quiet) title.setAttribute("tabindex", "-1");
}

function actionButton(text, action, className) {
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = text;
  if (className) button.className = className;
  button.addEventListener("click", async () => {
    try {
      await action();
    } catch (error) {
      const status = $("detail").querySelector(".error");
      if (status) status.textContent = error.message;
    }
  });
  return button;
}

function paragraph(text, className) {
  const p = document.createElement("p");
  p.textContent = text;
  if (className) p.className = className;
  return p;
}

// MARK: - The add and edit form

let itemCounter = 0;

function listItem(kind, item, types) {
  const n = ++itemCounter;
  const row = document.createElement("div");
  row.className = "item";
  row.dataset.kind = kind;
  row.original = item;
  const typeLabel = document.createElement("label");
  typeLabel.className = "visually-hidden";
  typeLabel.htmlFor = `${kind}-type-${n}`;
  typeLabel.textContent = `${kind === "phone" ? "Phone" : "Email"} type`;
  const select = document.createElement("select");
  select.id = `${kind}-type-${n}`;
  select.className = "type";
  for (const type of types) select.append(new Option(type, type, false, type === item.type));
  if (item.type && !types.includes(item.type)) select.append(new Option(item.type, item.type, true, true));
  const valueLabel = document.createElement("label");
  valueLabel.htmlFor = `${kind}-value-${n}`;
  valueLabel.textContent = kind === "phone" ? "Phone" : "Email";
  const input = document.createElement("input");
  input.id = `${kind}-value-${n}`;
  input.className = "value";
  input.type = kind === "phone" ? "tel" : "email";
  input.value = item.value || "";
  if (kind === "phone") input.addEventListener("input", () => formatPhone(input));
  const remove = document.createElement("button");
  remove.type = "button";
  remove.textContent = "Remove";
  remove.setAttribute("aria-label", `Remove this ${kind}`);
  remove.addEventListener("click", () => row.remove());
  const error = document.createElement("p");
  error.className = "error";
  error.id = `${kind}-error-${n}`;
  input.setAttribute("aria-describedby", error.id);
  row.append(typeLabel, select, valueLabel, input, remove, error);
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

const textFields = ["firstName", "lastName", "company", "jobTitle", "note"];

function openEditor(contact) {
  state.editing = contact || null;
  $("editor-title").textContent = contact ? `Edit ${contact.displayName}` : "Add contact";
  clearErrors();
  for (const key of textFields) $("f-" + key).value = (contact && contact[key]) || "";
  for (const [kind, key, types] of [["phone", "phones", ["mobile", "home", "work", "other"]], ["email", "emails", ["home", "work", "other"]]]) {
    const fieldset = $("f-" + key);
    fieldset.querySelectorAll(".item").forEach((row) => row.remove());
    const items = contact ? contact[key] || [] : [];
    for (const item of items.length ? items : [{ type: types[0], value: "" }]) {
      fieldset.insertBefore(listItem(kind, item, types), fieldset.querySelector("button:last-child"));
    }
  }
  $("book-field").hidden = Boolean(contact);
  const select = $("f-book");
  select.replaceChildren(...state.info.books.map((book) => new Option(book.name, book.name, book.isDefault, book.isDefault)));
  $("editor").showModal();
  $("f-firstName").focus();
}

function addItem(kind, key, types) {
  const fieldset = $("f-" + key);
  const row = listItem(kind, { type: types[0], value: "" }, types);
  fieldset.insertBefore(row, fieldset.querySelector("button:last-child"));
  row.querySelector("input").focus();
}

function clearErrors() {
  $("form-error").textContent = "";
  for (const element of $("edit-form").querySelectorAll("[aria-invalid]")) element.removeAttribute("aria-invalid");
  for (const element of $("edit-form").querySelectorAll(".field .error, .item .error")) element.textContent = "";
}

/// The form as the JSON format holds a contact: for an edit, every field
/// the form shows, empty ones null (cleared).
function formValue() {
  const value = {};
  for (const key of textFields) {
    const text = $("f-" + key).value.trim();
    if (text) value[key] = text;
    else if (state.editing) value[key] = null;
  }
  for (const key of ["phones", "emails"]) {
    value[key] = [...$("f-" + key).querySelectorAll(".item")]
      .map((row) => ({ ...row.original, type: row.querySelector(".type").value, value: row.querySelector(".value").value.trim() }))
      .filter((item) => item.value);
  }
  return value;
}

/// Puts the store's error at its field: `lastName`, `phones[1].value`.
function showError(error) {
  const match = /^(?:contacts\[\d+\]\.)?(\w+)(?:\[(\d+)\])?/.exec(error.field || "");
  let input = null;
  if (match && match[2] !== undefined) {
    const items = [...$("f-" + match[1])?.querySelectorAll(".item") || []].filter((row) => row.querySelector(".value").value.trim());
    input = items[Number(match[2])]?.querySelector(".value") || null;
  } else if (match) {
    input = $("f-" + match[1]);
  }
  if (!input) {
    $("form-error").textContent = error.message;
    $("form-error").focus?.();
    return;
  }
  input.setAttribute("aria-invalid", "true");
  let message = input.closest(".item")?.querySelector(".error");
  if (!message) {
    message = input.parentElement.querySelector(".error");
    if (!message) {
      message = document.createElement("p");
      message.className = "error";
      message.id = input.id + "-error";
      input.after(message);
      input.setAttribute("aria-describedby", message.id);
    }
  }
  message.textContent = error.message;
  input.focus();
}

async function save(event) {
  event.preventDefault();
  clearErrors();
  const value = formValue();
  const editing = state.editing;
  try {
    let id;
    if (editing) {
      await send("PATCH", `/api/contact?id=${encodeURIComponent(editing.id)}&revision=${editing.revision}`, value);
      id = editing.id;
    } else {
      const book = $("f-book").value;
      id = (await send("POST", "/api/contact" + (book ? "?book=" + encodeURIComponent(book) : ""), value)).id;
    }
    $("editor").close();
    await reload({ keepScroll: true });
    await showContact(id);
  } catch (error) {
    showError(error);
  }
}

// MARK: - Duplicates and merges

async function openDuplicates() {
  $("duplicates").showModal();
  await refreshDuplicates();
}

async function refreshDuplicates() {
  const status = $("duplicates-status");
  status.textContent = "Looking for duplicates…";
  try {
    const [sets, merges] = await Promise.all([api("/api/duplicates"), api("/api/merges")]);
    status.textContent = sets.length ? `${sets.length} set${sets.length === 1 ? "" : "s"} of duplicates.` : "No duplicates.";
    $("duplicate-sets").replaceChildren(...sets.map((set) => {
      const li = document.createElement("li");
      const names = document.createElement("strong");
      names.textContent = set.names.join(" + ");
      const reasons = paragraph(`${set.confidence}: ${set.reasons.join(", ")}`, "reasons");
      const merge = document.createElement("button");
      merge.type = "button";
      merge.textContent = "Merge";
      merge.setAttribute("aria-label", `Merge ${set.names.join(" and ")}`);
      merge.addEventListener("click", async () => {
        try {
          const result = await send("POST", "/api/merge", { ids: set.ids });
          await refreshDuplicates();
          status.textContent = `Merged into ${result.id}.`;
          reload({ keepScroll: true });
        } catch (error) { status.textContent = error.message; }
      });
      li.append(names, reasons, merge);
      return li;
    }));
    $("merge-list").replaceChildren(...merges.map((record) => {
      const li = document.createElement("li");
      li.append(paragraph(`Merge ${record.id}: ${record.merged.join(", ")} into ${record.into} (${record.at})`));
      const unmerge = document.createElement("button");
      unmerge.type = "button";
      unmerge.textContent = "Unmerge";
      unmerge.setAttribute("aria-label", `Unmerge merge ${record.id}`);
      unmerge.addEventListener("click", async () => {
        try {
          const result = await send("POST", "/api/unmerge?id=" + record.id);
          await refreshDuplicates();
          status.textContent = `Restored ${result.restored.join(", ")}.`;
          reload({ keepScroll: true });
        } catch (error) { status.textContent = error.message; }
      });
      li.append(unmerge);
      return li;
    }));
    if (!merges.length) $("merge-list").replaceChildren(paragraph("No merges.", "hint"));
  } catch (error) {
    status.textContent = error.message;
  }
}

// MARK: - Sync

async function openSync() {
  $("sync").showModal();
  await refreshRemotes();
}

async function refreshRemotes() {
  const info = await api("/api/info");
  state.info = info;
  const list = $("remote-list");
  if (!info.remotes.length) {
    list.replaceChildren(paragraph("No remotes: `contactsdb remote add NAME URL` adds one.", "hint"));
    return;
  }
  list.replaceChildren(...info.remotes.map((remote) => {
    const li = document.createElement("li");
    li.dataset.remote = remote.name;
    const name = document.createElement("strong");
    name.textContent = remote.name;
    const last = paragraph(`${remote.url} — last sync: ${remote.lastSyncedAt || "never"}`, "reasons");
    last.className = "last-sync reasons";
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = "Sync now";
    button.setAttribute("aria-label", `Sync ${remote.name} now`);
    button.addEventListener("click", async () => {
      const status = $("sync-status");
      button.disabled = true;
      status.textContent = `Syncing ${remote.name}…`;
      try {
        const result = await send("POST", "/api/sync?remote=" + encodeURIComponent(remote.name));
        const line = (counts) => `${counts.new} new, ${counts.changed} changed, ${counts.deleted} deleted`;
        status.textContent = `${remote.name}: pulled ${line(result.pulled)}; pushed ${line(result.pushed)}.`;
        await refreshRemotes();
      } catch (error) {
        status.textContent = `${remote.name}: ${error.message}`;
      } finally {
        button.disabled = false;
      }
    });
    li.append(name, last, button);
    return li;
  }));
}

// MARK: - Changes from any process

function listen() {
  const events = new EventSource("/api/events");
  let pending = null;
  events.addEventListener("change", (event) => {
    const ids = JSON.parse(event.data).ids || [];
    clearTimeout(pending);
    pending = setTimeout(async () => {
      await reload({ keepScroll: true });
      if (state.selected && (ids.length === 0 || ids.includes(state.selected))) {
        await showContact(state.selected, { quiet: true });
      }
      try {
        state.info = await api("/api/info");
        renderViews();
      } catch { /* the list itself is what matters */ }
      window.contactsTimings.changesShown += 1;
    }, 60);
  });
}

// MARK: - Start

function start() {
  const list = $("list");
  let frame = 0;
  list.addEventListener("scroll", () => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => render());
  });
  window.addEventListener("resize", () => render());
  const search = $("search");
  search.addEventListener("input", () => {
    state.text = search.value;
    reload({ started: performance.now(), keystroke: true });
  });
  $("open-filters").addEventListener("click", () => $("filters").showModal());
  $("clear-filters").addEventListener("click", () => {
    state.has.clear();
    renderFilterSheet();
    updateFilterButton();
    reload();
  });
  $("open-sort").addEventListener("click", () => $("sort").showModal());
  $("sort-desc").addEventListener("change", (event) => { state.sort.desc = event.target.checked; reload(); });
  $("open-add").addEventListener("click", () => openEditor(null));
  $("cancel-edit").addEventListener("click", () => $("editor").close());
  $("edit-form").addEventListener("submit", save);
  // An error stays until its field is edited.
  $("edit-form").addEventListener("input", (event) => {
    const field = event.target;
    if (field.getAttribute("aria-invalid") !== "true") return;
    field.removeAttribute("aria-invalid");
    const message = field.closest(".item, .field")?.querySelector(".error");
    if (message) message.textContent = "";
  });
  $("add-phone").addEventListener("click", () => addItem("phone", "phones", ["mobile", "home", "work", "other"]));
  $("add-email").addEventListener("click", () => addItem("email", "emails", ["home", "work", "other"]));
  $("open-duplicates").addEventListener("click", openDuplicates);
  $("open-sync").addEventListener("click", openSync);
  reload();
  loadInfo().catch((error) => showSummary(error.message));
  listen();
}

start();
