#!/usr/bin/env python3
"""Fidelity of whole cards: the corpus in fidelity-corpus/ (cards in the
habits of twelve producers) goes through contactsdb, one card at a time:
import into a new database, export as vCard 3.0 and as 4.0, and every
property of the input is looked for in each export, compared by meaning.
The same corpus goes through vobject (read, then serialize) and through
khard (two edits of the contact through its YAML form, the second undoing
the first) for comparison.

Usage: fidelity.py PATH/TO/contactsdb [--corpus DIR] [--others] [--verbose]
  --corpus   read the cards of DIR instead (DIR/PRODUCER/*.vcf, or DIR/*.vcf
             named for their producers): cards fetched to measure with
  --others   also run vobject and khard (needs: pip install khard vobject)
  --vobject  also run vobject alone
  --verbose  list every property a card lost
Exits 1 when a readable card is not imported, fewer than 98% of the cards
come out lossless through 3.0 or through 4.0, or an export holds U+FFFD
that its input did not.

What "by meaning" sets aside: version, case of names and types, folding,
escaping, order, groups, encodings (quoted-printable, base64, CHARSET) and
the spellings one meaning has: line breaks as CRLF or LF; TYPE=pref and PREF=1; an untyped value and
TYPE=other or Apple's _$!<Other>!$_; TEL's voice and EMAIL's internet;
X-ABLabel and TYPE; basic and extended dates, Apple's year 1604 and
--MM-DD; X-ABDATE labelled Anniversary and ANNIVERSARY; X-ABRELATEDNAMES
and RELATED; X-ABShowAs:COMPANY and KIND:org; IMPP with X-SERVICE-TYPE and
a service's own URI scheme; a tel: URI and its number; any property's
bytes however they are carried (base64 or a data: URI); an IMPP's item
label that names its service; Roundcube's TYPE=homefax and workfax and the
pairs home,fax and work,fax.

How the input is read: 2.1's bare QUOTED-PRINTABLE and BASE64 are
encodings, not types; a one-byte CHARSET (ISO-8859-1, Windows-125x) over
bytes that are valid UTF-8 is read as UTF-8, as contactsdb reads it; UTF-16
without a byte-order mark by its zero bytes; a 2.1 line that ends in a
backslash goes on to the next line when that holds no colon.
REV, like VERSION and PRODID, is the writer's: it says when the card was
last written, and an export writes its own. A property with an empty value holds nothing and
is not looked for; FN, N and UID a writer must add are not counted as
gained.
"""
import base64
import binascii
import collections
import hashlib
import io
import quopri
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import vobject.base

CORPUS = Path(__file__).resolve().parent / "fidelity-corpus"
STRUCTURED = {"N", "ADR", "ORG", "GENDER", "CLIENTPIDMAP"}
LISTS = {"CATEGORIES"}
BINARY = {"PHOTO", "LOGO", "SOUND", "KEY"}
DATES = {"BDAY", "ANNIVERSARY", "X-ABDATE", "DEATHDATE"}
DEFAULT_TYPES = {"TEL": {"voice"}, "EMAIL": {"internet"}}
IGNORED = {"VERSION", "PRODID", "REV", "X-ABLABEL"}


# ------------------------------------------------------------------ reading

def split_cards(data):
    """The top-level cards of a file, as bytes; a card nested in AGENT stays inside."""
    cards, current, depth = [], [], 0
    for line in re.split(rb"\r\n|\n|\r", data):
        bare = line.strip().upper()
        if bare == b"BEGIN:VCARD":
            depth += 1
        if depth > 0:
            current.append(line)
        if bare == b"END:VCARD" and depth > 0:
            depth -= 1
            if depth == 0:
                cards.append(b"\r\n".join(current) + b"\r\n")
                current = []
    return cards


def unmarked_utf16(data):
    """The codec of UTF-16 without a byte-order mark (macOS Contacts'
    export), told by a zero byte beside each of the first four characters."""
    head = data[:8]
    if len(head) == 8 and all(b == 0 for b in head[0::2]) and all(0x09 <= b < 0x7f for b in head[1::2]):
        return "utf-16-be"
    if len(head) == 8 and all(b == 0 for b in head[1::2]) and all(0x09 <= b < 0x7f for b in head[0::2]):
        return "utf-16-le"
    return None


