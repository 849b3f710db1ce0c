#!/usr/bin/env python3
"""Nothing lost, even by mistake: trash, history and restore against real servers.

  nothing_lost.py CONTACTSDB [--rounds N] [--seed S] [--server radicale|xandikos]
                  [--cards N] [--kills K] [--restore-contacts N] [--sync-deletions N]
                  [--only CHECK,CHECK] [--keep FOLDER]

FOLDER, when given, keeps the databases, the servers' files and each
round's actions (actions.log). Each check prints one line with its figures; the script exits 1 if any fails.
- keep_both (on Radicale and on Xandikos): a remote added with `--conflicts
  keep-both`; one property of a synced card changed here and, by a PUT of an
  edited card, on the server. After `sync` the book holds both versions as two
  contacts, the server two cards, `duplicates` one certain set of the two; a
  second sync changes nothing.
- restore_pushes: a contact deleted here leaves the server at the next sync;
  `restore ID` and a sync put the card back with the same properties, and a
  fresh database pulls it.
- promise_merge, promise_keep_both: N rounds (default 30) in which this
  database (`update`, `delete`, `restore`, `restore --revision`, `conflicts
  restore`) and a second client (GET, edit, PUT and DELETE of the cards on the
  server) change random properties of N cards (default 20) between syncs, with
  deletions on both sides. Every value either side wrote must then be in a
  contact, its history (`history`, `show --revision`), the trash (`trash
  show`) or a conflict (`conflicts show`).
- killed_restore: `restore` of N contacts (default 5,000) deleted in one
  command, killed with SIGKILL K times (default 6): after each kill all are
  back and out of the trash, or none is; `doctor` exits 0.
- killed_pull: N cards (default 1,000) pulled, then deleted on the server;
  `sync` killed K times: after each kill all are gone here and in the trash
  by sync:REMOTE, or none is; the last sync takes all; `doctor` exits 0.

The kills' checks run beside the others, in a thread of their own.

Run with the Python of .build-python (scripts/test makes it), which has
Radicale and Xandikos.
"""
import base64
import contextlib
import http.client
import json
import os
import random
import re
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import urllib.parse
import xml.etree.ElementTree as ET

import davserver

USER, PASSWORD = "user", "password"
IDLE = "pulled: 0 new, 0 changed, 0 deleted\npushed: 0 new, 0 changed, 0 deleted\n"
FIELDS = ("firstName", "lastName", "company", "jobTitle", "note", "phones", "emails", "urls")
# Two lanes run side by side: the kills' lane spends its time in long
# transactions of one process, the other's in many short ones and the servers.
LANES = (("keep_both", "restore_pushes", "promise_merge", "killed_pull"), ("killed_restore", "promise_keep_both"))
CHECKS = sum(LANES, ())


def options():
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        sys.exit(__doc__)
    found = lambda name, default: args[args.index("--" + name) + 1] if "--" + name in args else default
    numbers = {name: int(found(name, default)) for name, default in
               (("rounds", 30), ("seed", 1), ("cards", 20), ("kills", 6),
                ("restore-contacts", 5000), ("sync-deletions", 1000))}
    server = found("server", "radicale")
    if server not in ("radicale", "xandikos"):
        sys.exit(f"--server {server}: radicale or xandikos")
    only = found("only", ",".join(CHECKS)).split(",")
    return os.path.abspath(args[0]), server, only, numbers, found("keep", None)


def main():
    binary, server, only, numbers, keep = options()
    failures = []
    started = time.time()
    with (contextlib.nullcontext(keep) if keep else tempfile.TemporaryDirectory(prefix="contactsdb-nothing-lost-")) \
            as folder:
        context = Context(binary, folder, server, numbers, failures)
        lanes = [threading.Thread(target=run_lane, args=(context, [n for n in lane if n in only])) for lane in LANES]
        for lane in lanes:
            lane.start()
        for lane in lanes:
            lane.join()
    print(f"nothing_lost: {len([n for n in CHECKS if n in only])} checks in {time.time() - started:.0f} s")
    if failures:
        print("\n".join("FAIL: " + f for f in failures))
        sys.exit(1)
    print("nothing_lost: every value either side wrote was found; every kill left all or none")


