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

/// The answers the document came with, to the page's first requests (the
/// server knows them as `Page.preloadedPaths`); each is taken once.
const preloaded = JSON.parse($("preloaded")?.textContent || "{}");

async function api(path, options = {}) {
  if (!options.method && Object.hasOwn(preloaded, path)) {
    const answer = preloaded[path];
    delete preloaded[path];
    return answer;
  }
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
  showSummary(`${formatCount(state.total)}${more ? "+" : ""} contact${state.total === 1 ? "" : "s"}`);
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
    showSummary(`${formatCount(state.total)} contact${state.total === 1 ? "" : "s"}`);
  }
}

function setHeight() {
  $("list-space").style.height = state.total * ROW + state.sections.length * HEAD + "px";
}

function showSummary(text) { $("summary").textContent = text; }

/// A count grouped by thousands as the page's language, English, writes
/// it. (Intl's first use would hold the first screen some 40 ms.)
const formatCount = (number) => String(number).replace(/\B(?=(\d{3})+$)/g, ",");

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
    image.src = thumbnailURL(contact);
    return image;
  }
  const initials = document.createElement("span");
  initials.className = "avatar";
  initials.setAttribute("aria-hidden", "true");
  initials.textContent = [...(contact.name || "#")][0].toUpperCase();
  return initials;
}

/// A thumbnail's address, new with each revision of its contact.
const thumbnailURL = (contact) => `/api/thumbnail?id=${encodeURIComponent(contact.id)}&r=${contact.revision}`;

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
      number.textContent = formatCount(count);
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

/// The lists of a contact, in the order its page and its form show them:
/// the key that says which kind of item each is (its label, or its
/// service) with the kinds offered, and its parts, each one input.
const lists = {
  phones: { noun: "Phone", kind: "type", parts: [["value", "Phone", "tel"]], preferred: true,
    kinds: ["mobile", "home", "work", "main", "iPhone", "fax", "home fax", "work fax", "pager", "other"] },
  emails: { noun: "Email", kind: "type", parts: [["value", "Email", "email"]], preferred: true,
    kinds: ["home", "work", "other"] },
  addresses: { noun: "Address", kind: "type", preferred: true, kinds: ["home", "work", "other"],
    parts: [["street1", "Street"], ["street2", "Street, second line"], ["poBox", "PO box"], ["city", "City"],
      ["state", "State or region"], ["zipcode", "Postcode"], ["country", "Country"]] },
  messengers: { noun: "Messenger", kind: "service", parts: [["handle", "Handle"]], kinds: () => state.info.messengers },
  urls: { noun: "URL", kind: "type", parts: [["value", "URL", "url"]], kinds: ["home", "work", "blog", "profile", "other"] },
  socialProfiles: { noun: "Social profile", kind: "service", parts: [["handle", "Handle"], ["url", "Profile URL", "url"]],
    kinds: ["twitter", "facebook", "linkedin", "instagram", "mastodon", "github"] },
  relations: { noun: "Related person", kind: "type", parts: [["name", "Name"]],
    kinds: ["spouse", "partner", "child", "parent", "mother", "father", "sibling", "friend", "assistant", "manager", "other"] },
  dates: { noun: "Date", kind: "type", parts: [["value", "Date (YYYY-MM-DD, or --MM-DD)"]], kinds: ["anniversary", "other"] },
};

/// The texts of a contact, in the order its page and its form show them.
const texts = [
  ["namePrefix", "Prefix"], ["firstName", "First name"], ["middleName", "Middle name"], ["lastName", "Last name"],
  ["nameSuffix", "Suffix"], ["nickname", "Nickname"], ["formattedName", "Name as written on the card"],
  ["phoneticFirstName", "Phonetic first name"], ["phoneticMiddleName", "Phonetic middle name"],
  ["phoneticLastName", "Phonetic last name"], ["company", "Company"], ["department", "Department"],
  ["jobTitle", "Job title"], ["role", "Role"], ["birthday", "Birthday"], ["note", "Note"],
];

/// What the page shows elsewhere, or not at all (derived or internal).
const hidden = new Set(["uid", "sortName", "sectionKey", "sortIndex", "displayName", "hasPhoto", "photo",
  "revision", "createdAt", "updatedAt"]);

const label = (key) => key.replace(/([A-Z])/g, " $1").replace(/^./, (c) => c.toUpperCase());

