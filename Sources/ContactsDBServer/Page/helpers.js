// What the page works out without the document or the server: counts,
// request parameters, where the list's rows go, how values read. The
// browser imports it; node's test runner tests it (Tests/WebApp), which
// is why it imports nothing.

export const ROW = 56;   // a contact's row, in pixels
export const HEAD = 30;  // a section's header

/// A count grouped by thousands as the page's language, English, writes
/// it. (Intl's first use would hold the first screen some 40 ms.)
export const formatCount = (number) => String(number).replace(/\B(?=(\d{3})+$)/g, ",");

/// "1 contact", "2 contacts", "1,000+ contacts".
export const countOf = (number, noun, more = false) =>
  `${formatCount(number)}${more ? "+" : ""} ${noun}${number === 1 && !more ? "" : "s"}`;

/// The list request's parameters for the filters, view and sort chosen,
/// named as `query`'s options.
export function listParameters({ has, text, view, sort }) {
  const p = new URLSearchParams();
  if (has.size) p.set("has", [...has].join(","));
  if (text.trim()) p.set("text", text);
  if (view.kind === "favorites") p.set("favorite", "1");
  if (view.kind === "book") p.set("book", view.name);
  if (view.kind === "group") p.set("group", view.name);
  p.set("sort", sort.key);
  if (sort.desc) p.set("desc", "1");
  return p;
}

/// The sections of a list answer laid out: each with the offset of its
/// first contact, its header's row and its header's top in pixels.
export function layOutSections(sections) {
  let start = 0;
  return sections.map((section, index) => {
    const entry = { key: section.sectionKey, count: section.count, start, row: start + index, top: start * ROW + index * HEAD };
    start += section.count;
    return entry;
  });
}

/// The last section at or before `value` by `field` (binary search).
function sectionAt(sections, field, value) {
  let low = 0, high = sections.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (sections[middle][field] <= value) low = middle; else high = middle - 1;
  }
  return low;
}

/// What row `row` of the list shows: a section's header or a contact's
/// offset in the result.
export function rowAt(sections, row) {
  if (!sections.length) return { offset: row };
  const index = sectionAt(sections, "row", row);
  const section = sections[index];
  return row === section.row ? { header: section.key, section: index }
    : { offset: section.start + (row - section.row - 1), section: index };
}

/// Where row `row` starts, in pixels.
export function topOf(sections, row) {
  if (!sections.length) return row * ROW;
  const at = rowAt(sections, row);
  const section = sections[at.section];
  return at.header !== undefined ? section.top : section.top + HEAD + (at.offset - section.start) * ROW;
}

/// The row at `y` pixels from the top.
export function rowAtY(sections, y) {
  if (!sections.length) return Math.floor(y / ROW);
  const section = sections[sectionAt(sections, "top", y)];
  if (y < section.top + HEAD) return section.row;
  return section.row + 1 + Math.min(section.count - 1, Math.floor((y - section.top - HEAD) / ROW));
}

/// A key of the JSON format as a caption, for one no form names:
/// `sortIndex` → "Sort Index".
export const label = (key) => key.replace(/([A-Z])/g, " $1").replace(/^./, (c) => c.toUpperCase());

/// Any value of a card as one line of text.
export function describe(value) {
  if (value === null || value === undefined) return "";
  if (typeof value !== "object") return String(value);
  if (Array.isArray(value)) return value.map(describe).join(", ");
  return Object.values(value).map(describe).filter(Boolean).join(", ");
}

/// Whether an address may be a link: the web, a mail or a phone, and
/// nothing a card could use to run script (`javascript:`, `data:`).
export const isLinkable = (href) => /^(https?:|mailto:|tel:)/i.test(href);

/// The address a part of an entry links to, by its input type; null
/// where it is no link.
export function hrefOf(type, value, e164) {
  switch (type) {
    case "tel": return "tel:" + (e164 || value).replace(/[^+\d]/g, "");
    case "email": return "mailto:" + value;
    case "url": return isLinkable(value) ? value : null;
    default: return null;
  }
}

/// A postal address as lines: the streets, the PO box, postcode and
/// city, region, country.
export function addressLines(address) {
  const place = [address.zipcode, address.city].filter(Boolean).join(" ");
  return [address.street1, address.street2, address.poBox && `PO box ${address.poBox}`, place, address.state, address.country]
    .filter(Boolean);
}

/// What wrote or deleted a contact (`web`, `sync:REMOTE`, …), as a person says it.
const byNames = { add: "contactsdb add", update: "contactsdb update", delete: "contactsdb delete", web: "this app",
  move: "moved", merge: "merged", unmerge: "unmerged", restore: "restored" };
export const byName = (by) => byNames[by] || by.replace(/^sync:/, "sync with ");

/// The parts of the field an error names: `lastName`, `phones[1].value`,
/// `contacts[0].addresses[0]` → `{key, index, part}`; null for none.
export function fieldPath(path) {
  const match = /^(?:contacts\[\d+\]\.)?(\w+)(?:\[(\d+)\])?(?:\.(\w+))?/.exec(path || "");
  if (!match) return null;
  const [, key, index, part] = match;
  return { key, index: index === undefined ? undefined : Number(index), part };
}

/// A text typed for a number field: a whole number goes as a number,
/// anything else as typed, for the store to refuse at its field.
export const numberOrText = (text) => (/^-?\d{1,9}$/.test(text) ? Number(text) : text);
