#!/usr/bin/env python3
"""Times contactsdb's sync beside vdirsyncer's against one server.

  sync_figures.py CONTACTSDB [--cards N] [--runs R] [--photos PERCENT] [--server KIND]

Starts a server (davserver.py's KIND, default radicale) on 127.0.0.1 with an
address book of N generated cards (default 10,000, PERCENT of them with a
photo of about 10 KB): written into Radicale's storage before the first
request, then read once by the server; put on any other server by a sync of
a database that holds them. Then, R times (default 3) each: a first sync of
all N cards into an empty contactsdb database, and vdirsyncer's into an
empty folder, with each process's peak memory; then R times: a sync with
nothing to do, and 10 cards changed on the server by PUT, then contactsdb's
incremental sync and vdirsyncer's. Prints each run and the medians. Checks
that each first sync brought all N cards. Not part of the tests: figures for
reading.

Run with the Python of .build-python, which has Radicale and vdirsyncer.
"""
import base64
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ElementTree

import davserver
from davserver import running, vdirsyncer_config

USER, PASSWORD = "user", "password"
# The password every server of davserver.py is started with.
ENV = dict(os.environ, SYNC_PASSWORD=PASSWORD)
CREDENTIALS = ("--username", USER, "--password-env", "SYNC_PASSWORD")


def main():
    kind = davserver.option_text("server", "radicale")
    binary, cards, runs, photos = davserver.command_line(__doc__, cards=10000, runs=3, photos=0)
    with tempfile.TemporaryDirectory(prefix="contactsdb-figures-") as folder:
        with running(kind, os.path.join(folder, "server"), USER, PASSWORD) as server:
            started = time.perf_counter()
            populate(binary, folder, kind, server, cards, photos)
            print(f"{cards} cards put on {kind} in {time.perf_counter() - started:.0f} s", flush=True)
            measure(binary, folder, server, cards, runs)


def cli(binary, db, *arguments):
    result = subprocess.run([binary, "--db", db, *arguments], capture_output=True, text=True, env=ENV)
    if result.returncode != 0:
        sys.exit(f"contactsdb {' '.join(arguments)} exited {result.returncode}: {result.stderr}")
    return result.stdout