def run_lane(context, names):
    for name in names:
        began = time.time()
        try:
            globals()["check_" + name](context)
        except SystemExit as stop:
            context.failures.append(f"{name}: {stop}")
        except Exception:
            context.failures.append(f"{name}: {traceback.format_exc()}")
        print(f"  ({name} took {time.time() - began:.0f} s)", flush=True)


class Context:
    def __init__(self, binary, folder, server, numbers, failures):
        self.binary, self.folder, self.server, self.numbers, self.failures = binary, folder, server, numbers, failures
        self.env = dict(os.environ, DAV_PASSWORD=PASSWORD)

    def expect(self, condition, what):
        if not condition:
            self.failures.append(what)
        return condition

    def place(self, name):
        path = os.path.join(self.folder, name)
        os.makedirs(path)
        return path

    def database(self, folder, dav=None, conflicts="merge"):
        db = Database(self.binary, os.path.join(folder, "contacts.sqlite"), self.env)
        db.run("init", "--no-seed")
        if dav:
            db.run("remote", "add", "home", dav.url, "--username", USER, "--password-env", "DAV_PASSWORD",
                   "--conflicts", conflicts)
        return db

    def generated(self, folder, count, seed):
        path = os.path.join(folder, "contacts.json")
        with open(path, "w") as f:
            f.write(subprocess.check_output([self.binary, "generate", "--contacts", str(count), "--seed", str(seed)],
                                            text=True))
        return path


class Database:
    def __init__(self, binary, path, env):
        self.binary, self.path, self.env = binary, path, env

    def run(self, *arguments, check=True, stdin=None):
        result = subprocess.run([self.binary, "--db", self.path, *arguments], capture_output=True, text=True,
                                env=self.env, input=stdin)
        if check and result.returncode != 0:
            sys.exit(f"contactsdb {' '.join(arguments)[:200]} exited {result.returncode}: {result.stderr}")
        return result

    def json(self, *arguments):
        return json.loads(self.run(*arguments, "--format", "json").stdout)

    def contacts(self):
        return {c["id"]: c for c in self.json("export", "--book", "home")}

    def trash(self):
        return self.json("trash")

    def sync(self):
        return self.run("sync").stdout

    def killed(self, arguments, delay):
        """Runs the command and kills it after `delay` seconds; True if it ended first."""
        return davserver.killed([self.binary, "--db", self.path, *arguments], delay, self.env)


# MARK: - The server, as a second client sees it

