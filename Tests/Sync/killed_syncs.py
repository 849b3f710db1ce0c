#!/usr/bin/env python3
"""Syncs killed with SIGKILL at random moments lose nothing and add nothing.

  killed_syncs.py CONTACTSDB [--cards N] [--kills K] [--seed S] [--davical]

Against a real Xandikos (or DAViCal, which rewrites each card it is given)
started on 127.0.0.1: a database of N contacts
(default 2,000) pushes them while `contactsdb sync` is killed K times at
random moments, with local edits made between the kills; the sync is then
run to its end. A second database pulls them all, killed the same way.
Checks: the server holds exactly N cards with N distinct UIDs, both
databases hold exactly the N contacts, every edit made between kills is on
the server and in the second database, and a further sync of each database
reports nothing to do and writes nothing to the server.

Run with the Python of .build-python (.ci/run makes it), which has Xandikos.
"""
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time

import davserver
from davserver import running


def main():
    binary, cards, kills, seed = davserver.command_line(__doc__, cards=2000, kills=6, seed=1)
    rng = random.Random(seed)
    kind = "davical" if "--davical" in sys.argv else "xandikos"
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


def server_writes(server_folder):
    log = open(os.path.join(server_folder, "server.log")).read()
    return len(re.findall(r'"(PUT|DELETE) ', log))


def server_cards(server_folder, kind):
    if kind == "davical":
        texts = davserver.davical.cards(server_folder)
    else:
        folder = os.path.join(server_folder, "data", "user", "contacts", "addressbook")
        texts = {name: open(os.path.join(folder, name), encoding="utf-8").read()
                 for name in os.listdir(folder) if name.endswith(".vcf")}
    cards = {}
    for name, text in texts.items():
        uid = re.search(r"^UID:(.*?)\r?$", text, re.M).group(1)
        cards[name] = (uid, text)
    return cards


def run_checks(binary, folder, server, count, kills, rng):
    server_folder = os.path.join(folder, "server")
    pusher, puller = os.path.join(folder, "pusher.sqlite"), os.path.join(folder, "puller.sqlite")
    for db in (pusher, puller):
        cli(binary, db, "init", "--no-seed")
        credentials = ["--username", "user", "--password-env", "DAV_PASSWORD"] if server["kind"] == "davical" else []
        cli(binary, db, "remote", "add", "home", server["addressbook"], *credentials)
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

    on_server = server_cards(server_folder, server["kind"])
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
    writes = server_writes(server_folder)
    for db in (pusher, puller):
        report = cli(binary, db, "sync")
        if report != "pulled: 0 new, 0 changed, 0 deleted\npushed: 0 new, 0 changed, 0 deleted\n":
            failures.append(f"a further sync of {os.path.basename(db)} reported {report!r}")
    if server_writes(server_folder) != writes:
        failures.append("a sync with nothing to do wrote to the server")
    count_local = len(json.loads(cli(binary, pusher, "export", "--format", "json")))
    if count_local != count:
        failures.append(f"the first database holds {count_local} contacts, expected {count}")

    print(f"killed_syncs: {count} cards, {kills} kills each way ({finished_early} syncs ended before their kill), "
          f"push with kills took {push_seconds:.0f} s")
    if failures:
        print("\n".join("FAIL: " + f for f in failures))
        sys.exit(1)
    print("killed_syncs: no duplicate, no lost change, nothing to do afterwards")


if __name__ == "__main__":
    main()
