#!/usr/bin/env python3
"""A CardDAV server that misbehaves, for the sync failure tests: it listens
on 127.0.0.1 only (and, for "another host", on 127.0.0.2), on free ports.

  hostile.py start MODE DIR
      starts the server in its own session, prints {"pid", "url", "other"}
      as JSON and exits; every request either listener gets is logged to
      DIR/requests.log as a JSON line {"host", "method", "path",
      "authorization", "body"} (body: its length).
  hostile.py stop PID

Modes:
  cross-origin  every request is answered 307 to the same path on
                127.0.0.2, another origin, which answers as an address book
  same-origin   /old/... is answered 308 to /ab/..., which is an address book
  trickle       an address book whose listing sends its headers, then one
                byte every 2 s, for ever
  huge          an address book whose listing is a 207 multistatus of 200 MB
                without a Content-Length, made as it is sent
  outside       an address book whose listing names a card inside it and 5,003
                outside it
  bad-cards     an address book of four cards: two good, one not UTF-8, one
                with a 20 MB NOTE
  slow-start    an empty address book whose listing begins after 32 s, as a
                busy server holding many cards may
  trickle-head  an address book whose listing sends its status line, then
                its headers one byte every 0.5 s, for ever
  gzip-bomb     an address book whose listing is gzip that grows 1000 times
  many-elements an address book whose listing (63 MB) holds 10.5 million
                empty elements, in a response's prop and then beside it
  drops-puts    an empty address book that answers every PUT 201 with an
                ETag and keeps nothing (a broken proxy, a full quota), and
                has no sync-collection (501), so each sync lists it whole
  drops-changes an address book that keeps a new card, but answers a PUT over
                a card it holds 204 with a new ETag and keeps the old card;
                no sync-collection (501), so each sync lists it whole
  drops-changes-unsaid  the same, its 204 without an ETag
Both listeners stop when the process gets SIGTERM.
"""
import http.server
import gzip
import json
import os
import signal
import socket
import socketserver
import subprocess
import sys
import threading
import time
from xml.sax.saxutils import escape

ADDRESS_BOOK = """<?xml version="1.0" encoding="utf-8"?>
<d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:carddav">
<d:response><d:href>{path}</d:href><d:propstat><d:prop>
<d:resourcetype><d:collection/><c:addressbook/></d:resourcetype><d:displayname>Book</d:displayname>
<d:sync-token>http://example.invalid/token/1</d:sync-token>
<c:supported-address-data><c:address-data-type content-type="text/vcard" version="3.0"/></c:supported-address-data>
</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
</d:multistatus>"""

CARD = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:{uid}\r\nFN:{uid}\r\nN:{uid};;;;\r\nEND:VCARD\r\n"


def many_elements():
    """63 MB: 5.25 million empty elements beside the responses, then as many
    as properties of one response."""
    return (b'<?xml version="1.0" encoding="utf-8"?>\n<d:multistatus xmlns:d="DAV:">' + b"<yy/>\n" * 5_250_000
            + b"<d:response><d:href>/ab/a.vcf</d:href><d:propstat><d:prop>" + b"<xx/>\n" * 5_250_000
            + b"</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"
            + b"<d:sync-token>http://example.invalid/token/1</d:sync-token></d:multistatus>")