class Dav:
    """A CardDAV server started for one check, spoken to over HTTP as another client would."""

    def __init__(self, kind, folder):
        self.kind, self.folder = kind, folder
        self.info = davserver.start(kind, folder, USER, PASSWORD)
        self.url = self.info["addressbook"]
        self.path = urllib.parse.urlparse(self.url).path
        self.connection = http.client.HTTPConnection("127.0.0.1", self.info["port"], timeout=30)
        token = base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
        self.headers = {"Authorization": "Basic " + token}

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.connection.close()
        davserver.stop(self.info["pid"])

    def request(self, method, path, body=None, headers=None):
        for attempt in (1, 2):
            try:
                self.connection.request(method, path, body=body, headers={**self.headers, **(headers or {})})
                response = self.connection.getresponse()
                return response.status, response.getheader("ETag"), response.read()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.connection.close()
                if attempt == 2:
                    raise

    def listing(self):
        """href → ETag of every card in the address book."""
        body = b'<?xml version="1.0"?><d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop></d:propfind>'
        status, _, answer = self.request("PROPFIND", self.path, body, {"Depth": "1", "Content-Type": "application/xml"})
        if status != 207:
            sys.exit(f"PROPFIND {self.path} answered {status}")
        cards = {}
        for response in ET.fromstring(answer).iter("{DAV:}response"):
            href = urllib.parse.unquote(response.findtext("{DAV:}href"))
            etag = response.findtext(".//{DAV:}getetag")
            if href.rstrip("/") != self.path.rstrip("/") and etag:
                cards[href] = etag
        return cards

    def get(self, href):
        status, etag, body = self.request("GET", urllib.parse.quote(href))
        return (body.decode("utf-8"), etag) if status == 200 else (None, None)

    def put(self, href, card, etag):
        status, _, _ = self.request("PUT", urllib.parse.quote(href), card.encode("utf-8"),
                                    {"Content-Type": "text/vcard; charset=utf-8", "If-Match": etag})
        return status

    def delete(self, href, etag=None):
        status, _, _ = self.request("DELETE", urllib.parse.quote(href), None, {"If-Match": etag} if etag else {})
        return status

    def everything(self):
        """href → (card, ETag) of every card, in one addressbook-multiget."""
        hrefs = "".join(f"<d:href>{urllib.parse.quote(href)}</d:href>" for href in self.listing())
        body = ('<?xml version="1.0"?><c:addressbook-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:carddav">'
                f'<d:prop><d:getetag/><c:address-data/></d:prop>{hrefs}</c:addressbook-multiget>')
        status, _, answer = self.request("REPORT", self.path, body.encode(),
                                         {"Depth": "1", "Content-Type": "application/xml"})
        if status != 207:
            sys.exit(f"REPORT {self.path} answered {status}")
        cards = {}
        for response in ET.fromstring(answer).iter("{DAV:}response"):
            card = response.findtext(".//{urn:ietf:params:xml:ns:carddav}address-data")
            if card:
                href = urllib.parse.unquote(response.findtext("{DAV:}href"))
                cards[href] = (card, response.findtext(".//{DAV:}getetag"))
        return cards

    def load(self, cards):
        """Puts the cards on the server: into Radicale's folder as its
        administrator would (a PUT costs it tens of milliseconds), to
        Xandikos by PUT."""
        for card in cards:
            uid = next(line.split(":", 1)[1] for line in unfold(card) if name_of(line) == "UID")
            if self.kind == "radicale":
                path = os.path.join(self.folder, "collections", "collection-root", *self.path.strip("/").split("/"))
                with open(os.path.join(path, uid + ".vcf"), "w", encoding="utf-8", newline="") as f:
                    f.write(card)
                continue
            status, _, _ = self.request("PUT", self.path + urllib.parse.quote(uid) + ".vcf", card.encode(),
                                        {"Content-Type": "text/vcard; charset=utf-8", "If-None-Match": "*"})
            if status not in (200, 201, 204):
                sys.exit(f"PUT of {uid} answered {status}")

    def delete_all(self, listing):
        """Deletes every card listed: Radicale's files are removed as its
        administrator would (a DELETE costs it tens of milliseconds), which it
        reports as removed at the next sync-collection; Xandikos gets DELETEs."""
        if self.kind == "radicale":
            for href in listing:
                os.remove(os.path.join(self.folder, "collections", "collection-root", *href.strip("/").split("/")))
            return
        for href, etag in listing.items():
            status = self.delete(href, etag)
            if status not in (200, 204):
                sys.exit(f"DELETE {href} answered {status}")

    def cards(self):
        """UID → unfolded properties of every card on the server."""
        cards = {}
        for card, _ in self.everything().values():
            lines = unfold(card)
            uid = next(line.split(":", 1)[1] for line in lines if name_of(line) == "UID")
            cards.setdefault(uid, []).append(lines)
        return cards


def unfold(card):
    return [line for line in re.sub(r"\r?\n[ \t]", "", card).splitlines() if line]


def name_of(line):
    return line.split(":", 1)[0].split(";", 1)[0].split(".")[-1].upper()


def meaning(lines):
    """A card's properties as a sorted list, less those a writer stamps on each copy."""
    stamped = {"PRODID", "REV", "VERSION", "BEGIN", "END"}
    return sorted(line for line in lines if name_of(line) not in stamped)


# MARK: - keep_both

def check_keep_both(context):
    for kind in ("radicale", "xandikos"):
        folder = context.place("keep-both-" + kind)
        with Dav(kind, os.path.join(folder, "server")) as dav:
            keep_both_on(context, folder, dav)


