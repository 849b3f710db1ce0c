// A contact's page: every field its card holds, laid out as the card's
// form declares it (`/api/info`'s `card`), its actions, its history,
// and a delete that the trash lets Undo.

import { $, api, button, element, paragraph, refreshInfo, send, state, timeElement } from "./shared.js";
import { addressLines, byName, describe, hrefOf, label } from "./helpers.js";
import { markSelected, reload } from "./list.js";
import { openEditor } from "./form.js";

/// What the page shows elsewhere, or not at all (derived or internal).
const hidden = new Set(["uid", "sortName", "sectionKey", "sortIndex", "displayName", "hasPhoto", "photo",
  "revision", "createdAt", "updatedAt"]);

export async function showContact(id, { quiet = false } = {}) {
  state.selected = id;
  markSelected(id);
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
    const photo = element("img", { className: "photo" });
    photo.alt = `Photo of ${contact.displayName}`;
    photo.src = `/api/photo?id=${encodeURIComponent(id)}&r=${contact.revision}`;
    header.append(photo);
  }
  const title = element("h2", { text: (contact.displayName || "(no name)") + (contact.favorite ? " ★" : "") });
  title.id = "contact-name";
  header.append(title);
  const status = paragraph("", "error");
  status.setAttribute("role", "alert");
  detail.replaceChildren(header, contactActions(answer), status, contactFields(answer), historySection(id));
  if (!quiet) title.setAttribute("tabindex", "-1");
}

/// A term and its content in a description list; nothing for an empty value.
function describer(list) {
  return (term, content) => {
    if (content === null || content === undefined || content === "") return;
    const dd = document.createElement("dd");
    dd.append(content);
    list.append(element("dt", { text: term }), dd);
  };
}

/// Every field the card holds, each once: the form's texts and lists in
/// its order, then what the page shows apart, then anything else under
/// its own name.
function contactFields(answer) {
  const contact = answer.contact;
  const list = document.createElement("dl");
  const add = describer(list);
  const done = new Set(hidden);
  // Before /api/info has come (or when it failed), every field shows
  // under its own name below.
  for (const section of state.info?.card.sections || []) {
    for (const text of section.texts || []) add(text.label, textContent(text, contact[text.key]));
    const spec = section.list;
    if (spec) {
      (contact[spec.key] || []).forEach((item, index) => add(entryTerm(spec, item), entryContent(spec, item, index, answer)));
    }
    for (const key of section.texts ? section.texts.map((text) => text.key) : [spec.key]) done.add(key);
  }
  add("Groups", (contact.groups || []).join(", "));
  add("Favorite", contact.favorite ? "Yes" : null);
  add("Book", contact.book);
  // The same person's cards in other books: a link to each.
  for (const other of answer.linked) {
    add("Linked with", button(`${other.name} (${other.book})`, () => showContact(other.id), { className: "link" }));
  }
  add("Id", contact.id);
  for (const key of ["groups", "favorite", "book", "id"]) done.add(key);
  for (const [key, value] of Object.entries(contact)) {
    if (!done.has(key)) add(label(key), describe(value));
  }
  add("Section", contact.sectionKey);
  add("Updated", contact.updatedAt);
  return list;
}

/// A text as the page reads it: a choice by its caption (none for the
/// first, the usual one), anything else as it is.
function textContent(text, value) {
  if (value === null || value === undefined) return null;
  if (!text.choices) return String(value);
  const index = text.choices.findIndex((choice) => choice.value === value);
  return index === 0 ? null : index > 0 ? text.choices[index].label : String(value);
}

/// A field's caption as the card's form gives it (a list's title), or
/// one made of its key.
function fieldLabel(key) {
  for (const section of state.info?.card.sections || []) {
    if (section.list?.key === key) return section.list.title;
    const text = section.texts?.find((candidate) => candidate.key === key);
    if (text) return text.label;
  }
  return label(key);
}

const entryTerm = (spec, item) => spec.noun + (spec.kind && item[spec.kind] ? ` (${item[spec.kind]})` : "");