def file_text(data):
    """Bytes as text one character per byte, so that each property can be
    decoded in its own charset; UTF-16/32 files by their byte-order mark,
    or UTF-16 without one."""
    for bom, codec in ((b"\xff\xfe\x00\x00", "utf-32"), (b"\x00\x00\xfe\xff", "utf-32"),
                       (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16")):
        if data.startswith(bom):
            return data.decode(codec).encode("utf-8").decode("latin-1")
    if unmarked_utf16(data):
        return data.decode(unmarked_utf16(data)).encode("utf-8").decode("latin-1")
    return data.decode("latin-1")


def legacy_charset(text):
    """The charset of 8-bit text without CHARSET: the file's other CHARSET if any, else Windows-1252."""
    named = [c for c in re.findall(r"CHARSET=([A-Za-z0-9_\-]+)", text, re.I) if c.lower() not in ("utf-8", "utf8")]
    return named[-1] if named else "cp1252"


SINGLE_BYTE = {"iso-8859-1", "latin1", "latin-1", "iso-8859-2", "latin2", "windows-1250", "cp1250",
               "windows-1251", "cp1251", "windows-1252", "cp1252", "windows-1253", "cp1253", "windows-1254", "cp1254"}


def decoded(raw, charset, legacy):
    # A one-byte CHARSET reads any bytes; bytes that are valid UTF-8 under
    # it are UTF-8 the producer mislabelled (ISO-8859-1 holding UTF-8's "Ñ").
    if charset and charset.lower().replace("_", "-") in SINGLE_BYTE:
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            pass
    if charset:
        try:
            return raw.decode(charset)
        except (LookupError, UnicodeDecodeError):
            pass
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode(legacy, errors="replace")


def parse(text):
    """(group, NAME, params, value) of each property of one card, values decoded."""
    legacy = legacy_charset(text)
    # A 2.1 value whose line ends in a backslash goes on to the next line
    # when that holds no colon (an address on several lines, as Android
    # reads it): the backslash escapes the line break.
    text = re.sub(r"(?<!\\)((?:\\\\)*\\)\r?\n(?=[^ \t\r\n][^:\r\n]*\r?\n)", r"\1n", text)
    lines = [line for line, _ in vobject.base.getLogicalLines(io.StringIO(text))]
    props, index = [], 0
    while index < len(lines):
        line = lines[index]
        index += 1
        # vobject's names are letters, digits and dashes; KAddressBook's
        # X-MESSAGING/xmpp-All has a slash, stood in for while parsing.
        name_end = min((line.find(c) for c in ";:" if c in line), default=len(line))
        try:
            name, params, value, group = vobject.base.parseLine(
                line[:name_end].replace("/", "-SLASH-") + line[name_end:], index)
        except vobject.base.ParseError:
            continue  # a line without a colon (Evolution 1.x's bare FN) holds nothing
        name = name.upper().replace("-SLASH-", "/")
        if name in ("BEGIN", "END"):
            continue
        def text(item):  # parameter values are UTF-8 where they can be
            try:
                return item.encode("latin-1").decode("utf-8")
            except (UnicodeEncodeError, UnicodeDecodeError):
                return item
        pairs = []
        for param in params:
            if len(param) == 1:
                pairs.append(("TYPE", text(param[0])))
            else:
                for item in param[1:]:
                    pairs.append((param[0].upper(), text(item)))
        # vCard 2.1 names an encoding bare (`TEL;WORK;QUOTED-PRINTABLE:`).
        bare = [v.upper() for k, v in pairs if k == "TYPE" and v.upper() in ("QUOTED-PRINTABLE", "BASE64")]
        pairs = [(k, v) for k, v in pairs if not (k == "TYPE" and v.upper() in ("QUOTED-PRINTABLE", "BASE64"))]
        encoding = next((v.upper() for k, v in pairs if k == "ENCODING"), bare[0] if bare else "")
        charset = next((v for k, v in pairs if k == "CHARSET"), None)
        if name == "AGENT" and value == "" and index < len(lines) and lines[index].strip().upper() == "BEGIN:VCARD":
            depth, nested = 0, []
            while index < len(lines):
                nested.append(lines[index])
                upper = lines[index].strip().upper()
                depth += upper == "BEGIN:VCARD"
                depth -= upper == "END:VCARD"
                index += 1
                if depth == 0:
                    break
            props.append((group, name, [("VALUE", "vcard")], "\r\n".join(nested)))
            continue
        raw = value.encode("latin-1", errors="replace")
        if encoding in ("QUOTED-PRINTABLE", "QP"):
            # Soft breaks go first: a producer may split "=D0=A1" across one.
            raw = re.sub(rb"=\r?\n", b"", raw)
            raw = quopri.decodestring(raw)
        if encoding in ("B", "BASE64"):
            props.append((group, name, pairs, ("bytes", raw)))
            continue
        props.append((group, name, pairs, decoded(raw, charset, legacy)))
    return props


# ------------------------------------------------------------------ meaning

def split_unescaped(value, separator):
    parts, current, escaped = [], [], False
    for char in value:
        if escaped:
            current.append("\\" + char)
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == separator:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    parts.append("".join(current) + ("\\" if escaped else ""))
    return parts


def unescape(value):
    text = re.sub(r"\\(.)", lambda m: "\n" if m.group(1) in "nN" else m.group(1), value)
    return text.replace("\r\n", "\n").replace("\r", "\n")


def date(value, params):
    value = value.strip()
    omit = params.pop("x-apple-omit-year", None)
    if re.fullmatch(r"\d{8}", value):
        value = f"{value[:4]}-{value[4:6]}-{value[6:]}"
    if re.fullmatch(r"--\d{4}", value):
        value = f"--{value[2:4]}-{value[4:]}"
    if omit and value.startswith(next(iter(omit)) + "-"):
        value = "--" + value[5:]
    return value


def label_of(text):
    match = re.fullmatch(r"_\$!<(.*)>!\$_", text)
    return (match.group(1) if match else text).lower()


def binary(value):
    """The bytes' digest; base64 that does not decode (a producer's broken
    data) by its characters, white space aside, however it is carried."""
    def digest(text):
        text = b"".join(text.split())
        try:
            return "sha1:" + hashlib.sha1(base64.b64decode(text, validate=True)).hexdigest()
        except binascii.Error:
            return "sha1:" + hashlib.sha1(text).hexdigest()
    if isinstance(value, tuple):
        return digest(value[1])
    match = re.fullmatch(r"data:[^,;]*(;base64)?,(.*)", value, re.S)
    if match and match.group(1):
        return digest(match.group(2).encode("latin-1", errors="replace"))
    return value


def meaning(props):
    """A multiset of (NAME, params, value) by meaning; see the docstring."""
    labels = {g.lower(): label_of(unescape(v)) for g, n, _, v in props if g and n == "X-ABLABEL" and isinstance(v, str)}
    result = collections.Counter()
    for group, name, pairs, value in props:
        if name in IGNORED:
            continue
        params = collections.defaultdict(set)
        for key, item in pairs:
            key = key.upper()
            if key in ("ENCODING", "CHARSET", "VALUE", "MEDIATYPE"):
                continue
            for piece in item.split(",") if key == "TYPE" else [item]:
                params[key.lower()].add(piece.strip().lower() if key in ("TYPE", "PREF", "X-SERVICE-TYPE") else piece)
        types = params.pop("type", set())
        if group and group.lower() in labels:
            types.add(labels[group.lower()])
        if "pref" in types or params.get("pref") == {"1"}:
            types.discard("pref")
            params.pop("pref", None)
            params["pref"] = {"1"}
        types -= DEFAULT_TYPES.get(name, set()) | {"other", ""}
        for joined, pair in (("homefax", {"home", "fax"}), ("workfax", {"work", "fax"})):
            if joined in types:  # Roundcube's spelling of the pair
                types = (types - {joined}) | pair
        if name in BINARY or isinstance(value, tuple) or re.match(r"data:[^,;]*;base64,", value):
            types = {t for t in types if t not in ("jpeg", "png", "gif", "image/jpeg", "image/png", "x-evolution-unknown")}
            value = binary(value)
        elif name == "AGENT" and isinstance(value, str):
            nested = value if "\n" in value and "BEGIN:VCARD" in value.upper() else unescape(value)
            value = "card:" + repr(sorted(meaning(parse(nested)).items()))
        elif name in STRUCTURED:
            parts = [unescape(p).strip() for p in split_unescaped(value, ";")]
            while parts and parts[-1] == "":
                parts.pop()
            value = ";".join(parts)
        elif name in LISTS:
            value = ",".join(sorted(unescape(p).strip() for p in split_unescaped(value, ",") if p.strip()))
        else:
            value = unescape(value).strip()
        if name in DATES:
            value = date(value, params)
        if name == "X-ABDATE" and "anniversary" in types:
            name, types = "ANNIVERSARY", types - {"anniversary"}
        if name in ("ANNIVERSARY", "X-ABDATE"):
            name = "DATE:" + ("anniversary" if name == "ANNIVERSARY" else ",".join(sorted(types)) or "other")
            types = set()
        if name == "X-ABRELATEDNAMES":
            name = "RELATED"
        if name == "X-ABSHOWAS" and value.upper() == "COMPANY":
            name, value = "KIND", "org"
        if name == "KIND" and value.lower() == "individual":
            continue
        if name == "KIND":
            value = value.lower()
        if name == "TEL" and value.lower().startswith("tel:"):
            value = value[4:]
        if name == "IMPP":
            service = params.pop("x-service-type", None)
            handle = re.sub(r"^x-apple:", "", value, flags=re.I)
            types.discard(next(iter(service)) if service else handle.split(":")[0].lower())
            if service:
                value = next(iter(service)) + ":" + re.sub(r"^[a-z][a-z0-9+.\-]*:", "", handle, flags=re.I) \
                    if not handle.lower().startswith(next(iter(service)) + ":") else handle
            else:
                value = handle
        if value == "" or value == "sha1:" + hashlib.sha1(b"").hexdigest():
            continue
        if types:
            params["type"] = types
        key = (name, tuple(sorted((k, tuple(sorted(v))) for k, v in params.items())), value)
        result[key] += 1
    return result


def lost(before, after):
    """The properties of `before` that `after` does not hold, with their counts."""
    return before - after


# ------------------------------------------------------------------ the three

def run(*command, input=b""):
    """A process's result; one that hangs (khard asking again and again) counts as failed."""
    try:
        return subprocess.run(command, input=input, capture_output=True, timeout=60)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(command, 1, b"", b"timed out")


def through_contactsdb(binary_path, card, work):
    db = str(work / "card.sqlite")
    for suffix in ("", "-wal", "-shm", "-lock"):
        Path(db + suffix).unlink(missing_ok=True)
    run(binary_path, "--db", db, "init", "--no-seed")
    source = work / "card.vcf"
    source.write_bytes(card)
    imported = run(binary_path, "--db", db, "import", str(source))
    if imported.returncode != 0:
        return None, imported.stderr.decode(errors="replace").strip()
    exports = {}
    for version in ("3.0", "4.0"):
        exported = run(binary_path, "--db", db, "export", "--format", "vcard", "--vcard-version", version)
        exports[version] = exported.stdout
    return exports, ""


def through_vobject(card):
    try:
        component = vobject.readOne(file_text(card))
        return {"vobject": component.serialize().encode("latin-1", errors="replace")}, ""
    except Exception as error:  # vobject raises many kinds on what it cannot read
        return None, f"{type(error).__name__}: {error}"


def through_khard(card, work):
    book = work / "book"
    shutil.rmtree(book, ignore_errors=True)
    book.mkdir()
    (book / "card.vcf").write_bytes(file_text(card).encode("latin-1", errors="replace"))
    config = work / "khard.conf"
    config.write_text(f"""[addressbooks]
[[book]]
path = {book}
[general]
default_action = list
editor = /bin/true
merge_editor = /bin/true
[vcard]
skip_unparsable = no
preferred_version = 3.0
""")
    khard = ["khard", "-c", str(config)]
    shown = run(*khard, "show", "--format", "yaml")
    if shown.returncode != 0:
        return None, shown.stderr.decode(errors="replace").strip().splitlines()[-1:]
    original = shown.stdout
    marked = re.sub(rb"(?m)^Formatted name: ?(.*)$", lambda m: b"Formatted name: " + m.group(1) + b" (edited)", original, count=1)
    for yaml in (marked, original):
        path = work / "contact.yaml"
        path.write_bytes(yaml)
        edited = run(*khard, "edit", "--input-file", str(path), input=b"yes\n")
        if edited.returncode != 0:
            return None, edited.stderr.decode(errors="replace").strip().splitlines()[-1:]
    files = list(book.glob("*.vcf"))
    return {"khard": files[0].read_bytes()} if files else None, ""


# ------------------------------------------------------------------ report

def corpus_cards(corpus):
    """(producer, where, bytes) of each card of each .vcf file (where: the
    file and the card's number in it): a
    file at the top is named for its producer, a folder holds one producer's
    files. A file in UTF-16 without a byte-order mark is split as UTF-8 and
    each card given back in UTF-16."""
    for path in sorted(corpus.rglob("*.vcf")):
        relative = path.relative_to(corpus)
        producer = relative.parts[0] if len(relative.parts) > 1 else path.stem
        data = path.read_bytes()
        codec = unmarked_utf16(data)
        cards = [card.decode("utf-8").encode(codec) for card in split_cards(data.decode(codec).encode("utf-8"))] \
            if codec else split_cards(data)
        for number, card in enumerate(cards):
            yield producer, f"{relative} card {number + 1}", card


def main():
    binary_path = str(Path(sys.argv[1]).resolve())
    others, verbose = "--others" in sys.argv, "--verbose" in sys.argv
    others = ["vobject", "khard"] if others else ["vobject"] if "--vobject" in sys.argv else []
    corpus = Path(sys.argv[sys.argv.index("--corpus") + 1]) if "--corpus" in sys.argv else CORPUS
    cards = list(corpus_cards(corpus))
    producers = sorted({producer for producer, _, _ in cards})
    tools = ["contactsdb 3.0", "contactsdb 4.0"] + others
    imported = collections.Counter()
    lossless = collections.Counter()
    survival = collections.defaultdict(collections.Counter)  # tool -> property name -> kept
    lossless_by = collections.defaultdict(collections.Counter)  # producer -> tool -> lossless cards
    cards_by = collections.Counter(producer for producer, _, _ in cards)
    totals = collections.Counter()
    replacement = []
    blind = []
    failures = collections.defaultdict(list)
    with tempfile.TemporaryDirectory(prefix="contactsdb-fidelity-") as scratch:
        work = Path(scratch)
        for producer, where, card in cards:
            parsed = parse(file_text(card))
            expected = meaning(parsed)
            # The comparison must see any one property go missing.
            for index in range(len(parsed)):
                alone = meaning(parsed[index:index + 1] + [p for p in parsed if p[1] == "X-ABLABEL"])
                if alone and not lost(expected, meaning(parsed[:index] + parsed[index + 1:])):
                    blind.append(f"{where}: {parsed[index][1]}")
            for (name, _, _), count in expected.items():
                totals[name] += count
            had_fffd = "\ufffd" in "".join(str(v) for _, _, _, v in parse(file_text(card)))
            results = {}
            exports, why = through_contactsdb(binary_path, card, work)
            if exports:
                results["contactsdb 3.0"], results["contactsdb 4.0"] = exports["3.0"], exports["4.0"]
            else:
                failures["contactsdb"].append(f"{where}: not imported: {why}")
            for tool in others:
                output, why = through_vobject(card) if tool == "vobject" else through_khard(card, work)
                if output:
                    results[tool] = output[tool]
                else:
                    failures[tool].append(f"{where}: not read: {why}")
            for tool, output in results.items():
                imported[tool] += 1
                props = parse(file_text(output))
                if tool.startswith("contactsdb") and not had_fffd and "\ufffd" in "".join(str(v) for _, _, _, v in props):
                    replacement.append(f"{where} ({tool})")
                missing = lost(expected, meaning(props))
                if not missing:
                    lossless[tool] += 1
                    lossless_by[producer][tool] += 1
                kept = expected - missing
                for (name, _, _), count in kept.items():
                    survival[tool][name] += count
                if missing:
                    failures[tool].append(f"{where}: lost " + "; ".join(
                        f"{n}{dict(p) if p else ''}:{v[:60]!r}" for (n, p, v) in missing))

    total = len(cards)
    print(f"{total} cards from {len(producers)} producers ({', '.join(producers)})\n")
    print(f"{'':26}" + "".join(f"{tool:>16}" for tool in tools))
    print(f"{'cards read':26}" + "".join(f"{imported[tool]:>16}" for tool in tools))
    print(f"{'cards lossless':26}" + "".join(f"{lossless[tool]:>16}" for tool in tools))
    print(f"{'lossless, of all cards':26}" + "".join(f"{100 * lossless[tool] / total:>15.1f}%" for tool in tools))
    print("\nlossless cards by producer:")
    print(f"  {'':24}{'cards':>8}" + "".join(f"{tool:>16}" for tool in tools))
    for producer in producers:
        print(f"  {producer[:24]:24}{cards_by[producer]:>8}"
              + "".join(f"{lossless_by[producer][tool]:>16}" for tool in tools))
    print("\nproperties kept, of those in the input:")
    for name in sorted(totals, key=lambda n: (-totals[n], n)):
        print(f"  {name[:24]:24}" + "".join(f"{survival[tool][name]:>12}/{totals[name]:<3}" for tool in tools))
    for tool in ["contactsdb", "contactsdb 3.0", "contactsdb 4.0"] + (["vobject", "khard"] if verbose else []):
        for line in failures[tool]:
            print(f"  {tool}: {line}")
    for line in replacement:
        print(f"  U+FFFD the input did not hold: {line}")
    for line in blind:
        print(f"  the comparison would not notice this property missing: {line}")

    ok = (imported["contactsdb 3.0"] == total and not replacement and not blind
          and all(lossless[tool] >= 0.98 * total for tool in ("contactsdb 3.0", "contactsdb 4.0")))
    print("\nfidelity targets " + ("met" if ok else "MISSED") +
          ": every card imported, at least 98% lossless through 3.0 and 4.0, no new U+FFFD")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