def timed(command, env=None, peaks=None):
    """Runs the command; its seconds and output. Its peak resident memory
    in MB is appended to `peaks` when given, as GNU time reads it: a child's
    own maximum from wait4 would count this script's memory too, which the
    child holds between fork and exec."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err, \
            tempfile.NamedTemporaryFile("r") as peak:
        started = time.perf_counter()
        process = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", peak.name, *command], stdout=out, stderr=err, env=env)
        elapsed = time.perf_counter() - started
        out.seek(0), err.seek(0)
        if process.returncode != 0:
            sys.exit(f"{' '.join(command)} exited {process.returncode}: {err.read()}{out.read()}")
        if peaks is not None:
            peaks.append(int(peak.read().split()[-1]) / 1024)
        return elapsed, out.read()


def send(method, url, body=None, headers=()):
    request = urllib.request.Request(url, data=body, method=method)
    request.add_header("Authorization", "Basic " + base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode())
    for name, value in headers:
        request.add_header(name, value)
    with urllib.request.urlopen(request, timeout=600) as answer:
        return answer.read()


def card_urls(addressbook):
    """The address of each card the address book lists."""
    body = b'<?xml version="1.0"?><d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop></d:propfind>'
    listing = send("PROPFIND", addressbook, body, [("Content-Type", "application/xml"), ("Depth", "1")])
    hrefs = [element.text.strip() for element in ElementTree.fromstring(listing).iter("{DAV:}href")]
    return sorted(urllib.parse.urljoin(addressbook, href) for href in hrefs if href.endswith(".vcf"))


def change(url, note):
    """Has the card at `url` changed on the server, as another client would."""
    text = send("GET", url).decode()
    send("PUT", url, text.replace("END:VCARD", f"NOTE:{note}\r\nEND:VCARD").encode(),
         [("Content-Type", "text/vcard; charset=utf-8")])


def warm(url):
    """Has the server read every card once (Radicale computes and caches
    each card's ETag on first use), so that neither client pays for it."""
    bodies = {
        "PROPFIND": b'<?xml version="1.0"?><d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop></d:propfind>',
        "REPORT": b'<?xml version="1.0"?><d:sync-collection xmlns:d="DAV:"><d:sync-token/><d:sync-level>1</d:sync-level>'
                  b'<d:prop><d:getetag/></d:prop></d:sync-collection>',
    }
    for method, body in bodies.items():
        send(method, url, body, [("Content-Type", "application/xml"), ("Depth", "1")])


def fill(binary, folder, collection, count, seed=3, prefix="", photos=0):
    """Writes `count` generated cards, their ids prefixed by `prefix`, into a
    Radicale collection's folder."""
    source = os.path.join(folder, f"source-{seed}.sqlite")
    subprocess.run([binary, "--db", source, "init", "--no-seed"], check=True, capture_output=True)
    generated = os.path.join(folder, f"generated-{seed}.json")
    with_photos = ["--photos", str(photos)] if photos else []
    contacts = json.loads(subprocess.check_output([binary, "generate", "--contacts", str(count), "--seed", str(seed), *with_photos]))
    for contact in contacts:
        contact["id"] = prefix + contact["id"]
    with open(generated, "w") as f:
        json.dump(contacts, f)
    subprocess.run([binary, "--db", source, "import", generated], check=True, capture_output=True)
    exported = os.path.join(folder, f"exported-{seed}")
    subprocess.run([binary, "--db", source, "export", "--format", "vcard", "--vcard-version", "3.0",
                    "--directory", exported], check=True, capture_output=True)
    for name in os.listdir(exported):
        shutil.copy(os.path.join(exported, name), collection)


def populate(binary, folder, kind, server, count, photos):
    """Puts `count` generated cards on the server: into Radicale's storage
    directly, elsewhere by a sync of a database that holds them. Returns
    their ids."""
    if kind == "radicale":
        collection = os.path.join(folder, "server", "collections", "collection-root", USER, "contacts")
        fill(binary, folder, collection, count, photos=photos)
        warm(server["addressbook"])
        source = os.path.join(folder, "source-3.sqlite")
    else:
        source = os.path.join(folder, "source.sqlite")
        data = os.path.join(folder, "contacts.json")
        with open(data, "w") as f:
            subprocess.run([binary, "generate", "--contacts", str(count), "--seed", "3", "--photos", str(photos)],
                           stdout=f, check=True)
        cli(binary, source, "init", "--no-seed")
        cli(binary, source, "remote", "add", "home", server["addressbook"], *CREDENTIALS)
        cli(binary, source, "import", data, "--book", "home")
        cli(binary, source, "sync")
    return {c["id"] for c in json.loads(cli(binary, source, "export", "--format", "json"))}


def measure(binary, folder, server, count, runs):
    vdirsyncer = os.path.join(os.path.dirname(sys.executable), "vdirsyncer")
    firsts = {"contactsdb": [], "vdirsyncer": []}
    peaks = {"contactsdb": [], "vdirsyncer": []}
    for run in range(runs):
        db = os.path.join(folder, f"first{run}.sqlite")
        subprocess.run([binary, "--db", db, "init", "--no-seed"], check=True, capture_output=True)
        subprocess.run([binary, "--db", db, "remote", "add", "home", server["addressbook"], "--username", USER,
                        "--password-env", "SYNC_PASSWORD"], check=True, capture_output=True, env=ENV)
        seconds, report = timed([binary, "--db", db, "sync"], ENV, peaks["contactsdb"])
        if not report.startswith(f"pulled: {count} new"):
            sys.exit(f"the first sync reported {report!r}")
        firsts["contactsdb"].append(seconds)
        config = vdirsyncer_config(server["addressbook"], USER, PASSWORD, os.path.join(folder, f"first{run}"))
        timed([vdirsyncer, "-c", config, "discover"])
        seconds, _ = timed([vdirsyncer, "-c", config, "sync"], peaks=peaks["vdirsyncer"])
        got = len(os.listdir(os.path.join(folder, f"first{run}", "cards")))
        if got != count:
            sys.exit(f"vdirsyncer brought {got} cards")
        firsts["vdirsyncer"].append(seconds)
        print(f"first sync of {count} cards, run {run + 1}: contactsdb {firsts['contactsdb'][-1]:.2f} s "
              f"(peak {peaks['contactsdb'][-1]:.0f} MB), vdirsyncer {seconds:.2f} s (peak {peaks['vdirsyncer'][-1]:.0f} MB)",
              flush=True)

    urls = card_urls(server["addressbook"])
    incrementals = {"contactsdb": [], "vdirsyncer": []}
    idle = {"contactsdb": [], "vdirsyncer": []}
    db, config = os.path.join(folder, "first0.sqlite"), os.path.join(folder, "first0", "vdirsyncer.conf")

    def both(label, expected, figures):
        seconds, report = timed([binary, "--db", db, "sync"], ENV)
        if not report.startswith(expected):
            sys.exit(f"the {label} reported {report!r}")
        figures["contactsdb"].append(seconds)
        seconds, _ = timed([vdirsyncer, "-c", config, "sync"])
        figures["vdirsyncer"].append(seconds)
        print(f"{label}, run {run + 1}: contactsdb {figures['contactsdb'][-1]:.2f} s, vdirsyncer {seconds:.2f} s", flush=True)

    for run in range(runs):
        both("sync with nothing to do", "pulled: 0 new, 0 changed, 0 deleted", idle)
        for url in urls[run * 10:run * 10 + 10]:
            change(url, f"changed in run {run}")
        both("incremental sync of 10 changes", "pulled: 0 new, 10 changed", incrementals)

    print(f"peak memory of a first sync: contactsdb {max(peaks['contactsdb']):.0f} MB, "
          f"vdirsyncer {max(peaks['vdirsyncer']):.0f} MB")
    for label, figures in (("first sync", firsts), ("sync with nothing to do", idle), ("incremental sync", incrementals)):
        ours, theirs = statistics.median(figures["contactsdb"]), statistics.median(figures["vdirsyncer"])
        print(f"median {label}: contactsdb {ours:.2f} s, vdirsyncer {theirs:.2f} s, ratio {theirs / ours:.1f}x")


if __name__ == "__main__":
    main()