def keep_both_on(context, folder, dav):
    db = context.database(folder, dav, "keep-both")
    db.run("import", context.generated(folder, 3, 3), "--book", "home")
    db.sync()
    href = next(h for h, _ in dav.listing().items() if h.endswith("/c1.vcf"))
    card, etag = dav.get(href)
    edited = edit_card(card, "note", "Note written on the server", random.Random(0))
    context.expect(dav.put(href, edited, etag) in (200, 201, 204), f"keep_both {dav.kind}: the PUT was refused")
    db.run("update", "c1", "--note", "Note written here")
    db.sync()
    here = db.contacts()
    notes = {c.get("note"): i for i, c in here.items()}
    cards = dav.cards()
    sets = db.json("duplicates")
    copy = notes.get("Note written here")
    both = sorted(["c1", copy or "?"])
    one_set = [sorted(s["ids"]) for s in sets if s["confidence"] == "certain"] == [both] and len(sets) == 1
    writes = dav.listing()
    second = db.sync()
    said = "changed nothing" if second == IDLE else repr(second)
    name = f"keep_both {dav.kind}"
    context.expect(len(here) == 4 and notes.get("Note written on the server") == "c1" and copy
                   and {here[i]["book"] for i in ("c1", copy)} == {"home"},
                   f"{name}: here {len(here)} contacts with notes {sorted(map(str, notes))}")
    context.expect(len(cards) == 4 and all(len(v) == 1 for v in cards.values()) and copy in cards,
                   f"{name}: the server holds {sum(map(len, cards.values()))} cards of UIDs {sorted(cards)}")
    context.expect(one_set, f"{name}: duplicates lists {sets}")
    context.expect(second == IDLE and dav.listing() == writes, f"{name}: a second sync did {second!r}")
    print(f"keep_both {dav.kind}: {len(here)} contacts here ({sum(c['book'] == 'home' for c in here.values())} "
          f"in home), {len(cards)} cards there, duplicates: {len(sets)} set {sets[0]['ids'] if sets else []} "
          f"{sets[0]['confidence'] if sets else ''}, second sync {said}",
          flush=True)


# MARK: - restore_pushes

def check_restore_pushes(context):
    folder = context.place("restore")
    with Dav(context.server, os.path.join(folder, "server")) as dav:
        db = context.database(folder, dav)
        db.run("import", context.generated(folder, 3, 5), "--book", "home")
        db.sync()
        before = dav.cards().get("c2")
        db.run("delete", "c2")
        db.sync()
        gone = "c2" not in dav.cards()
        db.run("restore", "c2")
        pushed = db.sync()
        after = dav.cards().get("c2")
        same = bool(before and after) and meaning(before[0]) == meaning(after[0])
        fresh = context.database(context.place("restore-fresh"), dav)
        fresh.sync()
        pulled = fresh.contacts().get("c2")
        volatile = {"revision", "createdAt", "updatedAt", "sortIndex"}
        kept = {k: v for k, v in db.contacts()["c2"].items() if k not in volatile}
        alike = pulled is not None and {k: v for k, v in pulled.items() if k not in volatile} == kept
    context.expect(gone, "restore_pushes: the deleted contact's card stayed on the server")
    context.expect(same, f"restore_pushes: the card differs: {before} then {after}")
    context.expect(alike, f"restore_pushes: a fresh database pulled {pulled}, not {kept}")
    print(f"restore_pushes {context.server}: card gone after delete+sync: {gone}; after restore+sync "
          f"({pushed.splitlines()[-1]}): on the server with the same {len(meaning(after[0])) if after else 0} "
          f"properties: {same}; a fresh database pulled it alike: {alike}", flush=True)


# MARK: - The promise: every value either side wrote is kept

def edit_card(card, field, value, rng):
    """The card with one property changed as a client would: a name part
    (and FN with it), ORG, TITLE, NOTE, or one TEL, EMAIL or URL replaced or
    added."""
    lines = unfold(card)
    end = lines.index("END:VCARD")
    single = {"company": "ORG", "jobTitle": "TITLE", "note": "NOTE"}
    listed = {"phones": "TEL;TYPE=CELL", "emails": "EMAIL;TYPE=HOME", "urls": "URL"}
    if field in ("firstName", "lastName"):
        at = next((i for i, line in enumerate(lines) if name_of(line) == "N"), None)
        parts = (lines[at].split(":", 1)[1] if at is not None else "").split(";") + [""] * 5
        parts[1 if field == "firstName" else 0] = value
        names = [line for line in lines if name_of(line) not in ("N", "FN")]
        given_family = " ".join(p for p in (parts[1], parts[0]) if p)
        names[names.index("END:VCARD"):names.index("END:VCARD")] = ["N:" + ";".join(parts[:5]), "FN:" + given_family]
        lines = names
    elif field in single:
        lines = [line for line in lines if name_of(line) != single[field]]
        lines.insert(lines.index("END:VCARD"), f"{single[field]}:{value}")
    else:
        kind = listed[field].split(";")[0]
        present = [i for i, line in enumerate(lines) if name_of(line) == kind]
        if present and rng.random() < 0.7:
            at = rng.choice(present)
            lines[at] = lines[at].split(":", 1)[0] + ":" + value
        else:
            lines.insert(end, f"{listed[field]}:{value}")
    return "\r\n".join(lines) + "\r\n"


