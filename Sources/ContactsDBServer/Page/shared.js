// What every view of the page shares: its state, the requests to the
// JSON endpoints of `contactsdb serve`, and small pieces of the document.

export const $ = (id) => document.getElementById(id);

export const state = {
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
  formRows: {},                   // list key → the form's rows sent, in order
};

// What the browser tests read: the time from a keystroke (or the page's
// start) to its results on screen, and how many changes from elsewhere
// the page has shown.
window.contactsTimings = { firstScreen: null, keystrokes: [], changesShown: 0 };

/// The answers the document came with, to the page's first requests (the
/// server knows them as `Page.preloadedPaths`); each is taken once.
const preloaded = JSON.parse($("preloaded")?.textContent || "{}");

export async function api(path, options = {}) {
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

export const send = (method, path, value) => api(path, {
  method,
  headers: value === undefined ? {} : { "Content-Type": "application/json" },
  body: value === undefined ? undefined : JSON.stringify(value),
});

/// Reads `/api/info` again: the books, groups and remotes change.
export async function refreshInfo() {
  state.info = await api("/api/info");
  return state.info;
}

/// A thumbnail's address, new with each revision of its contact.
export const thumbnailURL = (contact) => `/api/thumbnail?id=${encodeURIComponent(contact.id)}&r=${contact.revision}`;

export function element(tag, { className, text } = {}) {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (text !== undefined) made.textContent = text;
  return made;
}

export const paragraph = (text, className) => element("p", { text, className });

export function button(text, action, { label, className } = {}) {
  const made = element("button", { text, className });
  made.type = "button";
  if (label) made.setAttribute("aria-label", label);
  if (action) made.addEventListener("click", action);
  return made;
}

/// When something was deleted or written, in the reader's own time.
export function timeElement(timestamp) {
  const time = document.createElement("time");
  time.dateTime = timestamp;
  const date = new Date(timestamp);
  time.textContent = Number.isNaN(date.getTime()) ? timestamp
    : date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
  return time;
}
