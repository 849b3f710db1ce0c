// The contacts page: a thin client of the JSON endpoints of
// `contactsdb serve`, in modules, one per view (list, contact, form,
// duplicates, sheets) over shared state and pure helpers. This one wires
// the document's controls to them and listens for changes.

import { $, refreshInfo, state, thumbnailURL } from "./shared.js";
import { loadInfo, reload, render, renderFilterSheet, renderViews, showSummary, updateFilterButton } from "./list.js";
import { showContact } from "./contact.js";
import { addItem, checkedGroups, openEditor, renderGroupBoxes, save, showPreview } from "./form.js";
import { openDuplicates } from "./duplicates.js";
import { openBirthdays, openSync, openTrash } from "./sheets.js";

/// Changes from any process: the list again, the contact shown if it
/// changed, the views' counts.
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
        await refreshInfo();
        renderViews();
      } catch { /* the list itself is what matters */ }
      window.contactsTimings.changesShown += 1;
    }, 60);
  });
}

function wireList() {
  let frame = 0;
  $("list").addEventListener("scroll", () => {
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
}

function wireForm() {
  const form = $("edit-form");
  $("open-add").addEventListener("click", () => openEditor(null));
  $("cancel-edit").addEventListener("click", () => $("editor").close());
  form.addEventListener("submit", save);
  // An error stays until its field is edited.
  form.addEventListener("input", (event) => {
    const field = event.target;
    if (field.getAttribute("aria-invalid") !== "true") return;
    field.removeAttribute("aria-invalid");
    const message = field.closest(".item, .field")?.querySelector(".error");
    if (message) message.textContent = "";
  });
  form.addEventListener("click", (event) => {
    const add = event.target.closest(".add-item");
    if (add) addItem(add.dataset.list);
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
}

wireList();
wireForm();
$("open-duplicates").addEventListener("click", openDuplicates);
$("open-sync").addEventListener("click", openSync);
$("open-birthdays").addEventListener("click", openBirthdays);
$("open-trash").addEventListener("click", openTrash);
reload();
loadInfo().catch((error) => showSummary(error.message));
listen();
