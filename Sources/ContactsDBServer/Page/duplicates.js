// The duplicates sheet: each set the store finds, with Merge (or Link,
// for a set whose contacts are all in different books), and the merges
// made, each with Unmerge.

import { $, api, button, paragraph, send } from "./shared.js";
import { countOf } from "./helpers.js";
import { reload } from "./list.js";

export async function openDuplicates() {
  $("duplicates").showModal();
  await refreshDuplicates();
}

async function refreshDuplicates() {
  const status = $("duplicates-status");
  status.textContent = "Looking for duplicates…";
  try {
    const [sets, merges] = await Promise.all([api("/api/duplicates"), api("/api/merges")]);
    status.textContent = sets.length ? `${countOf(sets.length, "set")} of duplicates.` : "No duplicates.";
    $("duplicate-sets").replaceChildren(...sets.map(setRow));
    $("merge-list").replaceChildren(...merges.map(mergeRow));
    if (!merges.length) $("merge-list").replaceChildren(paragraph("No merges.", "hint"));
  } catch (error) {
    status.textContent = error.message;
  }
}

/// Runs a change of the sheet's, then shows the sheet again with what
/// it did, or its error.
async function change(action, done) {
  const status = $("duplicates-status");
  try {
    const result = await action();
    await refreshDuplicates();
    status.textContent = done(result);
    reload({ keepScroll: true });
  } catch (error) { status.textContent = error.message; }
}

function setRow(set) {
  const li = document.createElement("li");
  const names = document.createElement("strong");
  names.textContent = set.names.join(" + ");
  const reasons = paragraph(`${set.confidence}: ${set.reasons.join(", ")}`, "reasons");
  // Contacts all in different books are linked: a merge would delete
  // a card from another account's server.
  const linking = set.action === "link";
  const verb = linking ? "Link" : "Merge";
  const act = button(verb, () => change(() => send("POST", linking ? "/api/link" : "/api/merge", { ids: set.ids }),
    (result) => (linking ? `Linked ${result.linked.join(", ")}.` : `Merged into ${result.id}.`)),
  { label: `${verb} ${set.names.join(" and ")}` });
  li.append(names, reasons, act);
  return li;
}

function mergeRow(record) {
  const li = document.createElement("li");
  li.append(paragraph(`Merge ${record.id}: ${record.merged.join(", ")} into ${record.into} (${record.at})`),
    button("Unmerge", () => change(() => send("POST", "/api/unmerge?id=" + record.id),
      (result) => `Restored ${result.restored.join(", ")}.`), { label: `Unmerge merge ${record.id}` }));
  return li;
}
