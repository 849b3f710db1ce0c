#!/usr/bin/env python3
"""A first sync killed with SIGKILL at random points resumes where it stopped.

  killed_first_pull.py CONTACTSDB [--cards N] [--kills K] [--seed S] [--photos P] [--server KIND]

Starts a server (davserver.py's KIND, default radicale) on 127.0.0.1 holding
N generated cards (default 10,000, P percent of them with a photo, default
10), and pulls them into an empty database through a proxy of this
script's own on 127.0.0.1 that counts the cards each multiget answers.
The pull is killed K times (default 6), each once a random number of the
cards still missing came back; the last sync runs to its end on a
pseudo-terminal. Checks: no kill loses a card stored before it; the cards
a killed pull fetched and did not store (fetched again by the next) are
at most the batches its pipeline holds; the last sync fetches only the
cards still missing and counts them on the terminal; the database then
holds each card once, and a further sync has nothing to do. Prints the
cards fetched again after each kill.

Run with the Python of .build-python (.ci/run makes it).
"""
import gzip
import http.client
import http.server
import json
import os
import pty
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import zlib

import davserver
from davserver import running
from sync_figures import CREDENTIALS, ENV, cli, populate

# Cards a killed pull may have had answered and not yet stored: the batch
# being written, those read and waiting in the pipeline, the one the
# reading thread holds and the next one's request already out
# (docs/sync.md, "Syncing with a CardDAV server").
BATCH, BATCHES_IN_FLIGHT = 250, 6


def main():
    kind = davserver.option_text("server", "radicale")
    binary, cards, kills, seed, photos = davserver.command_line(__doc__, cards=10000, kills=6, seed=1, photos=10)
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="contactsdb-first-pull-") as folder:
        with running(kind, os.path.join(folder, "server")) as server:
            ids = populate(binary, folder, kind, server, cards, photos)
            with CountingProxy(server["addressbook"]) as proxy:
                failures = run_checks(binary, folder, proxy, ids, kills, rng)
    if failures:
        print("\n".join("FAIL: " + f for f in failures))
        sys.exit(1)
    print("killed_first_pull: every kill kept what it stored; the rest came once, and nothing was left to do")


def run_checks(binary, folder, proxy, ids, kills, rng):
    count, failures = len(ids), []
    db = os.path.join(folder, "pull.sqlite")
    cli(binary, db, "init", "--no-seed")
    cli(binary, db, "remote", "add", "home", proxy.url, *CREDENTIALS)
    stored, again = 0, []
    started = time.time()
    for kill in range(kills):
        if stored == count:
            break
        target = rng.randint(1, count - stored)
        ended = pull_killed_at(binary, db, proxy, target)
        now = len(json.loads(cli(binary, db, "export", "--format", "json")))
        if now < stored:
            failures.append(f"kill {kill}: the pull held {stored} contacts and then {now}")
        again.append(proxy.cards - (now - stored))
        print(f"kill {kill + 1}: {'ended before its kill' if ended else f'killed after {proxy.cards} cards came back'}, "
              f"{now} of {count} stored, {again[-1]} fetched and not stored", flush=True)
        stored = now
    left = count - stored
    proxy.cards = 0
    shown = sync_on_terminal(binary, db)
    if left and f"100% {left} of {left} cards" not in shown:
        failures.append(f"the last sync did not count the {left} cards left on the terminal: {shown[-300:]!r}")
    if proxy.cards != left:
        failures.append(f"the last sync fetched {proxy.cards} cards where {left} were missing")
    if max(again) > BATCH * BATCHES_IN_FLIGHT:
        failures.append(f"a killed pull's cards were fetched again beyond the batches in flight: {again}")
    pulled = [c["id"] for c in json.loads(cli(binary, db, "export", "--format", "json"))]
    if len(pulled) != count or set(pulled) != ids:
        failures.append(f"the database holds {len(pulled)} contacts ({len(set(pulled))} ids), expected {count}")
    report = cli(binary, db, "sync")
    if report != "pulled: 0 new, 0 changed, 0 deleted\npushed: 0 new, 0 changed, 0 deleted\n":
        failures.append(f"a further sync reported {report!r}")
    print(f"killed_first_pull: {count} cards, {kills} kills in {time.time() - started:.0f} s; "
          f"cards fetched again after each kill: {again}")
    return failures


def pull_killed_at(binary, db, proxy, target):
    """Starts a sync and kills it once `target` cards came back through the
    proxy; True if it ended first."""
    proxy.cards = 0
    process = subprocess.Popen([binary, "--db", db, "sync"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV)
    while process.poll() is None and proxy.cards < target:
        time.sleep(0.005)
    if process.poll() is None:
        process.send_signal(signal.SIGKILL)
        process.wait()
        return False
    if process.returncode != 0:
        sys.exit(f"contactsdb sync exited {process.returncode}: {process.stderr.read().decode()}")
    return True


def sync_on_terminal(binary, db):
    """Runs `sync` with its stderr on a pseudo-terminal; what it drew there."""
    leader, follower = pty.openpty()
    process = subprocess.Popen([binary, "--db", db, "sync"], stdout=subprocess.DEVNULL, stderr=follower, env=ENV)
    os.close(follower)
    shown = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal closed with the process
            break
        if not chunk:
            break
        shown += chunk
    os.close(leader)
    if process.wait() != 0:
        sys.exit(f"contactsdb sync exited {process.returncode}: {shown.decode(errors='replace')}")
    return shown.decode(errors="replace")


class CountingProxy:
    """Passes requests to the address book's server and counts the cards
    its multigets answer; on 127.0.0.1, on a free port."""

    def __init__(self, addressbook):
        target = urllib.parse.urlsplit(addressbook)
        self.cards, self.lock = 0, threading.Lock()
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def handle_one(self):
                try:
                    self.relay()
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the sync was killed while its answer went back

            def relay(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                upstream = http.client.HTTPConnection(target.hostname, target.port, timeout=300)
                headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection")}
                upstream.request(self.command, self.path, body=body, headers=headers)
                answer = upstream.getresponse()
                data = answer.read()
                upstream.close()
                if self.command == "REPORT" and b"addressbook-multiget" in body:
                    plain = data
                    if answer.getheader("Content-Encoding", "").lower() == "gzip":
                        plain = gzip.decompress(data)
                    elif answer.getheader("Content-Encoding", "").lower() == "deflate":
                        plain = zlib.decompress(data)
                    with proxy.lock:  # one closing tag a card, whatever its prefix
                        proxy.cards += len(re.findall(rb"</(?:[\w-]+:)?address-data>", plain))
                self.send_response(answer.status)
                for key, value in answer.getheaders():
                    if key.lower() not in ("transfer-encoding", "connection", "content-length"):
                        self.send_header(key, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_PUT = do_DELETE = do_PROPFIND = do_REPORT = do_OPTIONS = handle_one

        class Server(http.server.ThreadingHTTPServer):
            def handle_error(self, request, client_address):
                pass  # a killed sync's connection, reset mid-request

        self.server = Server(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}{target.path}"

    def __enter__(self):
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()


if __name__ == "__main__":
    main()
