// The list: virtual, rows of fixed heights (a contact's, a section
// header's), of which only those in view exist, filled by pages fetched
// as they come into view; its index, its views, its filter and sort.

import { $, api, button, element, refreshInfo, state, thumbnailURL } from "./shared.js";
import { countOf, formatCount, layOutSections, listParameters, ROW, HEAD, rowAt, rowAtY, topOf } from "./helpers.js";
import { showContact } from "./contact.js";

const PAGE = 100;
const rendered = new Map(); // row → element

/// Reads the first page with the count and sections, for new filters; a
/// newer call makes an older one's answer moot. A search shows its first
/// page at once, flat, and counts the rest after: counting every match
/// of a word's first letter costs more than a keystroke may.
export async function reload({ keepScroll = false, started = 0, keystroke = false } = {}) {
  const generation = ++state.generation;
  const searching = state.text.trim() !== "";
  const p = listParameters(state);
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
  state.sections = layOutSections(answer.sections || []);
  state.pages = new Map([[0, answer.contacts]]);
  setHeight();
  if (!keepScroll) $("list").scrollTop = 0;
  $("list-space").replaceChildren();
  rendered.clear();
  render();
  renderIndex();
  const more = searching && answer.contacts.length === PAGE;
  showSummary(countOf(state.total, "contact", more));
  $("list").setAttribute("aria-busy", "false");
  // The first screen counts from the navigation's start (the clock's
  // origin); a keystroke from its input event.
  if (keystroke) window.contactsTimings.keystrokes.push(performance.now() - started);
  else if (window.contactsTimings.firstScreen === null) window.contactsTimings.firstScreen = performance.now();
  if (more) await countAll(p, generation);
}

/// The count of a search's matches, after its first page.
async function countAll(p, generation) {
  p.set("meta", "1");
  p.set("sections", "0");
  p.set("limit", "0");
  const counted = await api("/api/list?" + p).catch(() => null);
  if (!counted || generation !== state.generation) return;
  state.total = counted.total;
  setHeight();
  render();
  showSummary(countOf(state.total, "contact"));
}

const rowCount = () => state.total + state.sections.length;

function setHeight() {
  $("list-space").style.height = state.total * ROW + state.sections.length * HEAD + "px";
}

export function showSummary(text) { $("summary").textContent = text; }

function contactAt(offset) {
  const page = state.pages.get(Math.floor(offset / PAGE));
  return Array.isArray(page) ? page[offset % PAGE] : undefined;
}

function loadPage(number) {
  if (state.pages.has(number)) return;
  const generation = state.generation;
  const p = listParameters(state);
  p.set("offset", String(number * PAGE));
  p.set("limit", String(PAGE));
  const request = api("/api/list?" + p).then((answer) => {
    if (generation !== state.generation) return;
    state.pages.set(number, answer.contacts);
    render(true);
  }, () => { if (generation === state.generation) state.pages.delete(number); });
  state.pages.set(number, request);
}

/// Puts the rows in view (and a few around them) in the document, and
/// only those; asks for the pages they need.
export function render(refill = false) {
  const list = $("list");
  const first = Math.max(0, rowAtY(state.sections, list.scrollTop) - 8);
  const last = Math.min(rowCount() - 1, rowAtY(state.sections, list.scrollTop + list.clientHeight) + 8);
  for (const [row, shown] of rendered) {
    if (row < first || row > last || (refill && shown.classList.contains("loading"))) {
      if (shown.contains(document.activeElement)) continue;
      shown.remove();
      rendered.delete(row);
    }
  }
  for (let row = first; row <= last; row++) {
    if (rendered.has(row)) continue;
    const at = rowAt(state.sections, row);
    let shown;
    if (at.header !== undefined) {
      shown = element("div", { className: "section-header", text: at.header });
      shown.setAttribute("role", "heading");
      shown.setAttribute("aria-level", "2");
    } else {
      const contact = contactAt(at.offset);
      if (!contact) loadPage(Math.floor(at.offset / PAGE));
      shown = contactRow(contact, row);
    }
    shown.style.top = topOf(state.sections, row) + "px";
    shown.dataset.row = String(row);
    $("list-space").appendChild(shown);
    rendered.set(row, shown);
  }
}

/// Marks the row of the contact shown on the contact's page.
export function markSelected(id) {
  for (const shown of rendered.values()) {
    if (shown.dataset.id === id) shown.setAttribute("aria-current", "true");
    else shown.removeAttribute("aria-current");
  }
}

