#!/usr/bin/env python3
"""Three real servers in one database, each bound to a book of its own.

  several_books.py CONTACTSDB [--contacts N] [--kills K] [--seed S]

Two Radicale address books (one server) and a Xandikos, all on 127.0.0.1,
each bound to a book of one database (docs/cli.md, "Address books";
docs/sync.md). Checks, each against what the servers hold on disk:
- after `sync` each book holds exactly its server's cards, and each server
  exactly its book's contacts;
- an edit reaches its own server only;
- one card (one UID) on two servers is two contacts, each written back to
  its own server with that UID;
- `move` takes a card off one server and onto another;
- linking two cards of one person, then unlinking them, changes no server;
- with one server stopped, the other two still sync, stderr names the
  stopped one, and the exit code is 69;
- `sync` of the three killed with SIGKILL K times (default 6) at random
  moments while each book has N (default 300) new contacts, then run to its
  end: each server holds exactly its book's cards, no UID twice, none on a
  foreign server, and a further sync has nothing to do.

Run with the Python of .build-python (scripts/test makes it).
"""
import base64
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

import davserver

USER, PASSWORD = "user", "password"
BOOKS = ("work", "family", "home")


def main():
    binary, contacts, kills, seed = davserver.command_line(__doc__, contacts=300, kills=6, seed=5)
    failures = []
    with tempfile.TemporaryDirectory(prefix="contactsdb-books-") as folder:
        radicale = davserver.start("radicale", os.path.join(folder, "radicale"), USER, PASSWORD)
        xandikos = davserver.start("xandikos", os.path.join(folder, "xandikos"), USER, PASSWORD)
        try:
            family = radicale["root"] + USER + "/family/"
            davserver.mkcol(family, USER, PASSWORD, "Family")
            servers = {"work": radicale["addressbook"], "family": family, "home": xandikos["addressbook"]}
            folders = {
                "work": os.path.join(folder, "radicale", "collections", "collection-root", USER, "contacts"),
                "family": os.path.join(folder, "radicale", "collections", "collection-root", USER, "family"),
                "home": os.path.join(folder, "xandikos", "data", "user", "contacts", "addressbook"),
            }
            check = Checks(binary, folder, servers, folders, failures)
            check.each_book_its_own_server()
            check.killed_syncs(contacts, kills, random.Random(seed))
            check.one_server_stopped(xandikos["pid"])
        finally:
            davserver.stop(radicale["pid"])
            davserver.stop(xandikos["pid"])
    if failures:
        print("\n".join("FAIL: " + f for f in failures))
        sys.exit(1)
    print("several_books: each server holds its own book's cards; nothing crossed, nothing doubled")


