// The sheets beside the list: sync, upcoming birthdays with the
// calendar feed's address, and the trash with its restore.

import { $, api, button, element, paragraph, refreshInfo, send, timeElement } from "./shared.js";
import { byName, countOf } from "./helpers.js";
import { reload } from "./list.js";
import { showContact } from "./contact.js";

// MARK: - Sync

export async function openSync() {
  $("sync").showModal();
  await refreshRemotes();
}

async function refreshRemotes() {
  const info = await refreshInfo();
  const list = $("remote-list");
  if (!info.remotes.length) {
    list.replaceChildren(paragraph("No remotes: `contactsdb remote add NAME URL` adds one.", "hint"));
    return;
  }
  list.replaceChildren(...info.remotes.map(remoteRow));
}

function remoteRow(remote) {
  const li = document.createElement("li");
  li.dataset.remote = remote.name;
  const last = paragraph(`${remote.url} — last sync: ${remote.lastSyncedAt || "never"}`, "last-sync reasons");
  const syncNow = button("Sync now", async () => {
    const status = $("sync-status");
    syncNow.disabled = true;
    status.textContent = `Syncing ${remote.name}…`;
    try {
      const result = await send("POST", "/api/sync?remote=" + encodeURIComponent(remote.name));
      const line = (counts) => `${counts.new} new, ${counts.changed} changed, ${counts.deleted} deleted`;
      status.textContent = `${remote.name}: pulled ${line(result.pulled)}; pushed ${line(result.pushed)}.`;
      await refreshRemotes();
    } catch (error) {
      status.textContent = `${remote.name}: ${error.message}`;
    } finally {
      syncNow.disabled = false;
    }
  }, { label: `Sync ${remote.name} now` });
  li.append(element("strong", { text: remote.name }), last, syncNow);
  return li;
}

// MARK: - Birthdays

/// The next 30 days' birthdays and anniversaries, and the feed's address.
export async function openBirthdays() {
  $("birthdays").showModal();
  const status = $("birthdays-status");
  status.textContent = "Looking for birthdays…";
  try {
    const [dates, info] = await Promise.all([api("/api/birthdays?within=30"), refreshInfo()]);
    // The machine's host: a calendar app sends no cookie, and the app's own
    // host answers nothing without one.
    $("feed-url").value = "http://127.0.0.1:" + location.port + info.feedPath;
    status.textContent = dates.length ? `${dates.length} in the next 30 days.` : "No birthdays or anniversaries in the next 30 days.";
    $("birthday-list").replaceChildren(...dates.map((date) => {
      const li = document.createElement("li");
      const day = element("time", { text: date.date });
      day.dateTime = date.date;
      const what = date.kind === "birthday" ? "birthday" : date.label;
      const age = date.age === null ? "" : ` (${date.age})`;
      li.append(day, ` ${date.displayName || "(no name)"}: ${what}${age}`);
      return li;
    }));
  } catch (error) {
    status.textContent = error.message;
  }
}

// MARK: - Trash

export async function openTrash() {
  $("trash").showModal();
  await refreshTrash();
}

/// The deleted contacts, newest first, each with Restore; `note` says
/// what was just done.
async function refreshTrash(note = "") {
  const status = $("trash-status");
  status.textContent = note || "Looking in the trash…";
  try {
    const [trashed, info] = await Promise.all([api("/api/trash"), refreshInfo()]);
    $("trash-days").textContent = info.trashDays === 0
      ? "The trash keeps nothing: a deleted contact is gone at once (`contactsdb settings trash-days N` makes it keep N days)."
      : `A deleted contact is kept here ${countOf(info.trashDays, "day")}.`;
    const count = trashed.length ? `${countOf(trashed.length, "deleted contact")}.` : "The trash is empty.";
    status.textContent = [note, count].filter(Boolean).join(" ");
    $("trash-list").replaceChildren(...trashed.map(trashRow));
  } catch (error) {
    status.textContent = error.message;
  }
}

function trashRow(entry) {
  const li = document.createElement("li");
  li.dataset.id = entry.id;
  const name = entry.name || "(no name)";
  const about = paragraph(`${entry.book} · deleted `, "reasons");
  about.append(timeElement(entry.deletedAt), ` by ${byName(entry.by)}`);
  li.append(element("strong", { text: name }), about,
    button("Restore", () => restoreFromTrash(entry, li, false), { label: `Restore ${name}` }));
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
    li.append(button("Restore as new", () => restoreFromTrash(entry, li, true),
      { className: "as-new", label: `Restore ${name} as a new contact` }));
  }
}