function describe(value) {
  if (value === null || value === undefined) return "";
  if (typeof value !== "object") return String(value);
  if (Array.isArray(value)) return value.map(describe).join(", ");
  return Object.values(value).map(describe).filter(Boolean).join(", ");
}

/// A link for an address of the web, a mail or a phone; plain text for
/// anything else (a `javascript:` URL among them).
function link(text, href) {
  if (!/^(https?:|mailto:|tel:)/i.test(href)) return document.createTextNode(text);
  const a = document.createElement("a");
  a.href = href;
  a.textContent = text;
  if (/^https?:/i.test(href)) {
    a.target = "_blank";
    a.rel = "noopener noreferrer";
  }
  return a;
}

/// How the page shows one item of a list: its parts, its link, whether
/// it is preferred and the vCard parameters it keeps.
function itemContent(key, item, index, answer) {
  const content = document.createDocumentFragment();
  switch (key) {
    case "phones": content.append(link(answer.phonesShown[index], "tel:" + (item.e164 || item.value).replace(/[^+\d]/g, ""))); break;
    case "emails": content.append(link(item.value, "mailto:" + item.value)); break;
    case "urls": content.append(link(item.value, item.value)); break;
    case "addresses": {
      const place = [item.zipcode, item.city].filter(Boolean).join(" ");
      content.append([item.street1, item.street2, item.poBox && `PO box ${item.poBox}`, place, item.state, item.country]
        .filter(Boolean).join("\n"));
      break;
    }
    case "socialProfiles":
      if (item.handle) content.append(item.handle);
      if (item.url) content.append(item.handle ? " " : "", link(item.url, item.url));
      break;
    default:
      content.append(item[lists[key].parts[0][0]] || "");
  }
  const notes = [item.preferred && "preferred", item.parameters && `vCard: ${item.parameters}`].filter(Boolean);
  if (notes.length) {
    const small = document.createElement("span");
    small.className = "muted";
    small.textContent = ` (${notes.join("; ")})`;
    content.append(small);
  }
  return content;
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
  title.textContent = (contact.displayName || "(no name)") + (contact.favorite ? " ★" : "");
  header.append(title);
  const status = paragraph("", "error");
  status.setAttribute("role", "alert");
  detail.replaceChildren(header, contactActions(answer), status, contactFields(answer), historySection(id));
  if (!quiet) title.setAttribute("tabindex", "-1");
}

/// Every field the card holds, each once: the known ones in an order a
/// person reads, anything else after them under its own name.
function contactFields(answer) {
  const contact = answer.contact;
  const list = document.createElement("dl");
  const add = (term, content) => {
    if (content === null || content === undefined || content === "") return;
    const dt = document.createElement("dt");
    dt.textContent = term;
    const dd = document.createElement("dd");
    dd.append(content);
    list.append(dt, dd);
  };
  const done = new Set(hidden);
  if (contact.kind === "organization") add("Kind", "Organization");
  done.add("kind");
  for (const [key, term] of texts.filter(([key]) => !["birthday", "note"].includes(key))) {
    add(term, contact[key]);
    done.add(key);
  }
  for (const [key, spec] of Object.entries(lists)) {
    (contact[key] || []).forEach((item, index) => {
      const kind = item[spec.kind];
      add(spec.noun + (kind ? ` (${kind})` : ""), itemContent(key, item, index, answer));
    });
    done.add(key);
    if (key === "relations") {
      add("Birthday", contact.birthday);
      add("Age", contact.age === null || contact.age === undefined ? null : String(contact.age));
      done.add("birthday").add("age");
    }
  }
  add("Note", contact.note);
  add("Groups", (contact.groups || []).join(", "));
  add("Favorite", contact.favorite ? "Yes" : null);
  add("Book", contact.book);
  for (const line of contact.extra || []) add("Card property", line);
  // The same person's cards in other books: a link to each.
  for (const other of answer.linked) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "link";
    button.textContent = `${other.name} (${other.book})`;
    button.addEventListener("click", () => showContact(other.id));
    add("Linked with", button);
  }
  add("Id", contact.id);
  for (const key of ["note", "groups", "favorite", "book", "extra", "id"]) done.add(key);
  for (const [key, value] of Object.entries(contact)) {
    if (!done.has(key)) add(label(key), describe(value));
  }
  add("Section", contact.sectionKey);
  add("Updated", contact.updatedAt);
  return list;
}