class Checks:
    def __init__(self, binary, folder, servers, folders, failures):
        self.binary, self.folder, self.servers, self.folders, self.failures = binary, folder, servers, folders, failures
        self.env = dict(os.environ, DAV_PASSWORD=PASSWORD)

    def run(self, db, *arguments, check=True):
        result = subprocess.run([self.binary, "--db", db, *arguments], capture_output=True, text=True, env=self.env)
        if check and result.returncode != 0:
            sys.exit(f"contactsdb {' '.join(arguments)} exited {result.returncode}: {result.stderr}")
        return result

    def expect(self, condition, what):
        if not condition:
            self.failures.append(what)

    def database(self, name):
        db = os.path.join(self.folder, name + ".sqlite")
        self.run(db, "init", "--no-seed")
        for book in BOOKS:
            self.run(db, "remote", "add", book, self.servers[book], "--username", USER, "--password-env", "DAV_PASSWORD")
        return db

    def cards(self, book):
        """UID → text of every card on the book's server, read from its files."""
        cards = {}
        for name in os.listdir(self.folders[book]):
            if name.endswith(".vcf"):
                text = open(os.path.join(self.folders[book], name), encoding="utf-8").read()
                uids = re.findall(r"^UID:(.*?)\r?$", text, re.M)
                for uid in uids:
                    if uid in cards:
                        self.failures.append(f"{book}'s server holds the UID {uid} twice")
                    cards[uid] = text
        return cards

    def contacts(self, db, book):
        exported = json.loads(self.run(db, "export", "--format", "json", "--book", book).stdout)
        return {c.get("uid", c["id"]): c for c in exported}

    def put(self, book, name, card):
        request = urllib.request.Request(self.servers[book] + name, data=card.encode(), method="PUT",
                                         headers={"Content-Type": "text/vcard; charset=utf-8"})
        request.add_header("Authorization", "Basic " + base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode())
        urllib.request.urlopen(request, timeout=10).close()

    def books_match_servers(self, db, when):
        for book in BOOKS:
            on_server, here = set(self.cards(book)), set(self.contacts(db, book))
            self.expect(on_server == here, f"{when}: {book} holds {len(here)} contacts, its server {len(on_server)} cards; "
                                           f"differing: {sorted(on_server ^ here)[:4]}")

    def each_book_its_own_server(self):
        db = self.database("books")
        for index, book in enumerate(BOOKS):
            self.put(book, f"{book}-0.vcf", card(f"{book}-0", "First", book.title()))
        shared = card("shared-uid", "Anna", "Petrova")
        self.put("work", "anna.vcf", shared)
        self.put("family", "anna.vcf", shared.replace("END:VCARD", "NOTE:at home\r\nEND:VCARD"))
        report = self.run(db, "sync").stdout
        self.expect(report.count("pulled:") == 3 and report.startswith("family: "), f"the report of three remotes: {report!r}")
        self.books_match_servers(db, "after the first sync")
        work, family = self.contacts(db, "work"), self.contacts(db, "family")
        self.expect("shared-uid" in work and "shared-uid" in family and work["shared-uid"]["id"] != family["shared-uid"]["id"],
                    "one card on two servers is two contacts")
        # An edit reaches its own server only; each copy keeps its UID.
        before = {book: dict(self.cards(book)) for book in BOOKS}
        self.run(db, "update", family["shared-uid"]["id"], "--job-title", "Engineer")
        self.run(db, "sync")
        after = {book: self.cards(book) for book in BOOKS}
        self.expect("TITLE:Engineer" in after["family"].get("shared-uid", ""), "the edit reached its server")
        self.expect(after["work"] == before["work"] and after["home"] == before["home"], "the edit reached another server")
        # A new contact in a book goes to its server only.
        self.run(db, "add", "--book", "home", "--first-name", "Hana", "--last-name", "Kim")
        self.run(db, "sync")
        self.books_match_servers(db, "after an add")
        # A move: off one server, onto the other.
        moved = self.contacts(db, "work")["work-0"]["id"]
        self.run(db, "move", moved, "--to", "home")
        self.run(db, "sync")
        self.expect("work-0" not in self.cards("work") and "work-0" in self.cards("home"), "a moved card left one server for another")
        self.books_match_servers(db, "after a move")
        # Links are local: linking the two cards of one person and taking them apart again sends nothing.
        before = {book: self.cards(book) for book in BOOKS}
        for command in ("link", "unlink"):
            self.run(db, command, work["shared-uid"]["id"], family["shared-uid"]["id"])
            report = self.run(db, "sync").stdout
            self.expect(report.count("0 new, 0 changed, 0 deleted") == 6, f"a sync after {command} had something to do: {report!r}")
            self.expect({book: self.cards(book) for book in BOOKS} == before, f"a server's cards changed after {command}")
        self.expect(self.run(db, "sync").stdout.count("0 new, 0 changed, 0 deleted") == 6, "a further sync had something to do")
        self.db = db

    def killed_syncs(self, count, kills, rng):
        db = self.db
        generated = os.path.join(self.folder, "generated.json")
        with open(generated, "w") as f:
            f.write(subprocess.check_output([self.binary, "generate", "--contacts", str(count * 3), "--seed", "9"], text=True))
        contacts = json.load(open(generated))
        for index, book in enumerate(BOOKS):
            part = os.path.join(self.folder, f"{book}.json")
            json.dump(contacts[index * count:(index + 1) * count], open(part, "w"))
            self.run(db, "import", part, "--book", book)
        ended = 0
        for kill in range(kills):
            process = subprocess.Popen([self.binary, "--db", db, "sync"], env=self.env,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                process.wait(timeout=rng.uniform(0.3, 6.0))
                ended += 1
            except subprocess.TimeoutExpired:
                process.send_signal(signal.SIGKILL)
                process.wait()
            # A move between kills, so that moves are killed too.
            victim = contacts[rng.randrange(len(contacts))]["id"]
            self.run(db, "move", victim, "--to", rng.choice(BOOKS))
        self.run(db, "sync")
        self.books_match_servers(db, f"after {kills} killed syncs ({ended} ended first)")
        everywhere = [uid for book in BOOKS for uid in self.cards(book)]
        self.expect(len(everywhere) == len(set(everywhere)) + 1, "a card is on two servers (only shared-uid may be)")
        report = self.run(db, "sync").stdout
        self.expect(report.count("0 new, 0 changed, 0 deleted") == 6, f"a further sync had something to do: {report!r}")
        print(f"several_books: {count} new contacts in each of 3 books, {kills} kills ({ended} syncs ended first)")

    def one_server_stopped(self, pid):
        db = self.db
        davserver.stop(pid)
        self.run(db, "add", "--book", "work", "--first-name", "Walter")
        self.run(db, "add", "--book", "home", "--first-name", "Hugo")
        result = self.run(db, "sync", check=False)
        self.expect(result.returncode == 69, f"with one server stopped, sync exited {result.returncode}")
        self.expect(result.stderr.startswith("Error: home: "), f"stderr names the stopped remote: {result.stderr!r}")
        self.expect("work: pushed: 1 new" in result.stdout and "family: pulled:" in result.stdout,
                    f"the other two synced: {result.stdout!r}")


def card(uid, first, last):
    return "\r\n".join(["BEGIN:VCARD", "VERSION:3.0", f"UID:{uid}", f"N:{last};{first};;;", f"FN:{first} {last}",
                        "END:VCARD"]) + "\r\n"


if __name__ == "__main__":
    main()
