#!/usr/bin/env python3
"""Syncs killed with SIGKILL at random moments lose nothing and add nothing.

  killed_syncs.py CONTACTSDB [--cards N] [--kills K] [--seed S] [--server xandikos|cyrus|davical]

Against a real Xandikos (or Cyrus IMAP, or DAViCal, both of which rewrite
each card they are given) started on 127.0.0.1: a database of N contacts
(default 2,000) pushes them while `contactsdb sync` is killed K times at
random moments, with local edits made between the kills; the sync is then
run to its end. A second database pulls them all, killed the same way.
Checks: the server holds exactly N cards with N distinct UIDs, both
databases hold exactly the N contacts, every edit made between kills is on
the server and in the second database, and a further sync of each database
reports nothing to do and writes nothing to the server.

Run with the Python of .build-python (.ci/run makes it), which has Xandikos;
Cyrus and DAViCal are Debian's (cyrus-imapd, cyrus-caldav, sasl2-bin;
davical, php-cli, php-pgsql, postgresql).
"""
import base64
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
import urllib.request
import xml.etree.ElementTree as ElementTree

import davserver
from davserver import running


def main():
    binary, cards, kills, seed = davserver.command_line(__doc__, cards=2000, kills=6, seed=1)
    kind = davserver.option_text("server", "xandikos")
    rng = random.Random(seed)
    os.environ["DAV_PASSWORD"] = "password"
    with tempfile.TemporaryDirectory(prefix="contactsdb-killed-") as folder:
        with running(kind, os.path.join(folder, "server")) as server:
            server["kind"] = kind
            run_checks(binary, folder, server, cards, kills, rng)


def cli(binary, db, *arguments, check=True):
    result = subprocess.run([binary, "--db", db, *arguments], capture_output=True, text=True)
    if check and result.returncode != 0:
        sys.exit(f"contactsdb {' '.join(arguments)} exited {result.returncode}: {result.stderr}")
    return result.stdout


def killed_sync(binary, db, delay):
    """Starts a sync and kills it after `delay` seconds; True if it ended first."""
    return davserver.killed([binary, "--db", db, "sync"], delay)


def server_writes(server, server_folder):
    """What each PUT or DELETE changes: the count of them in Xandikos's log,
    else the address book's sync-token."""
    if server["kind"] != "xandikos":
        body = dav(server, "PROPFIND", "0", '<d:propfind xmlns:d="DAV:"><d:prop><d:sync-token/></d:prop></d:propfind>')
        return ElementTree.fromstring(body).find(".//{DAV:}sync-token").text
    log = open(os.path.join(server_folder, "server.log")).read()
    return len(re.findall(r'"(PUT|DELETE) ', log))


def dav(server, method, depth, body):
    """The answer to a request; asked again when Cyrus, busy, answers
    `102 Processing` first, which urllib takes for the answer."""
    request = urllib.request.Request(server["addressbook"], data=body.encode(), method=method, headers={
        "Authorization": "Basic " + base64.b64encode(b"user:password").decode(), "Depth": depth,
        "Content-Type": "application/xml"})
    for attempt in range(5):
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                return response.read()
        except urllib.error.HTTPError as error:
            if error.code != 102 or attempt == 4:
                raise
            time.sleep(1)


def server_cards(server, server_folder):
    """The address book's cards by name: (UID, text). Xandikos's files, or
    what the server answers (as vCard 4.0, which Cyrus keeps whole), or
    DAViCal's database."""
    if server["kind"] == "davical":
        return {name: (re.search(r"^UID:(.*?)\r?$", text, re.M).group(1), text)
                for name, text in davserver.davical.cards(server_folder).items()}
    if server["kind"] != "xandikos":
        return served_cards(server)
    folder = os.path.join(server_folder, "data", "user", "contacts", "addressbook")
    cards = {}
    for name in os.listdir(folder):
        if name.endswith(".vcf"):
            text = open(os.path.join(folder, name), encoding="utf-8").read()
            uid = re.search(r"^UID:(.*?)\r?$", text, re.M).group(1)
            cards[name] = (uid, text)
    return cards