def new_value(field, side, seq):
    """A value no one wrote before, of a form the field takes."""
    token = f"{side}{seq}"
    return {"firstName": f"Given{token}", "lastName": f"Family{token}", "company": f"Company {token}",
            "jobTitle": f"Title {token}", "note": f"Note {token}", "phones": f"+7 912 {seq:07d}",
            "emails": f"{token.lower()}@nothing-lost.example", "urls": f"https://nothing-lost.example/{token}"}[field]


class Rounds:
    """Both sides' writes, round after round, with every value recorded and
    every action logged to actions.log beside the database."""

    def __init__(self, context, db, dav, rng):
        self.context, self.db, self.dav, self.rng = context, db, dav, rng
        self.seq = 0
        self.written = []  # (round, side, id, field, value)
        self.counts = {"local edits": 0, "server edits": 0, "local deletes": 0, "server deletes": 0,
                       "restores": 0, "revision restores": 0, "conflict restores": 0}
        self.actions = open(os.path.join(os.path.dirname(db.path), "actions.log"), "w")

    def log(self, number, text):
        self.actions.write(f"{number:3} {text}\n")

    def record_initial(self):
        for id, contact in self.db.contacts().items():
            for field in FIELDS:
                value = contact.get(field)
                for item in (value if isinstance(value, list) else [value] if value else []):
                    self.written.append((0, "import", id, field, item["value"] if isinstance(item, dict) else item))

    def value(self, field, side):
        self.seq += 1
        return new_value(field, side, self.seq)

    def local_edit(self, number, contact):
        field = self.rng.choice(FIELDS)
        value = self.value(field, "L")
        flags = {"firstName": "--first-name", "lastName": "--last-name", "company": "--company",
                 "jobTitle": "--job-title", "note": "--note"}
        if field in flags:
            self.db.run("update", contact["id"], flags[field], value)
        else:
            items = [{"type": i.get("type", "other"), "value": i["value"]} for i in contact.get(field, [])]
            if items and self.rng.random() < 0.7:
                items[self.rng.randrange(len(items))]["value"] = value
            else:
                items.append({"type": "home", "value": value})
            self.db.run("update", contact["id"], "--json", "-", stdin=json.dumps({field: items}))
        self.written.append((number, "here", contact["id"], field, value))
        self.counts["local edits"] += 1
        self.log(number, f"here: update {contact['id']} {field} = {value}")

    def server_cards(self):
        """UID → (href, card, ETag) of every card on the server."""
        cards = {}
        for href, (card, etag) in sorted(self.dav.everything().items()):
            uid = next(line.split(":", 1)[1] for line in unfold(card) if name_of(line) == "UID")
            cards[uid] = (href, card, etag)
        return cards

    def server_edit(self, number, uid, href, card, etag, field):
        value = self.value(field, "S")
        status = self.dav.put(href, edit_card(card, field, value, self.rng), etag)
        self.context.expect(status in (200, 201, 204), f"a PUT of {href} answered {status}")
        self.written.append((number, "server", uid, field, value))
        self.counts["server edits"] += 1
        self.log(number, f"server: PUT {uid} {field} = {value} ({status})")

    def local_side(self, number):
        """Edits of three contacts, maybe an older revision or a conflict's
        losing version brought back, a deletion and a restore."""
        contacts = self.db.contacts()
        live = sorted(contacts)
        edited = self.rng.sample(live, min(3, len(live)))
        for id in edited:
            self.local_edit(number, contacts[id])
        if live and self.rng.random() < 0.2:
            id = self.rng.choice(live)
            older = [v["revision"] for v in self.db.json("history", id)[1:]]
            if older:
                revision = str(self.rng.choice(older))
                self.db.run("restore", id, "--revision", revision)
                self.counts["revision restores"] += 1
                self.log(number, f"here: restore {id} --revision {revision}")
        kept = self.db.json("conflicts") if self.rng.random() < 0.3 else []
        if kept:
            conflict = self.rng.choice(kept)
            applied = self.db.run("conflicts", "restore", str(conflict["id"]), check=False)
            self.counts["conflict restores"] += applied.returncode == 0
            self.log(number, f"here: conflicts restore {conflict['id']} (of {conflict['contactId']}): "
                             f"exit {applied.returncode} {applied.stderr.strip()}")
        if live and self.rng.random() < 0.35:
            victim = self.rng.choice(live)
            self.db.run("delete", victim)
            self.counts["local deletes"] += 1
            self.log(number, f"here: delete {victim}")
        if self.rng.random() < 0.6:
            trashed = sorted({t["id"] for t in self.db.trash()} - set(self.db.contacts()))
            if trashed:
                back = self.rng.choice(trashed)
                self.db.run("restore", back)
                self.counts["restores"] += 1
                self.log(number, f"here: restore {back}")
        return edited

    def server_side(self, number, edited_here):
        """Edits of three cards, one of them often a card edited here too,
        and maybe a deletion of another."""
        cards = self.server_cards()
        uids = sorted(cards)
        both = [uid for uid in edited_here if uid in cards]
        chosen = ([self.rng.choice(both)] if both and self.rng.random() < 0.7 else []) + \
            self.rng.sample(uids, min(3, len(uids)))
        chosen = list(dict.fromkeys(chosen))[:3]
        for uid in chosen:
            same = [w[3] for w in self.written if w[0] == number and w[1] == "here" and w[2] == uid]
            field = same[-1] if same and self.rng.random() < 0.6 else self.rng.choice(FIELDS)
            self.server_edit(number, uid, *cards[uid], field)
        spare = [uid for uid in uids if uid not in chosen]
        if spare and self.rng.random() < 0.35:
            victim = self.rng.choice(spare)
            href, _, etag = cards[victim]
            status = self.dav.delete(href, etag)
            self.context.expect(status in (200, 204), f"a DELETE of {href} answered {status}")
            self.counts["server deletes"] += 1
            self.log(number, f"server: DELETE {victim} ({status})")

    def play(self, rounds):
        for number in range(1, rounds + 1):
            edited = self.local_side(number)
            self.server_side(number, edited)
            result = self.db.run("sync", check=False)
            self.log(number, "sync: " + " / ".join((result.stdout + result.stderr).strip().splitlines()))
            self.context.expect(result.returncode == 0, f"round {number}: sync exited {result.returncode}: "
                                                        f"{result.stderr}")
        self.actions.close()


