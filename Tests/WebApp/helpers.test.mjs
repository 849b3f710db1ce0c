// The page's pure helpers under node's test runner:
//   node --test Tests/WebApp/helpers.test.mjs
// The module is imported from its source as a data: URL: a `.js` file
// outside a package that says "module" is CommonJS to node, and Debian
// 12's node 18 has no flag to read it otherwise (helpers.js imports nothing).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

const source = readFileSync(new URL("../../Sources/ContactsDBServer/Page/helpers.js", import.meta.url));
const {
  addressLines, byName, countOf, describe, fieldPath, formatCount, HEAD, hrefOf, isLinkable, label, layOutSections,
  listParameters, numberOrText, ROW, rowAt, rowAtY, topOf,
} = await import("data:text/javascript;base64," + source.toString("base64"));

test("counts are grouped by thousands, and the noun agrees", () => {
  assert.equal(formatCount(0), "0");
  assert.equal(formatCount(999), "999");
  assert.equal(formatCount(1000), "1,000");
  assert.equal(formatCount(1234567), "1,234,567");
  assert.equal(countOf(1, "contact"), "1 contact");
  assert.equal(countOf(2, "contact"), "2 contacts");
  assert.equal(countOf(100, "contact", true), "100+ contacts");
  assert.equal(countOf(1, "contact", true), "1+ contacts");
});

test("the list's parameters are named as query's options", () => {
  const base = { has: new Set(), text: "", view: { kind: "all" }, sort: { key: "name", desc: false } };
  assert.equal(String(listParameters(base)), "sort=name");
  const chosen = { has: new Set(["telegram", "phone"]), text: "  anna ", view: { kind: "group", name: "Work & Co" },
    sort: { key: "last-name", desc: true } };
  assert.equal(String(listParameters(chosen)), "has=telegram%2Cphone&text=++anna+&group=Work+%26+Co&sort=last-name&desc=1");
  assert.equal(listParameters({ ...base, text: "   " }).has("text"), false);
  assert.equal(listParameters({ ...base, view: { kind: "favorites" } }).get("favorite"), "1");
  assert.equal(listParameters({ ...base, view: { kind: "book", name: "work" } }).get("book"), "work");
});

/// Every row of the sectioned list, one by one: what it shows and where.
function reference(counts) {
  const rows = [];
  let offset = 0, y = 0;
  counts.forEach((count, index) => {
    rows.push({ header: `S${index}`, top: y, height: HEAD });
    y += HEAD;
    for (let i = 0; i < count; i++) {
      rows.push({ offset: offset++, top: y, height: ROW });
      y += ROW;
    }
  });
  return { rows, height: y };
}

function randomCounts(random) {
  return Array.from({ length: 1 + Math.floor(random() * 12) }, () => 1 + Math.floor(random() * 7));
}

/// A small generator of its own, so that a failure can be replayed by its seed.
function generator(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
    return x / 2 ** 32;
  };
}

test("row, top and row at a height agree with every row laid out one by one, 300 random lists", () => {
  for (let seed = 1; seed <= 300; seed++) {
    const random = generator(seed);
    const counts = randomCounts(random);
    const sections = layOutSections(counts.map((count, index) => ({ sectionKey: `S${index}`, count })));
    const { rows, height } = reference(counts);
    rows.forEach((expected, row) => {
      const at = rowAt(sections, row);
      if (expected.header) assert.equal(at.header, expected.header, `seed ${seed} row ${row}`);
      else assert.equal(at.offset, expected.offset, `seed ${seed} row ${row}`);
      assert.equal(topOf(sections, row), expected.top, `seed ${seed} row ${row}`);
      for (const y of [expected.top, expected.top + expected.height - 1]) {
        assert.equal(rowAtY(sections, y), row, `seed ${seed} y ${y}`);
      }
    });
    assert.equal(rowAtY(sections, height + 1000), rows.length - 1, `seed ${seed}: past the end is the last row`);
  }
});

test("a list without sections is rows of one height", () => {
  assert.deepEqual(rowAt([], 7), { offset: 7 });
  assert.equal(topOf([], 7), 7 * ROW);
  assert.equal(rowAtY([], 7 * ROW + ROW - 1), 7);
});

test("only the web, mail and phone addresses become links", () => {
  for (const href of ["https://example.com", "HTTP://x", "mailto:a@b", "tel:+49"]) assert.equal(isLinkable(href), true, href);
  for (const href of ["javascript:alert(1)", "JaVaScRiPt:x", "data:text/html,x", " https://x", "vbscript:x", ""]) {
    assert.equal(isLinkable(href), false, href);
  }
  assert.equal(hrefOf("url", "javascript:alert(1)"), null);
  assert.equal(hrefOf("url", "https://example.com/a"), "https://example.com/a");
  assert.equal(hrefOf("tel", "+49 (30) 123-45", null), "tel:+493012345");
  assert.equal(hrefOf("tel", "030 12345", "+493012345"), "tel:+493012345");
  assert.equal(hrefOf("email", "anna@example.com"), "mailto:anna@example.com");
  assert.equal(hrefOf("text", "anything"), null);
});

test("an address reads in lines, postcode before the city", () => {
  assert.deepEqual(addressLines({ street1: "Hauptstr. 1", poBox: "12", zipcode: "10115", city: "Berlin", country: "DE" }),
    ["Hauptstr. 1", "PO box 12", "10115 Berlin", "DE"]);
  assert.deepEqual(addressLines({ city: "Oslo" }), ["Oslo"]);
  assert.deepEqual(addressLines({}), []);
});

test("an error's field is found by its key, entry and part", () => {
  assert.deepEqual(fieldPath("lastName"), { key: "lastName", index: undefined, part: undefined });
  assert.deepEqual(fieldPath("phones[1].value"), { key: "phones", index: 1, part: "value" });
  assert.deepEqual(fieldPath("contacts[3].addresses[0]"), { key: "addresses", index: 0, part: undefined });
  assert.equal(fieldPath(""), null);
  assert.equal(fieldPath(undefined), null);
});

test("values read as one line; writers as a person says them; whole numbers as numbers", () => {
  assert.equal(describe(null), "");
  assert.equal(describe([{ type: "home", value: "x" }, "y"]), "home, x, y");
  assert.equal(label("sortIndex"), "Sort Index");
  assert.equal(byName("web"), "this app");
  assert.equal(byName("sync:home"), "sync with home");
  assert.equal(byName("something-new"), "something-new");
  assert.equal(numberOrText("42"), 42);
  assert.equal(numberOrText("-7"), -7);
  assert.equal(numberOrText("4 2"), "4 2");
  assert.equal(numberOrText("1234567890"), "1234567890");
});