def served_cards(server):
    listing = ElementTree.fromstring(dav(server, "PROPFIND", "1", '<d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop></d:propfind>'))
    hrefs = [href.text for href in listing.iter("{DAV:}href") if href.text.endswith(".vcf")]
    cards = {}
    for start in range(0, len(hrefs), 500):
        body = dav(server, "REPORT", "1", '<c:addressbook-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:carddav">'
                   '<d:prop><c:address-data content-type="text/vcard" version="4.0"/></d:prop>'
                   + "".join(f"<d:href>{href}</d:href>" for href in hrefs[start:start + 500]) + "</c:addressbook-multiget>")
        for response in ElementTree.fromstring(body).iter("{DAV:}response"):
            text = response.find(".//{urn:ietf:params:xml:ns:carddav}address-data").text
            uid = re.search(r"^UID:(.*?)\r?$", text, re.M).group(1)
            cards[os.path.basename(response.find("{DAV:}href").text)] = (uid, text)
    return cards


def run_checks(binary, folder, server, count, kills, rng):
    server_folder = os.path.join(folder, "server")
    pusher, puller = os.path.join(folder, "pusher.sqlite"), os.path.join(folder, "puller.sqlite")
    for db in (pusher, puller):
        cli(binary, db, "init", "--no-seed")
        cli(binary, db, "remote", "add", "home", server["addressbook"], "--username", "user", "--password-env", "DAV_PASSWORD")
    data = os.path.join(folder, "contacts.json")
    with open(data, "w") as f:
        f.write(subprocess.check_output([binary, "generate", "--contacts", str(count), "--seed", "7"], text=True))
    cli(binary, pusher, "import", data, "--book", "home")
    ids = [c["id"] for c in json.loads(cli(binary, pusher, "export", "--format", "json"))]

    # Push, killed at random moments, with an edit after each kill.
    edits = {}
    started, finished_early = time.time(), 0
    for kill in range(kills):
        if killed_sync(binary, pusher, rng.uniform(0.3, 12.0)):
            finished_early += 1
        edited = rng.choice(ids)
        note = f"edited after kill {kill}"
        cli(binary, pusher, "update", edited, "--note", note)
        edits[edited] = note
    cli(binary, pusher, "sync")
    push_seconds = time.time() - started

    on_server = server_cards(server, server_folder)
    uids = [uid for uid, _ in on_server.values()]
    failures = []
    if len(on_server) != count or len(set(uids)) != count or set(uids) != set(ids):
        failures.append(f"server holds {len(on_server)} cards with {len(set(uids))} UIDs, expected {count}")
    by_uid = {uid: text for uid, text in on_server.values()}
    for edited, note in edits.items():
        if f"NOTE:{note}" not in by_uid.get(edited, ""):
            failures.append(f"the edit of {edited} ({note}) is not on the server")

    # Pull into a second database, killed the same way.
    for kill in range(kills):
        killed_sync(binary, puller, rng.uniform(0.2, 4.0))
    cli(binary, puller, "sync")
    pulled = {c["id"]: c for c in json.loads(cli(binary, puller, "export", "--format", "json"))}
    if len(pulled) != count or set(pulled) != set(ids):
        failures.append(f"the second database holds {len(pulled)} contacts, expected {count}")
    for edited, note in edits.items():
        if pulled.get(edited, {}).get("note") != note:
            failures.append(f"the edit of {edited} did not reach the second database")

    # Nothing left to do on either side: no PUT or DELETE.
    writes = server_writes(server, server_folder)
    for db in (pusher, puller):
        report = cli(binary, db, "sync")
        if report != "pulled: 0 new, 0 changed, 0 deleted\npushed: 0 new, 0 changed, 0 deleted\n":
            failures.append(f"a further sync of {os.path.basename(db)} reported {report!r}")
    if server_writes(server, server_folder) != writes:
        failures.append("a sync with nothing to do wrote to the server")
    count_local = len(json.loads(cli(binary, pusher, "export", "--format", "json")))
    if count_local != count:
        failures.append(f"the first database holds {count_local} contacts, expected {count}")

    print(f"killed_syncs: {server['kind']}, {count} cards, {kills} kills each way ({finished_early} syncs ended before their kill), "
          f"push with kills took {push_seconds:.0f} s")
    if failures:
        print("\n".join("FAIL: " + f for f in failures))
        sys.exit(1)
    print("killed_syncs: no duplicate, no lost change, nothing to do afterwards")


if __name__ == "__main__":
    main()