/// A link for an address of the web, a mail or a phone; plain text for
/// anything else (a `javascript:` URL among them).
function link(text, href) {
  if (!href) return document.createTextNode(text);
  const a = element("a", { text });
  a.href = href;
  if (/^https?:/i.test(href)) {
    a.target = "_blank";
    a.rel = "noopener noreferrer";
  }
  return a;
}

/// How the page shows one entry of a list: its parts (a phone as the
/// list shows it, an address in lines), linked by their kind, whether it
/// is preferred and the vCard parameters it keeps.
function entryContent(spec, item, index, answer) {
  const content = document.createDocumentFragment();
  if (spec.lines) content.append(String(item));
  else if (spec.key === "addresses") content.append(addressLines(item).join("\n"));
  else {
    const parts = spec.parts.filter((part) => item[part.key]);
    parts.forEach((part, at) => {
      const value = item[part.key];
      const shown = spec.key === "phones" ? answer.phonesShown[index] : value;
      content.append(at ? " " : "", link(shown, hrefOf(part.type, value, item.e164)));
    });
  }
  const notes = [item.preferred && "preferred", item.parameters && `vCard: ${item.parameters}`].filter(Boolean);
  if (notes.length) content.append(element("span", { className: "muted", text: ` (${notes.join("; ")})` }));
  return content;
}

/// A contact's buttons: favorite, edit, remove photo, unlink, delete.
function contactActions(answer) {
  const contact = answer.contact;
  const id = contact.id;
  const at = `/api/contact?id=${encodeURIComponent(id)}&revision=${contact.revision}`;
  const actions = element("div", { className: "actions" });
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

/// A button whose failure shows on the contact's page.
function actionButton(text, action, className) {
  return button(text, async () => {
    try {
      await action();
    } catch (error) {
      const status = $("detail").querySelector(".error");
      if (status) status.textContent = error.message;
    }
  }, { className });
}

// MARK: - Delete and Undo

/// How long the bar after a delete offers Undo.
const UNDO_MS = 8000;

/// A delete keeps the contact in the trash, so it asks nothing and offers
/// Undo; where the trash keeps nothing, a delete is for good, so it asks.
async function deleteContact(contact, at) {
  const keeps = (await refreshInfo()).trashDays > 0;
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
  const name = contact.displayName || "(no name)";
  clearTimeout(undoTimer);
  $("toast-text").textContent = `Deleted ${name}.`;
  undo.hidden = false;
  undo.setAttribute("aria-label", `Undo deleting ${name}`);
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

// MARK: - History

/// The History section of a contact's page, filled when its versions
/// come: newest (the current one) first, each with when, by what and the
/// fields it changed, and each earlier one with Restore.
function historySection(id) {
  const section = element("section", { className: "history" });
  section.setAttribute("aria-labelledby", "history-title");
  const title = element("h3", { text: "History" });
  title.id = "history-title";
  const list = element("ol", { className: "plain" });
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
  const fields = paragraph(`Changed: ${version.fields.map(fieldLabel).join(", ") || "nothing shown"}`, "reasons");
  li.append(about, fields);
  if (!isCurrent) li.append(versionDetails(id, version), restoreVersionButton(id, version));
  return li;
}

/// What the version held in the fields it changed, read when opened.
function versionDetails(id, version) {
  const details = document.createElement("details");
  details.append(element("summary", { text: "What it held" }));
  details.addEventListener("toggle", async () => {
    if (!details.open || details.querySelector("dl, .error")) return;
    try {
      const { contact } = await api(`/api/history/version?id=${encodeURIComponent(id)}&revision=${version.revision}`);
      const held = document.createElement("dl");
      for (const key of version.fields.filter((key) => !hidden.has(key))) {
        held.append(element("dt", { text: fieldLabel(key) }), element("dd", { text: describe(contact[key]) || "(empty)" }));
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
  const restore = actionButton("Restore", async () => {
    await send("POST", `/api/history/restore?id=${encodeURIComponent(id)}&revision=${version.revision}`);
    await reload({ keepScroll: true });
    await showContact(id);
  });
  restore.setAttribute("aria-label", `Restore revision ${version.revision}`);
  return restore;
}