function contactRow(contact, row) {
  const entry = button(undefined, undefined, { className: "row" });
  entry.setAttribute("role", "listitem");
  if (!contact) {
    entry.classList.add("loading");
    entry.innerHTML = '<span class="avatar"></span><span class="text"><span class="name">…</span></span>';
    return entry;
  }
  entry.dataset.id = contact.id;
  if (contact.id === state.selected) entry.setAttribute("aria-current", "true");
  const text = element("span", { className: "text" });
  text.append(element("span", { className: "name", text: contact.name + (contact.favorite ? " ★" : "") }),
    element("span", { className: "sub", text: [contact.phone, contact.email].filter(Boolean).join(" · ") }));
  entry.append(avatar(contact), text);
  entry.addEventListener("click", () => showContact(contact.id));
  entry.addEventListener("keydown", (event) => moveFocus(event, row));
  return entry;
}

function avatar(contact) {
  if (contact.photo) {
    const image = element("img", { className: "avatar" });
    image.alt = "";
    image.loading = "lazy";
    image.src = thumbnailURL(contact);
    return image;
  }
  const initials = element("span", { className: "avatar", text: [...(contact.name || "#")][0].toUpperCase() });
  initials.setAttribute("aria-hidden", "true");
  return initials;
}

/// Up and down walk the rows, as they would a native list.
function moveFocus(event, row) {
  const step = { ArrowDown: 1, ArrowUp: -1, PageDown: 8, PageUp: -8 }[event.key];
  if (!step) return;
  event.preventDefault();
  let target = row + step;
  while (target >= 0 && target < rowCount() && rowAt(state.sections, target).header !== undefined) target += Math.sign(step);
  if (target < 0 || target >= rowCount()) return;
  const list = $("list");
  const top = topOf(state.sections, target);
  if (top < list.scrollTop) list.scrollTop = top;
  else if (top + ROW > list.scrollTop + list.clientHeight) list.scrollTop = top + ROW - list.clientHeight;
  render();
  rendered.get(target)?.focus();
}

function renderIndex() {
  $("index").replaceChildren(...state.sections.map((section) => button(section.key, () => {
    $("list").scrollTop = section.top;
    render();
    rendered.get(section.row + 1)?.focus();
  }, { label: `Jump to ${section.key}` })));
}

// MARK: - Views: all, favorites, books, groups

export function renderViews() {
  const info = state.info;
  const item = (name, count, view) => {
    const li = document.createElement("li");
    const choose = button(undefined, () => { state.view = view; renderViews(); reload(); });
    choose.append(element("span", { text: name }));
    if (count !== undefined) choose.append(element("span", { className: "count", text: formatCount(count) }));
    const current = state.view;
    choose.setAttribute("aria-pressed", String(current.kind === view.kind && current.name === view.name));
    li.append(choose);
    return li;
  };
  $("views").replaceChildren(item("All contacts", undefined, { kind: "all" }), item("Favorites", undefined, { kind: "favorites" }));
  $("books").replaceChildren(...info.books.map((book) => item(book.name, book.count, { kind: "book", name: book.name })));
  $("groups").replaceChildren(...info.groups.map((group) => item(group.name, group.memberCount, { kind: "group", name: group.name })));
}

export async function loadInfo() {
  await refreshInfo();
  renderViews();
  renderFilterSheet();
  renderSortSheet();
}

// MARK: - Filter and sort sheets

/// A check box or radio button with its caption, for the sheets.
function choice(type, name, caption, checked, changed) {
  const holder = document.createElement("label");
  const input = document.createElement("input");
  input.type = type;
  input.name = name;
  input.checked = checked;
  input.addEventListener("change", () => changed(input.checked));
  holder.append(input, " " + caption);
  return holder;
}

export function renderFilterSheet() {
  const boxes = $("filter-boxes");
  boxes.querySelectorAll("label").forEach((holder) => holder.remove());
  for (const name of state.info.attributes) {
    boxes.append(choice("checkbox", name, name[0].toUpperCase() + name.slice(1), state.has.has(name), (checked) => {
      if (checked) state.has.add(name); else state.has.delete(name);
      updateFilterButton();
      reload();
    }));
  }
}

export function updateFilterButton() {
  $("open-filters").textContent = state.has.size ? `Filters (${state.has.size})` : "Filters";
}

const sortNames = { name: "Name (sections)", "first-name": "First name", "last-name": "Last name", company: "Company" };

function renderSortSheet() {
  const keys = $("sort-keys");
  keys.querySelectorAll("label").forEach((holder) => holder.remove());
  for (const key of state.info.sorts) {
    keys.append(choice("radio", "sort-key", sortNames[key] || key, state.sort.key === key, () => {
      state.sort.key = key;
      reload();
    }));
  }
}