/// A contact's buttons: favorite, edit, remove photo, unlink, delete.
function contactActions(answer) {
  const contact = answer.contact;
  const id = contact.id;
  const at = `/api/contact?id=${encodeURIComponent(id)}&revision=${contact.revision}`;
  const actions = document.createElement("div");
  actions.className = "actions";
  actions.append(
    actionButton(contact.favorite ? "Remove from favorites" : "Add to favorites", async () => {
      await send("PATCH", at, { favorite: !contact.favorite });
      await showContact(id);
    }),
    actionButton("Edit", () => openEditor(contact)),
  );
  if (contact.hasPhoto) {
    actions.append(actionButton("Remove photo", async () => {
      await send("PATCH", at, { photo: null });
      await reload({ keepScroll: true });
      await showContact(id);
    }));
  }
  if (answer.linked.length) {
    actions.append(actionButton("Unlink", async () => {
      await send("POST", `/api/unlink?id=${encodeURIComponent(id)}`);
      await showContact(id);
    }));
  }
  actions.append(actionButton("Delete", () => deleteContact(contact, at), "danger"));
  return actions;
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

/// An input with its label, in a span the item's layout places.
function labelledInput(id, text, { hideLabel = false, type = "text", value = "" } = {}) {
  const part = document.createElement("span");
  part.className = "part";
  const caption = document.createElement("label");
  caption.htmlFor = id;
  caption.textContent = text;
  if (hideLabel) caption.className = "visually-hidden";
  const input = document.createElement("input");
  input.id = id;
  input.type = type;
  input.value = value;
  input.autocomplete = "off";
  part.append(caption, input);
  return { part, input };
}

/// One item of a list in the form: its kind (a label offered, or one
/// typed), its parts, "preferred" where the list has it, and the place
/// for its error. The item as read stays with the row, so that what the
/// form does not show (a phone's vCard parameters) is written back.
function listItem(key, item) {
  const spec = lists[key];
  const n = ++itemCounter;
  const noun = spec.noun === spec.noun.toUpperCase() ? spec.noun : spec.noun.toLowerCase();
  const row = document.createElement("div");
  row.className = "item";
  row.original = item;
  const error = document.createElement("p");
  error.className = "error";
  error.id = `${key}-error-${n}`;
  const kind = labelledInput(`${key}-${spec.kind}-${n}`, `${spec.noun} ${spec.kind === "service" ? "service" : "label"}`,
    { hideLabel: true, value: item[spec.kind] ?? kindsOf(key)[0] });
  kind.input.className = "kind";
  kind.input.dataset.part = spec.kind;
  kind.input.setAttribute("list", "kinds-" + key);
  row.append(kind.part);
  for (const [name, text, type] of spec.parts) {
    const part = labelledInput(`${key}-${name}-${n}`, text, { type, value: item[name] || "" });
    part.input.dataset.part = name;
    if (key === "phones") part.input.addEventListener("input", () => formatPhone(part.input));
    row.append(part.part);
  }
  if (spec.preferred) {
    const preferred = document.createElement("label");
    preferred.className = "check";
    const box = document.createElement("input");
    box.type = "checkbox";
    box.className = "preferred";
    box.checked = Boolean(item.preferred);
    box.setAttribute("aria-label", `Preferred ${noun}`);
    preferred.append(box, " Preferred");
    row.append(preferred);
  }
  const remove = document.createElement("button");
  remove.type = "button";
  remove.textContent = "Remove";
  remove.setAttribute("aria-label", `Remove this ${noun}`);
  remove.addEventListener("click", () => row.remove());
  row.append(remove, error);
  for (const input of row.querySelectorAll("input:not([type=checkbox])")) input.setAttribute("aria-describedby", error.id);
  return row;
}

const kindsOf = (key) => (typeof lists[key].kinds === "function" ? lists[key].kinds() : lists[key].kinds);

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

function showPreview(src) {
  if (previewURL) URL.revokeObjectURL(previewURL);
  previewURL = src && src.startsWith("blob:") ? src : null;
  const preview = $("photo-preview");
  preview.hidden = !src;
  if (src) preview.src = src; else preview.removeAttribute("src");
}

function openEditor(contact) {
  state.editing = contact || null;
  state.formRows = {};
  $("editor-title").textContent = contact ? `Edit ${contact.displayName}` : "Add contact";
  clearErrors();
  for (const [key] of texts) $("f-" + key).value = (contact && contact[key]) || "";
  $("f-kind").value = (contact && contact.kind) || "individual";
  $("f-age").value = contact && contact.age !== null && contact.age !== undefined ? String(contact.age) : "";
  $("f-favorite").checked = Boolean(contact && contact.favorite);
  $("f-extra").value = ((contact && contact.extra) || []).join("\n");
  $("f-newGroup").value = "";
  const form = $("edit-form");
  for (const key of Object.keys(lists)) {
    let options = $("kinds-" + key);
    if (!options) {
      options = document.createElement("datalist");
      options.id = "kinds-" + key;
      form.append(options);
    }
    options.replaceChildren(...kindsOf(key).map((kind) => new Option(kind)));
    const fieldset = $("f-" + key);
    fieldset.querySelectorAll(".item").forEach((row) => row.remove());
    const items = (contact && contact[key]) || [];
    // A new contact starts with a phone and an email to fill in.
    const shown = items.length || contact || !["phones", "emails"].includes(key) ? items : [{}];
    for (const item of shown) fieldset.insertBefore(listItem(key, item), fieldset.querySelector(".add-item"));
  }
  const book = $("f-book");
  book.replaceChildren(...state.info.books.map((entry) => {
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

/// A box for each group of the chosen book, and for each group checked
/// (one of another book, when the book changes: a move keeps it by name).
function renderGroupBoxes(checked) {
  const book = $("f-book").value;
  const names = state.info.groups.filter((group) => group.book === book).map((group) => group.name);
  for (const name of checked) if (!names.includes(name)) names.push(name);
  $("group-boxes").replaceChildren(...names.map((name) => {
    const caption = document.createElement("label");
    caption.className = "check";
    const box = document.createElement("input");
    box.type = "checkbox";
    box.value = name;
    box.checked = checked.includes(name);
    caption.append(box, " " + name);
    return caption;
  }));
}

const checkedGroups = () => [...$("group-boxes").querySelectorAll("input:checked")].map((box) => box.value);

function addItem(key) {
  const fieldset = $("f-" + key);
  const row = listItem(key, {});
  fieldset.insertBefore(row, fieldset.querySelector(".add-item"));
  row.querySelector("input[data-part]:not(.kind)").focus();
}

function clearErrors() {
  $("form-error").textContent = "";
  for (const element of $("edit-form").querySelectorAll("[aria-invalid]")) element.removeAttribute("aria-invalid");
  for (const element of $("edit-form").querySelectorAll(".field .error, .item .error, fieldset > .error")) element.textContent = "";
}

/// The form as the JSON format holds a contact: for an edit, every field
/// the form shows, empty ones null (cleared). An item whose parts are all
/// empty is left out; `rows` keeps the rows sent, in order, so that an
/// error naming `phones[1]` finds its row.
function formValue() {
  const editing = Boolean(state.editing);
  const value = { kind: $("f-kind").value };
  for (const [key] of texts) {
    const text = $("f-" + key).value.trim();
    if (text) value[key] = text;
    else if (editing) value[key] = null;
  }
  // A whole number goes as a number; anything else as typed, for the
  // store to refuse at its field.
  const age = $("f-age").value.trim();
  if (age) value.age = /^-?\d{1,9}$/.test(age) ? Number(age) : age;
  else if (editing) value.age = null;
  const rows = {};
  for (const [key, spec] of Object.entries(lists)) {
    value[key] = [];
    rows[key] = [];
    for (const row of $("f-" + key).querySelectorAll(".item")) {
      const item = { ...row.original, [spec.kind]: row.querySelector(".kind").value.trim() };
      for (const [name] of spec.parts) item[name] = row.querySelector(`[data-part="${name}"]`).value.trim();
      if (spec.preferred) item.preferred = row.querySelector(".preferred").checked;
      if (!spec.parts.some(([name]) => item[name])) continue;
      value[key].push(item);
      rows[key].push(row);
    }
  }
  const newGroup = $("f-newGroup").value.trim();
  value.groups = [...checkedGroups(), ...(newGroup ? [newGroup] : [])];
  value.favorite = $("f-favorite").checked;
  value.extra = $("f-extra").value.split("\n").map((line) => line.trim()).filter(Boolean);
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
/// `addresses[0]` (the item's first part), `photo`, `extra[2]`.
function fieldOf(path) {
  const match = /^(?:contacts\[\d+\]\.)?(\w+)(?:\[(\d+)\])?(?:\.(\w+))?/.exec(path || "");
  if (!match) return null;
  const [, key, index, part] = match;
  if (lists[key] && index !== undefined) {
    const row = state.formRows[key]?.[Number(index)];
    if (!row) return $("f-" + key);
    return (part && row.querySelector(`[data-part="${part}"]`)) || row.querySelector("input[data-part]:not(.kind)");
  }
  if (key === "groups") return $("f-newGroup");
  return $("f-" + key);
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
  const holder = input.tagName === "FIELDSET" ? input : input.closest(".item, .field") || input.parentElement;
  let message = holder.querySelector(input.tagName === "FIELDSET" ? ":scope > .error" : ".error");
  if (!message) {
    message = document.createElement("p");
    message.className = "error";
    message.id = (input.id || "field") + "-error";
    if (input.tagName === "FIELDSET") input.querySelector("legend").after(message); else holder.append(message);
    if (input.tagName !== "FIELDSET") input.setAttribute("aria-describedby", message.id);
  }
  message.textContent = error.message;
  const target = input.tagName === "FIELDSET" ? input.querySelector("input, select, textarea, button") : input;
  target.setAttribute("aria-invalid", "true");
  target.focus();
}

async function save(event) {
  event.preventDefault();
  clearErrors();
  const editing = state.editing;
  const { value, rows } = formValue();
  state.formRows = rows;
  const button = $("save-edit");
  button.disabled = true;
  try {
    const photo = await photoValue();
    if (photo !== undefined) value.photo = photo;
    let id;
    const book = $("f-book").value;
    if (editing) {
      await send("PATCH", `/api/contact?id=${encodeURIComponent(editing.id)}&revision=${editing.revision}`, value);
      id = editing.id;
      // A move is `contactsdb move`: the card goes to the other book whole.
      if (book && book !== editing.book) {
        await send("POST", `/api/move?id=${encodeURIComponent(id)}&to=${encodeURIComponent(book)}`);
      }
    } else {
      id = (await send("POST", "/api/contact" + (book ? "?book=" + encodeURIComponent(book) : ""), value)).id;
    }
    $("editor").close();
    await reload({ keepScroll: true });
    await showContact(id);
  } catch (error) {
    showError(error);
  } finally {
    button.disabled = false;
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
      // Contacts all in different books are linked: a merge would delete
      // a card from another account's server.
      const linking = set.action === "link";
      const merge = document.createElement("button");
      merge.type = "button";
      merge.textContent = linking ? "Link" : "Merge";
      merge.setAttribute("aria-label", `${merge.textContent} ${set.names.join(" and ")}`);
      merge.addEventListener("click", async () => {
        try {
          const result = await send("POST", linking ? "/api/link" : "/api/merge", { ids: set.ids });
          await refreshDuplicates();
          status.textContent = linking ? `Linked ${result.linked.join(", ")}.` : `Merged into ${result.id}.`;
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

// MARK: - Birthdays

/// The next 30 days' birthdays and anniversaries, and the feed's address.
async function openBirthdays() {
  $("birthdays").showModal();
  const status = $("birthdays-status");
  status.textContent = "Looking for birthdays…";
  try {
    const [dates, info] = await Promise.all([api("/api/birthdays?within=30"), api("/api/info")]);
    state.info = info;
    // The machine's host: a calendar app sends no cookie, and the app's own
    // host answers nothing without one.
    $("feed-url").value = "http://127.0.0.1:" + location.port + info.feedPath;
    status.textContent = dates.length ? `${dates.length} in the next 30 days.` : "No birthdays or anniversaries in the next 30 days.";
    $("birthday-list").replaceChildren(...dates.map((date) => {
      const li = document.createElement("li");
      const day = document.createElement("time");
      day.dateTime = date.date;
      day.textContent = date.date;
      const what = date.kind === "birthday" ? "birthday" : date.label;
      const age = date.age === null ? "" : ` (${date.age})`;
      li.append(day, ` ${date.displayName || "(no name)"}: ${what}${age}`);
      return li;
    }));
  } catch (error) {
    status.textContent = error.message;
  }
}

// MARK: - Nothing lost: delete with Undo, the trash, a contact's history

/// How long the bar after a delete offers Undo.
const UNDO_MS = 8000;

/// When something was deleted or written, in the reader's own time.
function formatWhen(timestamp) {
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime()) ? timestamp
    : date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

function timeElement(timestamp) {
  const time = document.createElement("time");
  time.dateTime = timestamp;
  time.textContent = formatWhen(timestamp);
  return time;
}

/// What wrote or deleted a contact (`web`, `sync:REMOTE`, …), as a person says it.
const byNames = { add: "contactsdb add", update: "contactsdb update", delete: "contactsdb delete", web: "this app",
  move: "moved", merge: "merged", unmerge: "unmerged", restore: "restored" };
const byName = (by) => byNames[by] || by.replace(/^sync:/, "sync with ");

/// A delete keeps the contact in the trash, so it asks nothing and offers
/// Undo; where the trash keeps nothing, a delete is for good, so it asks.
async function deleteContact(contact, at) {
  state.info = await api("/api/info");
  const keeps = state.info.trashDays > 0;
  if (!keeps && !confirm(`Delete ${contact.displayName}? The trash keeps nothing, so this cannot be undone.`)) return;
  await send("DELETE", at);
  state.selected = null;
  $("detail").replaceChildren(paragraph(`Deleted ${contact.displayName}.`, "hint"));
  reload({ keepScroll: true });
  if (keeps) offerUndo(contact);
}

let undoTimer = 0;

/// The bar shown for a few seconds after a delete: its Undo brings the
/// contact back from the trash as it was, at its place in the list.
function offerUndo(contact) {
  const toast = $("toast");
  const undo = $("toast-undo");
  const hide = () => { toast.hidden = true; };
  clearTimeout(undoTimer);
  $("toast-text").textContent = `Deleted ${contact.displayName || "(no name)"}.`;
  undo.hidden = false;
  undo.setAttribute("aria-label", `Undo deleting ${contact.displayName || "(no name)"}`);
  undo.onclick = async () => {
    clearTimeout(undoTimer);
    undo.disabled = true;
    try {
      await send("POST", "/api/trash/restore", { ids: [contact.id] });
      hide();
      await reload({ keepScroll: true });
      await showContact(contact.id);
    } catch (error) {
      $("toast-text").textContent = error.message;
      undo.hidden = true;
      undoTimer = setTimeout(hide, UNDO_MS);
    } finally {
      undo.disabled = false;
    }
  };
  toast.hidden = false;
  undoTimer = setTimeout(hide, UNDO_MS);
}

async function openTrash() {
  $("trash").showModal();
  await refreshTrash();
}

/// The deleted contacts, newest first, each with Restore; `note` says
/// what was just done.
async function refreshTrash(note = "") {
  const status = $("trash-status");
  status.textContent = note || "Looking in the trash…";
  try {
    const [trashed, info] = await Promise.all([api("/api/trash"), api("/api/info")]);
    state.info = info;
    $("trash-days").textContent = info.trashDays === 0
      ? "The trash keeps nothing: a deleted contact is gone at once (`contactsdb settings trash-days N` makes it keep N days)."
      : `A deleted contact is kept here ${info.trashDays} day${info.trashDays === 1 ? "" : "s"}.`;
    const count = trashed.length ? `${trashed.length} deleted contact${trashed.length === 1 ? "" : "s"}.` : "The trash is empty.";
    status.textContent = [note, count].filter(Boolean).join(" ");
    $("trash-list").replaceChildren(...trashed.map(trashRow));
  } catch (error) {
    status.textContent = error.message;
  }
}

function trashRow(entry) {
  const li = document.createElement("li");
  li.dataset.id = entry.id;
  const name = document.createElement("strong");
  name.textContent = entry.name || "(no name)";
  const about = paragraph(`${entry.book} · deleted `, "reasons");
  about.append(timeElement(entry.deletedAt), ` by ${byName(entry.by)}`);
  const restore = document.createElement("button");
  restore.type = "button";
  restore.textContent = "Restore";
  restore.setAttribute("aria-label", `Restore ${name.textContent}`);
  restore.addEventListener("click", () => restoreFromTrash(entry, li, false));
  li.append(name, about, restore);
  return li;
}

/// Brings a contact back under its id; when another contact has that id
/// now, says so and offers to bring it back as a new contact.
async function restoreFromTrash(entry, li, asNew) {
  const name = entry.name || "(no name)";
  try {
    const result = await send("POST", "/api/trash/restore", { ids: [entry.id], asNew });
    const gone = result.goneBooks.length ? ` Its book is gone: it is in ${result.defaultBook} now.` : "";
    await refreshTrash(`Restored ${name}.${gone}`);
    await reload({ keepScroll: true });
    await showContact(result.ids[0], { quiet: true });
  } catch (error) {
    $("trash-status").textContent = error.message;
    if (error.status !== 409 || asNew || li.querySelector(".as-new")) return;
    const again = document.createElement("button");
    again.type = "button";
    again.className = "as-new";
    again.textContent = "Restore as new";
    again.setAttribute("aria-label", `Restore ${name} as a new contact`);
    again.addEventListener("click", () => restoreFromTrash(entry, li, true));
    li.append(again);
  }
}

/// The History section of a contact's page, filled when its versions
/// come: newest (the current one) first, each with when, by what and the
/// fields it changed, and each earlier one with Restore.
function historySection(id) {
  const section = document.createElement("section");
  section.className = "history";
  section.setAttribute("aria-labelledby", "history-title");
  const title = document.createElement("h3");
  title.id = "history-title";
  title.textContent = "History";
  const list = document.createElement("ol");
  list.className = "plain";
  list.setAttribute("aria-label", "Versions");
  section.append(title, list);
  api("/api/history?id=" + encodeURIComponent(id)).then((versions) => {
    list.replaceChildren(...versions.map((version, index) => versionRow(id, version, index === 0)));
  }, (error) => section.append(paragraph(error.message, "error")));
  return section;
}


function versionRow(id, version, isCurrent) {
  const li = document.createElement("li");
  li.dataset.revision = String(version.revision);
  const by = version.by === null ? "not recorded" : byName(version.by);
  const about = paragraph(`Revision ${version.revision}${isCurrent ? " (current)" : ""} · `);
  about.append(timeElement(version.at), ` · ${by}`);
  const fields = paragraph(`Changed: ${version.fields.map(label).join(", ") || "nothing shown"}`, "reasons");
  li.append(about, fields);
  if (!isCurrent) li.append(versionDetails(id, version), restoreVersionButton(id, version));
  return li;
}

/// What the version held in the fields it changed, read when opened.
function versionDetails(id, version) {
  const details = document.createElement("details");
  const summary = document.createElement("summary");
  summary.textContent = "What it held";
  details.append(summary);
  details.addEventListener("toggle", async () => {
    if (!details.open || details.querySelector("dl, .error")) return;
    try {
      const { contact } = await api(`/api/history/version?id=${encodeURIComponent(id)}&revision=${version.revision}`);
      const held = document.createElement("dl");
      for (const key of version.fields.filter((key) => !hidden.has(key))) {
        const dt = document.createElement("dt");
        dt.textContent = label(key);
        const dd = document.createElement("dd");
        dd.textContent = describe(contact[key]) || "(empty)";
        held.append(dt, dd);
      }
      details.append(held);
    } catch (error) {
      details.append(paragraph(error.message, "error"));
    }
  });
  return details;
}

/// Makes the contact as it was at this version again, as a new update.
function restoreVersionButton(id, version) {
  const button = actionButton("Restore", async () => {
    await send("POST", `/api/history/restore?id=${encodeURIComponent(id)}&revision=${version.revision}`);
    await reload({ keepScroll: true });
    await showContact(id);
  });
  button.setAttribute("aria-label", `Restore revision ${version.revision}`);
  return button;
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
  $("edit-form").addEventListener("click", (event) => {
    const button = event.target.closest(".add-item");
    if (button) addItem(button.dataset.list);
  });
  // The preview shows what saving will leave: the file chosen, else the
  // photo kept, else none.
  const kept = () => (state.editing?.hasPhoto && !$("f-photo-remove").checked ? thumbnailURL(state.editing) : null);
  $("f-photo").addEventListener("change", () => {
    const file = $("f-photo").files[0];
    if (file) $("f-photo-remove").checked = false;
    showPreview(file ? URL.createObjectURL(file) : kept());
  });
  $("f-photo-remove").addEventListener("change", (event) => {
    if (event.target.checked) $("f-photo").value = "";
    showPreview(kept());
  });
  $("f-book").addEventListener("change", () => renderGroupBoxes(checkedGroups()));
  $("open-duplicates").addEventListener("click", openDuplicates);
  $("open-sync").addEventListener("click", openSync);
  $("open-birthdays").addEventListener("click", openBirthdays);
  $("open-trash").addEventListener("click", openTrash);
  reload();
  loadInfo().catch((error) => showSummary(error.message));
  listen();
}

start();