# MARK: - Looking for every value

def strings(value):
    """Every string a JSON value holds, at any depth."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


class Finder:
    """Where each written value is: a contact, a conflict, the trash or a history."""

    def __init__(self, written):
        self.missing = dict(enumerate(written))
        self.found = {}

    def look(self, place, document):
        if not self.missing:
            return
        texts = set(strings(document))
        digits = {re.sub(r"\D", "", t) for t in texts}
        joined = "\n".join(texts)
        for key, (_, _, _, field, value) in list(self.missing.items()):
            if field == "phones":
                hit = re.sub(r"\D", "", value) in digits
            else:
                hit = value in texts or re.search(rf"(?<!\w){re.escape(value)}(?!\w)", joined) is not None
            if hit:
                self.found[key] = place
                del self.missing[key]


def look_everywhere(db, finder, folder):
    """Looks in the contacts, the conflicts, the trash, then each contact's
    history, version by version; a deleted contact's history is read from a
    copy of the database in which it is restored."""
    live = db.json("export")
    for contact in live:
        finder.look("contact", contact)
    for conflict in db.json("conflicts"):
        finder.look("conflict", json.loads(db.run("conflicts", "show", str(conflict["id"])).stdout))
    trashed = sorted({t["id"] for t in db.trash()})
    for id in trashed:
        finder.look("trash", db.json("trash", "show", id))
    histories(db, sorted(c["id"] for c in live), finder)
    gone = [id for id in trashed if id not in {c["id"] for c in live}]
    if finder.missing and gone:
        copy = Database(db.binary, os.path.join(folder, "copy.sqlite"), db.env)
        with sqlite3.connect(db.path) as source, sqlite3.connect(copy.path) as target:
            source.backup(target)
        copy.run("restore", *gone)
        histories(copy, gone, finder)


def histories(db, ids, finder):
    wanted = {w[2] for w in finder.missing.values()}
    for id in sorted(ids, key=lambda id: id not in wanted):
        for version in db.json("history", id)[1:]:
            if not finder.missing:
                return
            finder.look("history", db.json("show", id, "--revision", str(version["revision"])))


def promise(context, conflicts):
    folder = context.place("promise-" + conflicts)
    rng = random.Random(context.numbers["seed"])
    rounds = context.numbers["rounds"]
    with Dav(context.server, os.path.join(folder, "server")) as dav:
        db = context.database(folder, dav, conflicts)
        db.run("import", context.generated(folder, context.numbers["cards"], 17), "--book", "home")
        db.sync()
        play = Rounds(context, db, dav, rng)
        play.record_initial()
        play.play(rounds)
        settled = db.sync()
        again = db.sync()
        context.expect(again == IDLE, f"promise {conflicts}: a sync after the last one did {again!r}")
        finder = Finder(play.written)
        look_everywhere(db, finder, folder)
        places = {}
        for place in finder.found.values():
            places[place] = places.get(place, 0) + 1
        kept = len(db.json("conflicts"))
        trashed = len(db.trash())
        live = len(db.contacts())
    for round, side, id, field, value in sorted(finder.missing.values())[:20]:
        context.failures.append(f"promise {conflicts}: lost {field} {value!r} written {side} to {id} in round {round}")
    counts = ", ".join(f"{n} {what}" for what, n in play.counts.items())
    print(f"promise {conflicts} on {context.server}: {rounds} rounds; {counts}; at the end {live} contacts, "
          f"{trashed} in the trash, {kept} conflicts; values checked {len(play.written)}, lost "
          f"{len(finder.missing)} (found in: {', '.join(f'{p} {n}' for p, n in sorted(places.items()))})",
          flush=True)


def check_promise_merge(context):
    promise(context, "merge")


def check_promise_keep_both(context):
    promise(context, "keep-both")



# MARK: - Killed restores and pulls

def all_or_none(back, trashed, ids):
    """"all" when every id is back and none in the trash, "none" when none
    is back and each is in the trash, else what was seen."""
    ids = set(ids)
    if ids <= back and not ids & trashed:
        return "all"
    if not ids & back and ids <= trashed:
        return "none"
    return f"partial: {len(ids & back)} back, {len(ids & trashed)} in the trash"


def check_killed_restore(context):
    folder = context.place("killed-restore")
    count, kills = context.numbers["restore-contacts"], context.numbers["kills"]
    rng = random.Random(context.numbers["seed"])
    db = context.database(folder)
    path = context.generated(folder, count, 11)
    db.run("import", path)
    with open(path) as f:
        ids = [c["id"] for c in json.load(f)]
    began = time.time()
    db.run("delete", *ids)
    deleting = time.time() - began
    # A tenth restored and deleted again tells how long the whole takes,
    # so that the kills fall across it and past its end.
    began = time.time()
    db.run("restore", *ids[:len(ids) // 10])
    estimate = (time.time() - began) * 10
    db.run("delete", *ids[:len(ids) // 10])
    outcomes, outcome = [], "none"
    # Earliest first: a kill that finds the restore done comes after those
    # that find it under way, and each "all" costs a deletion of them all.
    for delay in sorted(rng.uniform(0.05, 1.3 * estimate) for _ in range(kills)):
        if outcome == "all":
            db.run("delete", *ids)
        ended = db.killed(["restore", *ids], delay)
        outcome = all_or_none({c["id"] for c in db.json("export")}, {t["id"] for t in db.trash()}, ids)
        doctor = db.run("doctor", check=False).returncode
        context.expect(outcome in ("all", "none") and doctor == 0,
                       f"killed_restore: killed at {delay * 1000:.0f} ms: {outcome}, doctor exited {doctor}")
        outcomes.append(f"{delay * 1000:.0f} ms {outcome}{' (ended first)' if ended else ''}")
    began = time.time()
    if outcome != "all":
        db.run("restore", *ids)
    restoring = time.time() - began
    final = all_or_none({c["id"] for c in db.json("export")}, {t["id"] for t in db.trash()}, ids)
    doctor = db.run("doctor", check=False).returncode
    context.expect(final == "all" and doctor == 0, f"killed_restore: at the end {final}, doctor exited {doctor}")
    print(f"killed_restore: {count} contacts deleted in one command ({deleting:.1f} s), restore (about "
          f"{estimate:.0f} s, from a tenth) killed {kills} times: {'; '.join(outcomes)}; then restored in "
          f"{restoring:.1f} s: {final}; doctor exit {doctor}", flush=True)


def check_killed_pull(context):
    folder = context.place("killed-pull")
    count, kills = context.numbers["sync-deletions"], context.numbers["kills"]
    rng = random.Random(context.numbers["seed"] + 1)
    with Dav(context.server, os.path.join(folder, "server")) as dav:
        dav.load(generated_cards(context, folder, count))
        db = context.database(folder, dav)
        db.sync()
        ids = sorted(db.contacts())
        context.expect(len(ids) == count, f"killed_pull: {len(ids)} cards pulled, not {count}")
        # A second database pulls the deletions whole first, after the
        # server has read them once: its time is the span the kills fall
        # across.
        yardstick = context.database(context.place("killed-pull-yardstick"), dav)
        yardstick.sync()
        began = time.time()
        dav.delete_all(dav.listing())
        deleting = time.time() - began
        yardstick.run("sync", "--dry-run")
        began = time.time()
        yardstick.sync()
        pulling = time.time() - began
        context.expect(pulled_state(yardstick, ids) == "all", "killed_pull: a sync not killed did not pull all")
        # Earliest first: once a sync has pulled them, later kills find it
        # done. Within most of an unkilled pull's time, so that kills land
        # while one runs, not after its end.
        delays = sorted(rng.uniform(0.05, 0.8 * pulling) for _ in range(kills))
        outcomes = [killed_pull(context, db, ids, delay) for delay in delays]
        report = db.sync()
        final = pulled_state(db, ids)
        doctor = db.run("doctor", check=False).returncode
        left = len(dav.listing())
    context.expect(final == "all" and doctor == 0 and left == 0,
                   f"killed_pull: at the end {final}, doctor exited {doctor}, {left} cards on the server")
    print(f"killed_pull {context.server}: {count} cards deleted on the server ({deleting:.1f} s), pulled by a "
          f"sync not killed in {pulling:.1f} s, sync killed "
          f"{kills} times: {'; '.join(outcomes)}; the last sync ({report.splitlines()[0]}): {final}; "
          f"doctor exit {doctor}", flush=True)


def generated_cards(context, folder, count):
    """`count` generated contacts as vCards, one text each."""
    scratch = context.database(context.place("cards"))
    scratch.run("import", context.generated(folder, count, 13))
    cards = scratch.run("export", "--format", "vcard").stdout
    return [card + "END:VCARD\r\n" for card in re.split(r"END:VCARD\r?\n", cards) if card.strip()]


def pulled_state(db, ids):
    """"all" when every card's deletion was pulled into the trash by the
    sync, "none" when every contact is still here, else what was seen."""
    ids = set(ids)
    here = set(db.contacts())
    by_sync = {t["id"] for t in db.trash() if t["by"] == "sync:home"}
    if not ids & here and ids <= by_sync:
        return "all"
    if ids <= here and not ids & by_sync:
        return "none"
    return f"partial: {len(ids & here)} here, {len(ids & by_sync)} in the trash by sync:home"


def killed_pull(context, db, ids, delay):
    ended = db.killed(["sync"], delay)
    outcome = pulled_state(db, ids)
    doctor = db.run("doctor", check=False).returncode
    context.expect(outcome in ("all", "none") and doctor == 0,
                   f"killed_pull: killed at {delay * 1000:.0f} ms: {outcome}, doctor exited {doctor}")
    return f"{delay * 1000:.0f} ms {outcome}{' (ended first)' if ended else ''}"


if __name__ == "__main__":
    main()