def free_port(host):
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    mode = ""
    log_path = ""
    other = ""
    # drops-changes: each card kept, by href, with its ETag.
    lock = threading.Lock()
    cards = {}
    changes_dropped = 0

    def log_message(self, *args):
        pass

    def record(self, body):
        entry = {"host": self.server.server_address[0], "method": self.command, "path": self.path,
                 "authorization": self.headers.get("Authorization") is not None, "body": len(body)}
        with open(self.log_path, "a") as log:
            log.write(json.dumps(entry) + "\n")

    def answer(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def multistatus(self, text):
        self.answer(207, text.encode(), [("Content-Type", "application/xml; charset=utf-8")])

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        self.record(body)
        is_other = self.server.server_address[0] == "127.0.0.2"
        if self.mode == "cross-origin" and not is_other:
            return self.answer(307, headers=[("Location", self.other + self.path)])
        if self.mode == "same-origin" and self.path.startswith("/old/"):
            return self.answer(308, headers=[("Location", "/ab/" + self.path[len("/old/"):])])
        is_listing = not (self.command == "PROPFIND" and self.headers.get("Depth") == "0")
        if self.mode == "trickle" and is_listing:
            self.send_response(207)
            self.send_header("Content-Type", "application/xml; charset=utf-8")
            self.send_header("Content-Length", "100000")
            self.end_headers()
            try:
                while True:
                    self.wfile.write(b" ")
                    self.wfile.flush()
                    time.sleep(2)
            except OSError:
                return
        if self.mode == "slow-start" and is_listing:
            time.sleep(32)
        if self.mode == "trickle-head" and is_listing:
            try:
                self.wfile.write(b"HTTP/1.1 207 Multi-Status\r\n")
                while True:
                    for byte in b"X-Padding: " + b"a" * 1000:
                        self.wfile.write(bytes([byte]))
                        self.wfile.flush()
                        time.sleep(0.5)
            except OSError:
                return
        if self.mode == "gzip-bomb" and is_listing:
            return self.answer(207, gzip.compress(b" " * (20 << 20)),
                               [("Content-Type", "application/xml; charset=utf-8"), ("Content-Encoding", "gzip")])
        if self.mode == "many-elements" and is_listing:
            return self.answer(207, many_elements(), [("Content-Type", "application/xml; charset=utf-8")])
        if self.mode == "huge" and is_listing:
            head = b'<?xml version="1.0" encoding="utf-8"?>\n<d:multistatus xmlns:d="DAV:">'
            filler = b"<d:response><d:href>/ab/x.vcf</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>\n" * 1000
            count = (200 << 20) // len(filler)
            tail = b"</d:multistatus>"
            # No Content-Length: the answer ends when the connection does,
            # so only the bytes as they come can tell its size.
            self.send_response(207)
            self.send_header("Content-Type", "application/xml; charset=utf-8")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            try:
                self.wfile.write(head)
                for _ in range(count):
                    self.wfile.write(filler)
                self.wfile.write(tail)
            except OSError:
                pass
            return
        if self.command == "PROPFIND" and self.headers.get("Depth") == "0":
            return self.multistatus(ADDRESS_BOOK.format(path=self.path))
        if self.command == "REPORT" and self.mode.startswith("drops-") and b"sync-collection" in body:
            return self.answer(501)
        if self.mode.startswith("drops-changes"):
            return self.drop_changes(body)
        if self.command in ("REPORT", "PROPFIND") and self.mode == "outside":
            return self.multistatus(self.outside_listing(body))
        if self.command in ("REPORT", "PROPFIND") and self.mode == "bad-cards":
            return self.answer(207, self.bad_cards(body), [("Content-Type", "application/xml; charset=utf-8")])
        if self.command in ("REPORT", "PROPFIND"):
            return self.multistatus('<?xml version="1.0"?><d:multistatus xmlns:d="DAV:">'
                                    '<d:sync-token>http://example.invalid/token/1</d:sync-token></d:multistatus>')
        if self.command == "PUT":
            return self.answer(201, headers=[("ETag", '"1"')])
        return self.answer(404)

    def drop_changes(self, body):
        with Handler.lock:
            if self.command == "PUT":
                if self.path not in Handler.cards:
                    Handler.cards[self.path] = ('"1"', body)
                    return self.answer(201, headers=[("ETag", '"1"')])
                Handler.changes_dropped += 1
                etag = [] if self.mode.endswith("unsaid") else [("ETag", f'"dropped-{Handler.changes_dropped}"')]
                return self.answer(204, headers=etag)
            if self.command in ("REPORT", "PROPFIND"):
                multiget = b"addressbook-multiget" in body
                responses = "".join(
                    f"<d:response><d:href>{href}</d:href><d:propstat><d:prop><d:getetag>{etag}</d:getetag>"
                    + (f"<c:address-data>{escape(card.decode())}</c:address-data>" if multiget else "")
                    + "</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"
                    for href, (etag, card) in Handler.cards.items() if not multiget or href.encode() in body)
                return self.multistatus('<?xml version="1.0"?><d:multistatus xmlns:d="DAV:" '
                                        'xmlns:c="urn:ietf:params:xml:ns:carddav">' + responses + "</d:multistatus>")
            if self.command == "GET" and self.path in Handler.cards:
                etag, card = Handler.cards[self.path]
                return self.answer(200, card, [("ETag", etag), ("Content-Type", "text/vcard")])
        return self.answer(404)

    def outside_listing(self, body):
        # Thousands outside, as a server listing another collection's cards
        # sends them: reported in one line, not one each.
        hrefs = (["/ab/inside.vcf", "/other/outside.vcf", "/ab/sub/../../up.vcf", "http://other-host.invalid/x.vcf"]
                 + [f"/other/many-{n}.vcf" for n in range(5000)])
        if b"addressbook-multiget" in body:
            responses = "".join(
                f"<d:response><d:href>{href}</d:href><d:propstat><d:prop><d:getetag>\"1\"</d:getetag>"
                f"<c:address-data>{CARD.format(uid=href.rsplit('/', 1)[-1][:-4])}</c:address-data></d:prop>"
                f"<d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"
                for href in hrefs if href in body.decode())
        else:
            responses = "".join(
                f"<d:response><d:href>{href}</d:href><d:propstat><d:prop><d:getetag>\"1\"</d:getetag></d:prop>"
                f"<d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>" for href in hrefs)
        return ('<?xml version="1.0"?><d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:carddav">'
                + responses + "<d:sync-token>http://example.invalid/token/2</d:sync-token></d:multistatus>")

    def bad_cards(self, body):
        """Four cards: two good, one whose bytes are not UTF-8, one whose
        NOTE of 20 MB is past libxml2's own limit on one text."""
        cards = {
            "/ab/good1.vcf": CARD.format(uid="good1").encode(),
            "/ab/bad.vcf": CARD.format(uid="bad").replace("FN:bad", "FN:b\udcff").encode("utf-8", "surrogateescape"),
            "/ab/long.vcf": CARD.format(uid="long").replace("END:VCARD", "NOTE:" + "x" * (20 << 20) + "\r\nEND:VCARD").encode(),
            "/ab/good2.vcf": CARD.format(uid="good2").encode(),
        }
        head = b'<?xml version="1.0" encoding="utf-8"?><d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:carddav">'
        tail = b"<d:sync-token>http://example.invalid/token/2</d:sync-token></d:multistatus>"
        parts = []
        for href, card in cards.items():
            if b"addressbook-multiget" in body:
                if href.encode() not in body:
                    continue
                data = b"<c:address-data>" + card + b"</c:address-data>"
            else:
                data = b""
            parts.append(b"<d:response><d:href>" + href.encode() + b"</d:href><d:propstat><d:prop><d:getetag>\"1\"</d:getetag>"
                         + data + b"</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>")
        return head + b"".join(parts) + tail

    do_GET = do_PUT = do_DELETE = do_PROPFIND = do_REPORT = do_OPTIONS = handle_any


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


def serve(mode, folder):
    port, other_port = free_port("127.0.0.1"), free_port("127.0.0.2")
    Handler.mode = mode
    Handler.log_path = os.path.join(folder, "requests.log")
    Handler.other = f"http://127.0.0.2:{other_port}"
    servers = [Server(("127.0.0.1", port), Handler), Server(("127.0.0.2", other_port), Handler)]
    for server in servers:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    # Written whole under another name, then renamed: `start` reads it as soon as it exists.
    ports = os.path.join(folder, "ports")
    with open(ports + ".part", "w") as f:
        f.write(json.dumps({"url": f"http://127.0.0.1:{port}/", "other": Handler.other + "/"}))
    os.replace(ports + ".part", ports)
    signal.sigwait([signal.SIGTERM, signal.SIGINT])


def start(mode, folder):
    os.makedirs(folder, exist_ok=True)
    ports = os.path.join(folder, "ports")
    if os.path.exists(ports):
        os.remove(ports)
    signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGTERM, signal.SIGINT])
    process = subprocess.Popen([sys.executable, __file__, "serve", mode, folder], start_new_session=True,
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 10
    while not os.path.exists(ports) and time.time() < deadline:
        time.sleep(0.02)
    with open(ports) as f:
        info = json.load(f)
    info["pid"] = process.pid
    print(json.dumps(info))


def main(argv):
    if len(argv) == 3 and argv[0] == "start":
        start(argv[1], argv[2])
    elif len(argv) == 3 and argv[0] == "serve":
        signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGTERM, signal.SIGINT])
        serve(argv[1], argv[2])
    elif len(argv) == 2 and argv[0] == "stop":
        os.kill(int(argv[1]), signal.SIGTERM)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
