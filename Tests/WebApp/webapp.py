#!/usr/bin/env python3
"""The web app of `contactsdb serve`, driven in a real browser.

  webapp.py CONTACTSDB [--screenshot PNG]
      starts `contactsdb serve` on a free port over a seeded database and
      checks, in Debian's chromium driven by Playwright, what the page does
      (the sectioned list with thumbnails and its index, filters, sorts,
      search, books, groups and favorites, a contact's page, the add and
      edit forms over every field of the card, a photo chosen in the form,
      refused at its field when it is none, shown and removed, delete,
      duplicates with merge and unmerge, or link and unlink, a remote's
      last sync and "sync now", changes from another process, the keyboard
      and labels, upcoming birthdays, a delete undone, the trash with
      restore, a contact's history with restore, a trash that keeps
      nothing) and, over plain HTTP, what it refuses
      (no cookie, a code used once or past its minute, another Host, a
      write from another origin); what a page on another local port cannot
      do (receive the app's cookie, sign the browser out by setting
      cookies, run a photo whose bytes are a page, a script or an SVG),
      that the browser's history holds no address that opens the app again,
      and what `serve --open` hands its opener ($BROWSER, recorded); the
      birthday calendar's feed, fetched by chromium with its own token at
      the machine's host, and refused to any other token or the app's
      cookie. With --screenshot, saves the list as the README shows it.
  webapp.py CONTACTSDB --figures N [--runs R] [--db PATH]
      generates N contacts into a new database (or takes the one at PATH
      as it is) and measures, in the browser, the first screen and each
      keystroke's results, R times (default 3); prints them.

The sync check runs against Radicale (from the Python that runs this, or
PATH), as Tests/Sync does; without it that check is skipped, unless
CONTACTSDB_REQUIRE_DAV is set. Chromium is /usr/bin/chromium
(CHROMIUM=… for another), launched by Playwright with executable_path:
no browser is downloaded.
"""
import base64
import http.client
import http.server
import json
import re
import os
import shutil
import signal
import socket
import sqlite3
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sync"))

from playwright.sync_api import expect, sync_playwright  # noqa: E402

PASSWORD = "never-shown-7f3a9c"
FAILURES = []


def check(condition, message):
    if not condition:
        FAILURES.append(message)
        print(f"FAIL: {message}", file=sys.stderr)


class CLI:
    def __init__(self, binary, db):
        self.binary, self.db = binary, db

    def run(self, *args, stdin=None, env=None, ok=True):
        # `generate` alone opens no database.
        database = [] if args[0] == "generate" else ["--db", self.db]
        result = subprocess.run([self.binary, *database, *args], input=stdin, capture_output=True, text=True,
                                env={**os.environ, **(env or {})}, timeout=600)
        if ok and result.returncode != 0:
            raise RuntimeError(f"contactsdb {' '.join(args)} exited {result.returncode}: {result.stderr}")
        return result

    def ids(self, *args):
        return [c["id"] for c in json.loads(self.run("query", "--format", "json", *args).stdout)]

    def names(self, *args):
        return [c["displayName"] for c in json.loads(self.run("query", "--format", "json", *args).stdout)]

    def count(self):
        return int(self.run("query", "--count").stdout)


class Server:
    """`contactsdb serve` on a free port, stopped by its pid. It prints an
    address with a one-time code, and a new one for each line it reads;
    `sign_in` trades one, as a browser would, for the app's host and its
    cookie, which `request` then sends."""

    def __init__(self, cli, *options, env=None):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.process = subprocess.Popen([cli.binary, "--db", cli.db, "serve", "--port", str(self.port), *options],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True, env={**os.environ, **(env or {})})
        self.printed = self.process.stdout.readline().strip()
        if not re.fullmatch(rf"http://127\.0\.0\.1:{self.port}/\?code=[0-9a-f]{{32}}", self.printed):
            raise RuntimeError(f"serve printed {self.printed!r}: {self.process.stderr.read()}")
        self.machine = f"127.0.0.1:{self.port}"
        self.host = self.origin = self.token = None

    def address(self):
        """A new address to open the app by, once."""
        address, self.printed = self.printed, None
        if address is None:
            self.process.stdin.write("\n")
            self.process.stdin.flush()
            address = self.process.stdout.readline().strip()
        return address

    def sign_in(self):
        """Trades a code at the machine's host for the app's host and a
        code there, and that for the cookie; returns the answers."""
        entry = self.request("GET", path_of(self.address()), host=self.machine, cookie=False)
        location = urllib.parse.urlsplit(entry[1].get("Location", ""))
        self.host, self.origin = location.netloc, f"http://{location.netloc}"
        exchange = self.request("GET", f"{location.path}?{location.query}", cookie=False)
        cookie = exchange[1].get("Set-Cookie", "")
        self.token = cookie.split(";", 1)[0].split("=", 1)[1] if cookie.startswith("contactsdb=") else None
        return entry, exchange

    def stop(self):
        os.kill(self.process.pid, signal.SIGTERM)
        return self.process.wait(timeout=20)

    def request(self, method, path, headers=None, body=None, host=None, cookie=True):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        connection.putheader("Host", host or self.host)
        if cookie:
            connection.putheader("Cookie", f"contactsdb={self.token}")
        for name, value in (headers or {}).items():
            connection.putheader(name, value)
        data = body.encode() if isinstance(body, str) else body
        if data is not None:
            connection.putheader("Content-Length", str(len(data)))
        connection.endheaders(data)
        response = connection.getresponse()
        payload = response.read()
        connection.close()
        return response.status, dict(response.getheaders()), payload


def path_of(address):
    parts = urllib.parse.urlsplit(address)
    return f"{parts.path}?{parts.query}" if parts.query else parts.path


def png(width, height):
    """A PNG made here, a soft gradient: a photo for a thumbnail."""
    pixel = lambda x, y: bytes((90 + 120 * x // width, 130 + 60 * y // height, 200 - 80 * x // width))
    raw = b"".join(b"\x00" + b"".join(pixel(x, y) for x in range(width)) for y in range(height))
    chunk = lambda kind, data: struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def chromium_path():
    return os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"


def browser(playwright):
    return playwright.chromium.launch(executable_path=chromium_path(), args=["--no-sandbox"])


def wait_until(page, predicate, arg=None, timeout=10):
    """Polls a page function from here: the page's Content-Security-Policy
    forbids the eval that Playwright's own wait_for_function polls with."""
    deadline = time.time() + timeout
    while not page.evaluate(predicate, arg):
        if time.time() > deadline:
            raise AssertionError(f"not within {timeout} s: {predicate}")
        time.sleep(0.01)


def row(page, name):
    return page.locator("#list .row", has_text=name)


def expect_list(page, want):
    """Waits for the list to hold `want`'s count, then compares the names."""
    expect(page.locator("#summary")).to_have_text(f"{len(want):,} contact{'' if len(want) == 1 else 's'}")
    return shown_names(page) == want


def shown_names(page):
    """The names of the rows on screen, in order, favorites' stars dropped."""
    wait_until(page, "document.getElementById('list').getAttribute('aria-busy') === 'false'")
    return page.eval_on_selector_all(
        "#list .row:not(.loading) .name",
        "els => els.map(e => [Number(e.closest('.row').dataset.row), e.textContent.replace(/ ★$/, '')])"
        ".sort((a, b) => a[0] - b[0]).map(e => e[1])")


# MARK: - Security


def security_checks(server, cli):
    before = cli.count()
    (status, headers, _), (exchanged, cookie_headers, _) = server.sign_in()
    location = headers.get("Location", "")
    check(status == 303 and re.fullmatch(rf"http://contactsdb-[0-9a-f]{{32}}\.localhost:{server.port}/\?code=[0-9a-f]{{32}}", location),
          f"the machine's host trades the code for the app's host and a new code ({status} {location})")
    cookie = cookie_headers.get("Set-Cookie", "")
    check(exchanged == 303 and cookie_headers.get("Location") == "/", f"the app's host trades its code for a cookie ({exchanged})")
    check(re.fullmatch(r"contactsdb=[0-9a-f]{64}; Path=/; HttpOnly; SameSite=Strict", cookie),
          f"the cookie is the app's host's alone (no Domain), HttpOnly and SameSite=Strict: {cookie}")
    check(server.token not in location, "the token is in no address")
    # Each code opens once: a second use, at either host, is refused with the way to a new one.
    for host, path in [(server.machine, path_of(server.address())), (server.host, path_of(location))]:
        if host == server.machine:
            status, _, _ = server.request("GET", path, host=host, cookie=False)
            check(status == 303, f"a new address opens ({status})")
        status, _, body = server.request("GET", path, host=host, cookie=False)
        check(status == 401 and b"press Enter" in body, f"a code used once is refused at {host} ({status} {body!r})")
    status, _, _ = server.request("GET", "/api/list", cookie=False)
    check(status == 401, f"a request without the cookie is refused (got {status})")
    status, _, _ = server.request("GET", "/", cookie=False)
    check(status == 401, f"the page without the cookie is refused (got {status})")
    for host in [server.machine, server.host]:
        status, _, _ = server.request("GET", "/?code=" + "0" * 32, host=host, cookie=False)
        check(status == 401, f"a wrong code is refused at {host} (got {status})")
        status, _, _ = server.request("GET", "/?token=" + server.token, host=host, cookie=False)
        check(status == 401, f"the token in an address opens nothing at {host} (got {status})")
    status, _, _ = server.request("GET", "/api/list", headers={"Cookie": "contactsdb=wrong"}, cookie=False)
    check(status == 401, f"a wrong cookie is refused (got {status})")
    status, _, _ = server.request("GET", "/api/list", headers={"Cookie": f"contactsdb=0; contactsdb={server.token}"}, cookie=False)
    check(status == 200, f"a second cookie of the name signs no one out (got {status})")
    other_label = f"contactsdb-{'0' * 32}.localhost:{server.port}"
    for host in ["evil.example", f"evil.example:{server.port}", "127.0.0.1", f"127.0.0.2:{server.port}", server.machine,
                 f"localhost:{server.port}", other_label, server.host.split(":")[0]]:
        status, _, body = server.request("GET", "/api/list", host=host)
        check(status == 421 and b"\"contacts\"" not in body, f"Host {host} is refused (got {status})")

    victim = cli.ids("--name", "Anna")[0]
    contact = json.dumps({"firstName": "Mallory"})
    writes = [("POST", "/api/contact", contact), ("PATCH", f"/api/contact?id={victim}", contact),
              ("PATCH", f"/api/contact?id={victim}", json.dumps({"photo": None})),
              ("DELETE", f"/api/contact?id={victim}", None), ("POST", "/api/merge", json.dumps({"ids": [victim, victim]})),
              ("POST", f"/api/move?id={victim}&to=local", None), ("POST", "/api/link", json.dumps({"ids": [victim, victim]})),
              ("POST", f"/api/unlink?id={victim}", None), ("POST", "/api/trash/restore", json.dumps({"ids": [victim]})),
              ("POST", f"/api/history/restore?id={victim}&revision=1", None)]
    for method, path, body in writes:
        for origin in ["http://evil.example", f"http://localhost:{server.port}", f"http://{server.machine}", "null", None]:
            headers = {"Content-Type": "application/json"}
            if origin:
                headers["Origin"] = origin
            status, response_headers, _ = server.request(method, path, headers=headers, body=body)
            check(status == 403, f"{method} {path} from Origin {origin} is refused (got {status})")
            check(not any(h.lower().startswith("access-control") for h in response_headers),
                  "no CORS header on a refusal")
    status, _, _ = server.request("POST", "/api/contact", headers={"Origin": "http://evil.example"}, body=contact,
                                  host="evil.example")
    check(status == 421, f"a write to another Host is refused (got {status})")
    check(cli.count() == before, "nothing was written by the refused requests")
    check(cli.names("--name", "Mallory") == [], "no Mallory was added")
    anna = json.loads(cli.run("show", victim, "--format", "json").stdout)[0]
    check(anna["firstName"] == "Anna" and "photo" in anna, "Anna is unchanged, her photo too")

    status, headers, _ = server.request("GET", "/api/list", headers={"Origin": "http://evil.example"})
    check(status == 200 and not any(h.lower().startswith("access-control") for h in headers),
          f"a read answers with no CORS header: {headers}")
    check("default-src 'self'" in headers.get("Content-Security-Policy", ""), "the page loads from itself only")

    # The document carries its first answers; no name can close them early or run as script.
    eve = cli.run("add", "--first-name", "</script><!--<script>", "--last-name", "Eve").stdout.strip()
    status, headers, body = server.request("GET", "/")
    policy = headers.get("Content-Security-Policy", "")
    check(status == 200 and "script-src 'nonce-" in policy and "unsafe-inline" not in policy,
          f"the page's inline parts run by their nonce only: {policy}")
    preloaded = body.decode().split('id="preloaded">', 1)[1].split("</script>", 1)[0]
    answers = json.loads(preloaded)
    names = [item["name"] for item in answers["/api/list?sort=name&meta=1&offset=0&limit=100"]["contacts"]]
    check("</script><!--<script> Eve" in names and set(answers) == {"/api/list?sort=name&meta=1&offset=0&limit=100", "/api/info"},
          f"the document holds the first list page and the info, a name with markup whole: {names[-3:]}")
    cli.run("delete", eve)


# MARK: - What other local programs can do


class Neighbour:
    """A web server on another port of this machine, as any local program
    may run one, whose pages the signed-in browser opens: it logs each
    request's path, Host and Cookie, and its `/plant` page sets cookies of
    the app's names, by its headers (HttpOnly, as a server may) and by
    script, for every domain it may name, at `/` and at `/api` (which a
    browser sends first)."""

    def __init__(self, app_port):
        self.requests = []
        cookies = [f"{name}=0; Path={path}{domain}" for name in ["contactsdb", f"contactsdb-{app_port}"]
                   for path in ["/", "/api"] for domain in ["", "; Domain=localhost", "; Domain=.localhost", "; Domain=127.0.0.1"]]
        plant = "".join(f'document.cookie = "{cookie}";' for cookie in cookies)
        neighbour = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                neighbour.requests.append((self.path, self.headers.get("Host"), self.headers.get("Cookie")))
                script = plant + 'document.title = "planted";' if self.path == "/plant" else 'document.title = "looked";'
                body = f"<!doctype html><title>-</title><script>{script}</script>".encode()
                self.send_response(200)
                for cookie in cookies if self.path == "/plant" else []:
                    self.send_header("Set-Cookie", cookie + "; HttpOnly")
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        # Cookies are per host, whatever the port: the machine's names, and one of the app's kind.
        self.hosts = [f"127.0.0.1:{self.port}", f"localhost:{self.port}", f"elsewhere.localhost:{self.port}"]

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def signed_in_page(context, server):
    page = context.new_page()
    page.goto(server.address())
    expect(page.locator("#list .row").first).to_be_visible()
    return page


def cookie_attack_checks(chromium, server, neighbour):
    """A page on another local port neither receives the app's cookie nor
    signs the browser out by setting one of its name."""
    context = chromium.new_context()
    app = signed_in_page(context, server)
    page = context.new_page()
    for host in neighbour.hosts:
        page.goto(f"http://{host}/look")
        wait_until(page, "() => document.title === 'looked'")
    cookies = [cookie for _, _, cookie in neighbour.requests if cookie]
    check(len(neighbour.requests) >= len(neighbour.hosts) and not any(server.token in cookie for cookie in cookies),
          f"a page on another local port receives no cookie of the app: {neighbour.requests}")
    for host in neighbour.hosts:
        page.goto(f"http://{host}/plant")
        wait_until(page, "() => document.title === 'planted'")
    app.reload()
    expect(app.locator("#list .row").first).to_be_visible()
    status = app.evaluate("() => fetch('/api/info').then(r => r.status)")
    check(status == 200, f"the app stays signed in after pages on another port set cookies of its names (got {status})")
    context.close()


def photo_attack_checks(chromium, server, cli, folder, neighbour):
    """Photos whose bytes are a page, a script and an SVG, as cards may
    bring them: the page and the SVG would load the script from the app,
    which would retitle the document and go to the neighbour."""
    script = f'document.title = "ran"; location.href = "http://127.0.0.1:{neighbour.port}/ran";'
    photos = {"xss-page": ("text/html", '<!doctype html><title>p</title><script src="/api/photo?id=xss-script"></script>'),
              "xss-script": ("text/javascript", script),
              "xss-svg": ("image/svg+xml", '<svg xmlns="http://www.w3.org/2000/svg"><script href="/api/photo?id=xss-script"/></svg>')}
    cards = "".join(f"BEGIN:VCARD\r\nVERSION:4.0\r\nUID:{uid}\r\nFN:Photo {uid}\r\n"
                    f"PHOTO:data:{kind};base64,{base64.b64encode(text.encode()).decode()}\r\nEND:VCARD\r\n"
                    for uid, (kind, text) in photos.items())
    path = os.path.join(folder, "photos.vcf")
    with open(path, "w") as f:
        f.write(cards)
    cli.run("import", path)
    for uid in photos:
        status, headers, _ = server.request("GET", f"/api/photo?id={uid}")
        check(status == 200 and headers.get("Content-Type") == "application/octet-stream"
              and headers.get("Content-Disposition") == "attachment" and headers.get("X-Content-Type-Options") == "nosniff"
              and "sandbox" in headers.get("Content-Security-Policy", ""),
              f"a photo that is no image goes as a sandboxed download: {uid} {status} {headers}")
    anna = cli.ids("--name", "Anna")[0]
    for path in [f"/api/photo?id={anna}", f"/api/thumbnail?id={anna}"]:
        status, headers, _ = server.request("GET", path)
        check(status == 200 and headers.get("Content-Type") in ("image/png", "image/jpeg", "image/webp")
              and "Content-Disposition" not in headers and headers.get("X-Content-Type-Options") == "nosniff",
              f"a photo that is an image goes as its type: {path} {headers}")
    context = chromium.new_context()
    signed_in_page(context, server).close()
    for address in [f"{server.origin}/api/photo?id=xss-page", f"{server.origin}/api/photo?id=xss-svg",
                    f"http://{server.machine}/api/photo?id=xss-page"]:
        page = context.new_page()
        try:
            page.goto(address)
        except Exception:  # a download is no page
            pass
        time.sleep(0.5)
        check(page.title() != "ran" and not any(p.startswith("/ran") for p, _, _ in neighbour.requests),
              f"opening {address} runs nothing")
        page.close()
    context.close()
    cli.run("delete", *photos)


def history_checks(playwright, server, folder):
    """Signed in with a browser profile kept on disk, as a person's is: its
    history holds no address that opens the app again."""
    profile = os.path.join(folder, "profile")
    context = playwright.chromium.launch_persistent_context(profile, executable_path=chromium_path(), args=["--no-sandbox"])
    page = signed_in_page(context, server)
    page.reload()
    expect(page.locator("#list .row").first).to_be_visible()
    context.close()
    with sqlite3.connect(f"file:{os.path.join(profile, 'Default', 'History')}?mode=ro", uri=True) as history:
        urls = [url for (url,) in history.execute("SELECT url FROM urls")]
    check(any("code=" in url for url in urls), f"the history holds the addresses opened: {urls}")
    check(not any(server.token in url for url in urls), f"the history holds no token: {urls}")
    for url in urls:
        parts = urllib.parse.urlsplit(url)
        if parts.query:
            status, _, _ = server.request("GET", path_of(url), host=parts.netloc, cookie=False)
            check(status in (401, 421), f"{url} from the history opens nothing (got {status})")


def opener_checks(cli, folder):
    """`serve --open` hands the browser an address with a code, each time it
    prints one; the code opens the app once."""
    record, opener = os.path.join(folder, "opened"), os.path.join(folder, "opener")
    with open(opener, "w") as f:
        f.write(f"#!/bin/sh\nprintf '%s\\n' \"$@\" >> '{record}'\n")
    os.chmod(opener, 0o755)
    server = Server(cli, "--open", env={"BROWSER": opener})
    try:
        first, second = server.address(), server.address()
        deadline = time.time() + 10
        while time.time() < deadline and len(open(record).read().splitlines() if os.path.exists(record) else []) < 2:
            time.sleep(0.05)
        opened = open(record).read().splitlines() if os.path.exists(record) else []
        # Each opener is a process of its own: the second may write first.
        check(sorted(opened) == sorted([first, second]),
              f"the opener is given the address printed, and each new one: {opened} vs {[first, second]}")
        server.printed = first
        _, (status, headers, _) = server.sign_in()
        check(status == 303 and server.token and not any(server.token in argument for argument in opened),
              f"the code opened signs in, and no opener's argument holds the token ({status})")
        status, _, _ = server.request("GET", path_of(first), host=server.machine, cookie=False)
        check(status == 401, f"the opened address opens nothing a second time (got {status})")
    finally:
        server.stop()


# MARK: - The page


def page_checks(page, server, cli, folder, screenshot):
    asked = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(server.address())
    check(page.url == server.origin + "/", f"the code leaves the address bar: {page.url}")
    check(page.evaluate("document.cookie") == "", "no script can read the cookie")
    expected = cli.names()
    expect(page.locator("#list .row").first).to_be_visible()
    check(shown_names(page)[:len(expected)] == expected, f"the list is the sectioned order: {shown_names(page)}")
    check(any("/api/events" in url for url in asked) and not any("/api/list" in url or "/api/info" in url for url in asked),
          f"the first screen asks for nothing the document brought (but its changes): {asked}")
    headers = page.eval_on_selector_all("#list .section-header", "els => els.map(e => e.textContent)")
    sections = [line.split()[0] for line in cli.run("query", "--sections").stdout.splitlines()[1:]]
    check(sorted(headers) == sorted(sections), f"the list has a header per section: {headers} vs {sections}")
    index = page.eval_on_selector_all("#index button", "els => els.map(e => e.textContent)")
    check(index == sections, f"the section index lists the sections: {index}")
    photo = row(page, "Anna Müller").locator("img.avatar")
    expect(photo).to_be_visible()
    wait_until(page, "img => img.complete && img.naturalWidth > 0", photo.element_handle())
    check(photo.evaluate("img => img.naturalWidth") > 0, "a contact with a photo shows its thumbnail")
    check("thumbnail" in photo.get_attribute("src"), "the list reads thumbnails, not photos")
    if screenshot:
        page.set_viewport_size({"width": 1280, "height": 720})
        row(page, "Anna Müller").click()
        expect(page.locator("#detail img.photo")).to_be_visible()
        wait_until(page, "img => img.complete && img.naturalWidth > 0", page.locator("#detail img.photo").element_handle())
        page.screenshot(path=screenshot)
        page.set_viewport_size({"width": 1280, "height": 800})

    # The index jumps; the keyboard walks the rows.
    page.get_by_role("button", name="Jump to ㅎ").click()
    expect(row(page, "홍길동")).to_be_in_viewport()
    first = page.locator("#list .row").first
    first.focus()
    page.keyboard.press("ArrowDown")
    focused = page.evaluate("document.activeElement.dataset.row")
    check(focused is not None and int(focused) > int(first.get_attribute("data-row")), "ArrowDown moves to the next row")
    page.keyboard.press("Enter")
    expect(page.locator("#contact-name")).to_be_visible()

    # Filters: checkboxes that must all hold.
    page.get_by_role("button", name="Filters").click()
    page.get_by_role("checkbox", name="Telegram").check()
    page.get_by_role("checkbox", name="Phone").check()
    page.keyboard.press("Escape")
    want = cli.names("--has", "telegram", "--has", "phone")
    expect(page.locator("#summary")).to_have_text(f"{len(want)} contact{'s' if len(want) != 1 else ''}")
    check(shown_names(page) == want, f"filters: {shown_names(page)} vs {want}")
    page.get_by_role("button", name="Filters (2)").click()
    page.get_by_role("button", name="Clear").click()
    page.keyboard.press("Escape")
    expect(page.locator("#summary")).to_have_text(f"{len(expected)} contacts")

    # Sorts.
    page.get_by_role("button", name="Sort").click()
    page.get_by_role("radio", name="Last name").check()
    page.get_by_role("checkbox", name="Descending").check()
    page.get_by_role("button", name="Done").click()
    want = cli.names("--sort", "last-name:desc")
    wait_until(page, "n => document.querySelector('#list .row .name')?.textContent.startsWith(n)", want[0])
    check(shown_names(page) == want, f"sort last-name:desc: {shown_names(page)} vs {want}")
    check(page.locator("#index button").count() == 0, "only the sectioned order has an index")
    page.get_by_role("button", name="Sort").click()
    page.get_by_role("radio", name="Name (sections)").check()
    page.get_by_role("checkbox", name="Descending").uncheck()
    page.keyboard.press("Escape")

    # Search as you type: --text's matching.
    search = page.get_by_label("Search")
    search.click()
    search.press_sequentially("lindenb", delay=40)
    want = cli.names("--text", "lindenb")
    wait_until(page, "() => document.querySelectorAll('#list .row').length === 1")
    check(shown_names(page) == want, f"search: {shown_names(page)} vs {want}")
    search.fill("ㅎㄱㄷ")
    wait_until(page, "() => document.querySelector('#list .row .name')?.textContent.startsWith('홍길동')")
    check(shown_names(page) == cli.names("--text", "ㅎㄱㄷ"), "search by initial consonants")
    search.fill("")
    expect(page.locator("#summary")).to_have_text(f"{len(expected)} contacts")

    # Books, groups, favorites.
    cli.run("book", "create", "work")
    vera = cli.run("add", "--book", "work", "--first-name", "Vera", "--last-name", "Sokolova").stdout.strip()
    cli.run("group", "create", "Friends")
    friends = cli.ids("--name", "Ivan") + cli.ids("--name", "Éloïse")
    cli.run("group", "add", "Friends", *friends)
    cli.run("favorite", cli.ids("--name", "Anna")[0])
    page.reload()
    page.locator("#books button", has_text="work").click()
    check(expect_list(page, ["Vera Sokolova"]), f"the book work: {shown_names(page)}")
    page.locator("#groups button", has_text="Friends").click()
    want = cli.names("--group", "Friends")
    check(len(want) >= 2 and expect_list(page, want), f"the group: {shown_names(page)} vs {want}")
    page.get_by_role("button", name="Favorites", exact=True).click()
    want = cli.names("--favorite")
    check(len(want) == 1 and expect_list(page, want), f"favorites: {shown_names(page)} vs {want}")
    page.get_by_role("button", name="All contacts", exact=True).click()

    # A contact's page: every field, the photo.
    cli.run("update", vera, "--json", "-", stdin=json.dumps({
        "phones": [{"type": "work", "value": "+7 912 345-67-80"}], "emails": [{"type": "work", "value": "vera@work.example"}],
        "jobTitle": "Engineer", "note": "Met at the fair", "urls": [{"type": "home", "value": "https://vera.example"}]}))
    row(page, "Vera Sokolova").click()
    detail = page.locator("#detail")
    for text in ["Vera Sokolova", "+7 (912) 345-67-80", "vera@work.example", "Engineer", "Met at the fair",
                 "https://vera.example", "work"]:
        expect(detail).to_contain_text(text)
    row(page, "Anna Müller").click()
    expect(detail.get_by_role("img", name="Photo of Anna Müller")).to_be_visible()

    # Add: the error at its field, nothing written; the phone formatted as typed.
    form = page.locator("#editor")
    before = cli.count()
    page.get_by_role("button", name="Add contact").click()
    form.get_by_label("First name", exact=True).fill("Nina")
    phone = form.get_by_label("Phone", exact=True)
    phone.fill("12-34")
    page.get_by_role("button", name="Save").click()
    error = page.locator("#f-phones .item .error").first
    expect(error).to_contain_text("phones[0].value")
    check(phone.get_attribute("aria-invalid") == "true", "the phone field is marked invalid")
    check(cli.count() == before, "a refused form writes nothing")
    phone.fill("")
    phone.press_sequentially("89123456789", delay=30)
    expect(phone).to_have_value("8 912 345-67-89")
    form.get_by_label("Email", exact=True).fill("nina@example")
    page.get_by_role("button", name="Save").click()
    email_error = page.locator("#f-emails .item .error").first
    expect(email_error).to_contain_text("emails[0].value")
    check(cli.count() == before, "a refused email writes nothing")
    form.get_by_label("Email", exact=True).fill("nina@example.ru")
    form.get_by_label("Last name", exact=True).fill("  Орлова  ")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#editor")).not_to_be_visible()
    expect(page.locator("#contact-name")).to_have_text("Nina Орлова")
    nina = cli.ids("--name", "Nina")
    check(len(nina) == 1 and cli.count() == before + 1, "the form added one contact")
    stored = json.loads(cli.run("show", nina[0], "--format", "json").stdout)[0]
    check(stored["lastName"] == "Орлова" and stored["phones"][0]["value"] == "8 912 345-67-89",
          f"stored as the CLI would store it: {stored}")

    # The Korean number, formatted as typed in a database whose region is KR.
    cli.run("settings", "regions", "KR,RU")
    page.get_by_role("button", name="Add contact").click()
    phone = form.get_by_label("Phone", exact=True)
    phone.press_sequentially("0107", delay=30)
    expect(phone).to_have_value("010-7")
    phone.press_sequentially("1234567", delay=30)
    expect(phone).to_have_value("010-7123-4567")
    page.get_by_role("button", name="Cancel").click()
    shown = page.evaluate("window.contactsTimings.changesShown")
    cli.run("settings", "regions", "RU,KR")
    # Every contact was read again in the new regions: the page shows it.
    wait_until(page, f"window.contactsTimings.changesShown > {shown}")

    # Edit.
    page.get_by_role("button", name="Edit").click()
    form.get_by_label("Company", exact=True).fill("Nord")
    form.get_by_label("First name", exact=True).fill("")
    form.get_by_label("Last name", exact=True).fill("")
    form.get_by_label("Company", exact=True).fill("")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#edit-form .error:not(:empty)").first).to_contain_text(re.compile("name", re.I))
    form.get_by_label("First name", exact=True).fill("Nina")
    form.get_by_label("Company", exact=True).fill("Nord")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#detail")).to_contain_text("Nord")
    check(json.loads(cli.run("show", nina[0], "--format", "json").stdout)[0].get("company") == "Nord", "the edit is stored")

    # Delete: at once, as the trash keeps it (Undo is checked below).
    page.get_by_role("button", name="Delete").click()
    expect(page.locator("#detail")).to_contain_text("Deleted Nina")
    check(cli.run("show", nina[0], ok=False).returncode == 1, "the contact is deleted")
    expect(row(page, "Nina")).to_have_count(0)

    # Changes from another process appear without a reload.
    zed = cli.run("add", "--first-name", "Zed", "--last-name", "Outside").stdout.strip()
    expect(row(page, "Zed Outside")).to_be_visible(timeout=5000)
    row(page, "Zed Outside").click()
    cli.run("update", zed, "--company", "Elsewhere")
    expect(page.locator("#detail")).to_contain_text("Elsewhere", timeout=5000)
    cli.run("delete", zed)
    expect(row(page, "Zed Outside")).to_have_count(0, timeout=5000)
    expect(page.locator("#detail")).to_contain_text("no longer exists", timeout=5000)

    # Duplicates, merge, unmerge.
    twin = cli.run("add", "--first-name", "Ivan", "--last-name", "Petrov", "--phone", "+7 912 345-67-89").stdout.strip()
    count = cli.count()
    page.get_by_role("button", name="Duplicates").click()
    merge = page.get_by_role("button", name="Merge Иван Петров and Ivan Petrov").or_(
        page.get_by_role("button", name="Merge Ivan Petrov and Иван Петров"))
    expect(merge).to_be_visible()
    merge.click()
    expect(page.locator("#duplicates-status")).to_contain_text("Merged into")
    check(cli.count() == count - 1, "the merge left one contact")
    merges = json.loads(cli.run("merges", "--format", "json").stdout)
    check(len(merges) == 1, f"one merge recorded: {merges}")
    page.get_by_role("button", name=f"Unmerge merge {merges[0]['id']}").click()
    expect(page.locator("#duplicates-status")).to_contain_text("Restored")
    check(cli.count() == count, "the unmerge brought the contact back")
    page.get_by_role("button", name="Close").click()
    cli.run("delete", twin)

    # Across books a set is linked, not merged; a contact's page shows the link and unlinks.
    anna = cli.ids("--name", "Anna", "--book", "local")[0]
    other = cli.run("add", "--book", "work", "--first-name", "Anna", "--last-name", "Müller",
                    "--phone", "+49 1512 3456789").stdout.strip()
    people = lambda: json.loads(cli.run("query", "--unified", "--format", "json", "--name", "Anna").stdout)
    count = cli.count()
    page.get_by_role("button", name="Duplicates").click()
    page.get_by_role("button", name="Link Anna Müller and Anna Müller").click()
    expect(page.locator("#duplicates-status")).to_contain_text("Linked")
    check([sorted(person.get("ids", [])) for person in people()] == [sorted([anna, other])], f"linked: {people()}")
    check(cli.count() == count, "a link deletes no card")
    page.get_by_role("button", name="Close").click()
    page.locator(f"#list .row[data-id='{anna}']").click()
    page.locator("#detail").get_by_role("button", name="Anna Müller (work)").click()
    expect(page.locator("#detail")).to_contain_text(other)
    page.get_by_role("button", name="Unlink").click()
    expect(page.locator("#detail")).not_to_contain_text("Linked with")
    check(len(people()) == 2, f"unlinked: {people()}")
    cli.run("delete", other)

    # Every input, select and text area has a name a screen reader reads.
    page.get_by_role("button", name="Add contact").click()
    for button in page.locator("#edit-form .add-item").all():
        button.click()
    for dialog in ["#filters", "#sort"]:
        page.evaluate(f"document.querySelector('{dialog}').show()")
    unlabelled = page.evaluate("""() => [...document.querySelectorAll('input, select, textarea')]
        .filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label') && !e.getAttribute('aria-labelledby'))
        .map(e => e.outerHTML)""")
    check(unlabelled == [], f"every input is labelled: {unlabelled}")
    page.reload()

    # Pages load as the list scrolls.
    generated = os.path.join(folder, "more.json")
    with open(generated, "w") as f:
        f.write(cli.run("generate", "--contacts", "1500").stdout)
    cli.run("import", generated)
    page.reload()
    total = cli.count()
    expect(page.locator("#summary")).to_have_text(f"{total:,} contacts")
    check(page.locator("#list .row").count() < 200, "only the rows in view are in the document")
    last = cli.names()[-1]
    page.locator("#list").evaluate("list => list.scrollTop = list.scrollHeight")
    expect(row(page, last).first).to_be_visible()
    with page.expect_request(lambda request: "/api/list" in request.url and "meta" not in request.url) as fetched:
        page.locator("#list").evaluate("list => list.scrollTop = list.scrollHeight / 2")
    check("offset=" in fetched.value.url and "offset=0&" not in fetched.value.url, f"scrolling fetched a page: {fetched.value.url}")
    wait_until(page, "() => document.querySelector('#list .row') && !document.querySelector('#list .row.loading')")


# MARK: - The whole card and its photo


def stored(cli, id):
    """The contact as `contactsdb show` prints it, read by another process."""
    return json.loads(cli.run("show", id, "--format", "json").stdout)[0]


def typed_phone(page, phone, text):
    """Types a number and waits for the as-you-type formatter's answer:
    what the field then holds is what the form sends."""
    with page.expect_response(lambda response: "/api/phone-format" in response.url):
        phone.fill(text)
    page.wait_for_timeout(50)
    return phone.input_value()


def whole_card_checks(page, cli, folder):
    form = page.locator("#editor")
    first_photo, second_photo, not_a_photo = (os.path.join(folder, name) for name in ["one.png", "two.png", "notes.png"])
    with open(first_photo, "wb") as f:
        f.write(png(64, 64))
    with open(second_photo, "wb") as f:
        f.write(png(48, 32))
    with open(not_a_photo, "wb") as f:
        f.write(b"This is a text file named as a photo.\n")
    item = lambda key: form.locator(f"#f-{key} .item")

    def new_item(key, button, values):
        form.get_by_role("button", name=button, exact=True).click()
        for name, text in values.items():
            item(key).last.get_by_label(name, exact=True).fill(text)

    # Add: every field of the card, typed into the form, and a photo.
    page.get_by_role("button", name="Add contact").click()
    for name, text in [("Prefix", "Dr."), ("First name", "Mira"), ("Middle name", "Jo"), ("Last name", "Castell"),
                       ("Suffix", "PhD"), ("Nickname", "Mimi"), ("Name as written on the card", "Dr. Mira Jo Castell, PhD"),
                       ("Phonetic first name", "Meera"), ("Phonetic middle name", "Yo"), ("Phonetic last name", "Kastel"),
                       ("Company", "Nordlicht"), ("Department", "Research"), ("Job title", "Engineer"), ("Role", "Lead"),
                       ("Age", "37"), ("Note", "Met in Berlin.\nLikes tea."),
                       ("Other card properties (vCard lines, one per line)", "X-CUSTOM;TYPE=test:kept value")]:
        form.get_by_label(name, exact=True).fill(text)
    form.get_by_label("Birthday", exact=False).fill("1988-02-29")
    phone = item("phones").first
    phone.get_by_label("Phone label").fill("work")
    work_phone = typed_phone(page, phone.get_by_label("Phone", exact=True), "+49 30 1234567")
    phone.get_by_role("checkbox", name="Preferred phone").check()
    form.get_by_role("button", name="Add phone", exact=True).click()
    phone = item("phones").last
    phone.get_by_label("Phone label").fill("boat")
    boat_phone = typed_phone(page, phone.get_by_label("Phone", exact=True), "+7 912 000-11-22")
    email = item("emails").first
    email.get_by_label("Email label").fill("work")
    email.get_by_label("Email", exact=True).fill("mira@nordlicht.example")
    for key, button, values in [
        ("addresses", "Add address", {"Address label": "work", "Street": "Unter den Linden 5",
                                      "Street, second line": "Hof 2", "PO box": "1234", "City": "Berlin",
                                      "State or region": "Berlin", "Postcode": "10117", "Country": "Germany"}),
        ("messengers", "Add messenger", {"Messenger service": "signal", "Handle": "@mira"}),
        ("urls", "Add URL", {"URL label": "blog", "URL": "https://mira.example"}),
        ("socialProfiles", "Add social profile", {"Social profile service": "mastodon", "Handle": "@mira@social.example",
                                                  "Profile URL": "https://social.example/@mira"}),
        ("relations", "Add related person", {"Related person label": "spouse", "Name": "Tomas Castell"}),
        ("dates", "Add date", {"Date label": "anniversary", "Date (YYYY-MM-DD, or --MM-DD)": "--06-21"}),
    ]:
        new_item(key, button, values)
    form.get_by_role("checkbox", name="Friends").check()
    form.get_by_label("New group").fill("Climbing")
    form.get_by_role("checkbox", name="Favorite", exact=True).check()
    form.get_by_label("Photo file").set_input_files(first_photo)
    expect(form.locator("#photo-preview")).to_be_visible()
    page.get_by_role("button", name="Save").click()
    expect(form).not_to_be_visible()
    expect(page.locator("#contact-name")).to_have_text("Dr. Mira Jo Castell PhD ★")
    ids = cli.ids("--text", "Castell")
    check(len(ids) == 1, f"the form added one Mira Castell: {ids}")
    mira = ids[0]
    card = stored(cli, mira)
    want = {
        "namePrefix": "Dr.", "firstName": "Mira", "middleName": "Jo", "lastName": "Castell", "nameSuffix": "PhD",
        "nickname": "Mimi", "formattedName": "Dr. Mira Jo Castell, PhD", "phoneticFirstName": "Meera",
        "phoneticMiddleName": "Yo", "phoneticLastName": "Kastel", "company": "Nordlicht", "department": "Research",
        "jobTitle": "Engineer", "role": "Lead", "age": 37, "birthday": "1988-02-29", "note": "Met in Berlin.\nLikes tea.",
        "favorite": True, "groups": ["Climbing", "Friends"], "book": "local", "extra": ["X-CUSTOM;TYPE=test:kept value"],
        "emails": [{"type": "work", "value": "mira@nordlicht.example"}],
        "addresses": [{"type": "work", "street1": "Unter den Linden 5", "street2": "Hof 2", "city": "Berlin",
                       "state": "Berlin", "zipcode": "10117", "country": "Germany", "poBox": "1234"}],
        "messengers": [{"service": "signal", "handle": "@mira"}], "urls": [{"type": "blog", "value": "https://mira.example"}],
        "socialProfiles": [{"service": "mastodon", "handle": "@mira@social.example", "url": "https://social.example/@mira"}],
        "relations": [{"type": "spouse", "name": "Tomas Castell"}], "dates": [{"type": "anniversary", "value": "--06-21"}],
    }
    for key, value in want.items():
        check(card.get(key) == value, f"added {key}: {card.get(key)!r}, want {value!r}")
    phones = [{k: v for k, v in p.items() if k != "e164"} for p in card.get("phones", [])]
    check(phones == [{"type": "work", "value": work_phone, "preferred": True}, {"type": "boat", "value": boat_phone}],
          f"added phones: {phones}")
    with open(first_photo, "rb") as f:
        check(base64.b64decode(card.get("photo", {}).get("data", "")) == f.read(), "the photo stored is the file chosen")

    # The contact's page shows every field and the photo; the list its thumbnail.
    detail = page.locator("#detail")
    for text in ["Dr.", "Jo", "PhD", "Mimi", "Dr. Mira Jo Castell, PhD", "Meera", "Yo", "Kastel", "Nordlicht", "Research",
                 "Engineer", "Lead", "Phone (boat)", "preferred", "mira@nordlicht.example", "Unter den Linden 5",
                 "PO box 1234", "10117 Berlin", "Germany", "Messenger (signal)", "@mira", "https://mira.example",
                 "Social profile (mastodon)", "https://social.example/@mira", "Related person (spouse)", "Tomas Castell",
                 "1988-02-29", "37", "Date (anniversary)", "--06-21", "Likes tea.", "Climbing, Friends", "Favorite",
                 "local", "X-CUSTOM;TYPE=test:kept value"]:
        expect(detail).to_contain_text(text)
    check(detail.get_by_role("link", name="https://mira.example").get_attribute("href") == "https://mira.example",
          "a URL is a link")
    photo = detail.get_by_role("img", name="Photo of Dr. Mira Jo Castell PhD")
    expect(photo).to_be_visible()
    wait_until(page, "img => img.complete && img.naturalWidth === 64", photo.element_handle())
    search = page.get_by_label("Search")
    search.fill("Castell")
    thumbnail = row(page, "Dr. Mira Jo Castell PhD").locator("img.avatar")
    expect(thumbnail).to_be_visible()
    wait_until(page, "img => img.complete && img.naturalWidth > 0", thumbnail.element_handle())
    check("/api/thumbnail" in thumbnail.get_attribute("src"), "the list shows the new photo's thumbnail")

    # Edit: every field changed, cleared, added or removed; a new photo; a move to another book.
    page.get_by_role("button", name="Edit").click()
    form.get_by_label("Kind").select_option("organization")
    for name, text in [("Prefix", ""), ("Middle name", ""), ("Last name", "Castell-Ruiz"), ("Suffix", ""),
                       ("Nickname", "Mi"), ("Name as written on the card", ""), ("Phonetic first name", ""),
                       ("Phonetic middle name", "Jo"), ("Phonetic last name", "Kastel-Ruis"), ("Company", "Nordlicht GmbH"),
                       ("Department", "Lab"), ("Job title", "Director"), ("Role", ""), ("Age", ""),
                       ("Note", "Moved to Hamburg."),
                       ("Other card properties (vCard lines, one per line)", "X-CUSTOM;TYPE=test:changed\nX-OTHER:second")]:
        form.get_by_label(name, exact=True).fill(text)
    form.get_by_label("Birthday", exact=False).fill("--12-24")
    item("phones").first.get_by_role("button", name="Remove this phone").click()
    phone = item("phones").first
    phone.get_by_label("Phone label").fill("home")
    home_phone = typed_phone(page, phone.get_by_label("Phone", exact=True), "+7 912 000-33-44")
    item("emails").first.get_by_label("Email", exact=True).fill("mira@castell.example")
    item("emails").first.get_by_role("checkbox", name="Preferred email").check()
    item("addresses").first.get_by_label("City", exact=True).fill("Hamburg")
    item("addresses").first.get_by_label("PO box", exact=True).fill("")
    item("messengers").first.get_by_label("Messenger service").fill("telegram")
    item("messengers").first.get_by_label("Handle").fill("@mira_c")
    item("urls").first.get_by_role("button", name="Remove this URL").click()
    item("socialProfiles").first.get_by_label("Handle").fill("@mc@social.example")
    item("socialProfiles").first.get_by_label("Profile URL").fill("")
    new_item("relations", "Add related person", {"Related person label": "child", "Name": "Lena"})
    item("dates").first.get_by_label("Date (YYYY-MM-DD, or --MM-DD)").fill("2015-06-21")
    form.get_by_role("checkbox", name="Friends").uncheck()
    form.get_by_label("New group").fill("Sailing")
    form.get_by_role("checkbox", name="Favorite", exact=True).uncheck()
    form.get_by_label("Book").select_option("work")
    form.get_by_label("Photo file").set_input_files(second_photo)
    page.get_by_role("button", name="Save").click()
    expect(form).not_to_be_visible()
    # An organization shows as its company.
    expect(page.locator("#contact-name")).to_have_text("Nordlicht GmbH")
    card = stored(cli, mira)
    want.update({
        "kind": "organization", "namePrefix": None, "middleName": None, "lastName": "Castell-Ruiz", "nameSuffix": None,
        "nickname": "Mi", "formattedName": None, "phoneticFirstName": None, "phoneticMiddleName": "Jo",
        "phoneticLastName": "Kastel-Ruis", "company": "Nordlicht GmbH", "department": "Lab", "jobTitle": "Director",
        "role": None, "age": None, "birthday": "--12-24", "note": "Moved to Hamburg.", "favorite": False,
        "groups": ["Climbing", "Sailing"], "book": "work", "extra": ["X-CUSTOM;TYPE=test:changed", "X-OTHER:second"],
        "emails": [{"type": "work", "value": "mira@castell.example", "preferred": True}],
        "addresses": [{"type": "work", "street1": "Unter den Linden 5", "street2": "Hof 2", "city": "Hamburg",
                       "state": "Berlin", "zipcode": "10117", "country": "Germany"}],
        "messengers": [{"service": "telegram", "handle": "@mira_c"}], "urls": None,
        "socialProfiles": [{"service": "mastodon", "handle": "@mc@social.example", "url": ""}],
        "relations": [{"type": "spouse", "name": "Tomas Castell"}, {"type": "child", "name": "Lena"}],
        "dates": [{"type": "anniversary", "value": "2015-06-21"}],
    })
    for key, value in want.items():
        check(card.get(key) == value, f"edited {key}: {card.get(key)!r}, want {value!r}")
    phones = [{k: v for k, v in p.items() if k != "e164"} for p in card.get("phones", [])]
    check(phones == [{"type": "home", "value": home_phone}], f"edited phones: {phones}")
    with open(second_photo, "rb") as f:
        check(base64.b64decode(card.get("photo", {}).get("data", "")) == f.read(), "the photo is the second file")
    wait_until(page, "img => img.complete && img.naturalWidth === 48",
               page.locator("#detail img.photo").element_handle())

    # A file that is no photo: its error at the photo field, nothing written.
    revision = card["revision"]
    page.get_by_role("button", name="Edit").click()
    form.get_by_label("Nickname", exact=True).fill("Not saved")
    form.get_by_label("Photo file").set_input_files(not_a_photo)
    page.get_by_role("button", name="Save").click()
    error = form.locator("#photo-field .error")
    expect(error).to_contain_text("not an image")
    check(form.get_by_label("Photo file").get_attribute("aria-invalid") == "true", "the photo field is marked invalid")
    check(page.evaluate("document.activeElement.id") == "f-photo", "the photo field has the focus")
    check(stored(cli, mira)["revision"] == revision and stored(cli, mira)["nickname"] == "Mi",
          "a refused photo writes nothing, not even the form's other fields")
    # A file over the limit: as `photo set -` reads it, one byte more than the limit reaches the store
    # (14 MB of JSON, which a debug build on a loaded machine reads in more than 5 s).
    too_large = os.path.join(folder, "large.png")
    with open(too_large, "wb") as f:
        f.write(png(16, 16)[:-12] + bytes(11 << 20))
    form.get_by_label("Photo file").set_input_files(too_large)
    page.get_by_role("button", name="Save").click()
    expect(error).to_contain_text(f"has {(10 << 20) + 1} bytes, more than the {10 << 20}", timeout=30000)
    check(stored(cli, mira)["revision"] == revision, "a photo too large writes nothing")

    # Each error at its field, one after another, nothing written.
    form.get_by_label("Nickname", exact=True).fill("Mi")
    form.get_by_label("Photo file").set_input_files([])
    for field, bad, good, input_id, words in [
        (form.get_by_label("Birthday", exact=False), "1990-13-01", "--12-24", "f-birthday", "not a date"),
        (form.get_by_label("Age", exact=True), "old", "", "f-age", "whole number"),
        (item("messengers").first.get_by_label("Messenger service"), "icq", "telegram", None, "not a messenger service"),
        (item("dates").first.get_by_label("Date (YYYY-MM-DD, or --MM-DD)"), "21.06.2015", "2015-06-21", None, "not a date"),
        (item("emails").first.get_by_label("Email", exact=True), "mira@castell", "mira@castell.example", None, "not an email"),
        (form.get_by_label("Other card properties (vCard lines, one per line)"), "no colon here", "X-OTHER:second",
         "f-extra", "not a vCard content line"),
    ]:
        field.fill(bad)
        page.get_by_role("button", name="Save").click()
        message = field.locator("xpath=ancestor::*[contains(@class, 'item') or contains(@class, 'field')][1]").locator(".error")
        expect(message).to_contain_text(words)
        check(field.get_attribute("aria-invalid") == "true", f"{bad!r}: its field is marked invalid")
        if input_id:
            check(page.evaluate("document.activeElement.id") == input_id, f"{bad!r}: its field has the focus")
        check(stored(cli, mira)["revision"] == revision, f"{bad!r}: nothing written")
        field.fill(good)
        expect(message).to_be_empty()

    # Remove the photo in the form.
    form.get_by_role("checkbox", name="Remove the photo").check()
    expect(form.locator("#photo-preview")).to_be_hidden()
    page.get_by_role("button", name="Save").click()
    expect(form).not_to_be_visible()
    check("photo" not in stored(cli, mira) and cli.run("photo", "get", mira, ok=False).returncode == 1,
          "the form removed the photo")
    expect(page.locator("#detail img.photo")).to_have_count(0)
    expect(row(page, "Nordlicht GmbH").locator("img.avatar")).to_have_count(0)
    expect(row(page, "Nordlicht GmbH").locator("span.avatar")).to_have_text("N")

    # Again, a new URL and Enter to save by keyboard; then the page's "Remove photo".
    page.get_by_role("button", name="Edit").click()
    form.get_by_label("Photo file").set_input_files(first_photo)
    form.get_by_role("button", name="Add URL").focus()
    page.keyboard.press("Enter")
    check(page.evaluate("document.activeElement.closest('.item')?.parentElement.id") == "f-urls",
          "Enter on Add URL puts the focus in the new URL")
    page.keyboard.type("https://castell.example")
    form.get_by_label("Nickname", exact=True).focus()
    page.keyboard.press("Enter")
    expect(form).not_to_be_visible()
    card = stored(cli, mira)
    check(card.get("urls") == [{"type": "home", "value": "https://castell.example"}], f"a URL typed: {card.get('urls')}")
    check("photo" in card, "the photo is back")
    thumbnail = row(page, "Nordlicht GmbH").locator("img.avatar")
    expect(thumbnail).to_be_visible()
    wait_until(page, "img => img.complete && img.naturalWidth > 0", thumbnail.element_handle())
    page.get_by_role("button", name="Remove photo").click()
    expect(page.locator("#detail img.photo")).to_have_count(0)
    check("photo" not in stored(cli, mira), "the page's Remove photo removed it")
    expect(row(page, "Nordlicht GmbH").locator("img.avatar")).to_have_count(0)
    search.fill("")


def every_list_checks(page, cli):
    """Each list the card's form declares (`/api/info`'s `card`, made from the
    library's registries) has its fieldset, takes an entry typed into it, and
    stores it: a list added to the library is checked here with no edit."""
    card = page.evaluate("() => fetch('/api/info').then(r => r.json()).then(info => info.card)")
    lists = [section["list"] for section in card["sections"] if "list" in section and not section["list"]["lines"]]
    check(len(lists) >= 8, f"the form declares the card's lists: {[spec['key'] for spec in lists]}")
    typed = {"tel": "+49 30 9876543", "email": "every@list.example", "url": "https://list.example/entry"}
    form = page.locator("#editor")
    page.get_by_role("button", name="Add contact").click()
    form.get_by_label("First name", exact=True).fill("Listy")
    form.get_by_label("Last name", exact=True).fill("Everyfield")
    for spec in lists:
        noun = spec["noun"] if spec["noun"].isupper() else spec["noun"].lower()
        form.get_by_role("button", name=f"Add {noun}", exact=True).click()
        entry = form.locator(f"#f-{spec['key']} .item").last
        if spec["kind"]:
            caption = f"{spec['noun']} {'service' if spec['kind'] == 'service' else 'label'}"
            entry.get_by_label(caption, exact=True).fill(spec["kinds"][-1] if spec["kinds"] else "other")
        for part in spec["parts"]:
            entry.get_by_label(part["label"], exact=True).fill(typed.get(part["type"], "2001-02-03"))
    page.get_by_role("button", name="Save").click()
    expect(form).not_to_be_visible()
    ids = cli.ids("--text", "Everyfield")
    check(len(ids) == 1, f"the form added Listy Everyfield: {ids}")
    card_stored = stored(cli, ids[0])
    digits = lambda text: re.sub(r"\D", "", text)
    for spec in lists:
        entries = card_stored.get(spec["key"], [])
        check(len(entries) == 1, f"{spec['key']}: one entry stored, got {entries}")
        for part in spec["parts"] if entries else []:
            want, got = typed.get(part["type"], "2001-02-03"), entries[0].get(part["key"], "")
            same = digits(got) == digits(want) if part["type"] == "tel" else got == want
            check(same, f"{spec['key']}.{part['key']}: {got!r}, typed {want!r}")


def sync_checks(page, server, cli, folder):
    from davserver import running, tool
    if shutil.which(tool("radicale")) is None:
        message = "radicale not found: the sync check needs it (scripts/test installs it)"
        if os.environ.get("CONTACTSDB_REQUIRE_DAV"):
            check(False, message)
        else:
            print(f"skipped: {message}", file=sys.stderr)
        return
    with running("radicale", os.path.join(folder, "radicale"), "anna", PASSWORD) as dav:
        cli.run("book", "create", "dav")
        cli.run("add", "--book", "dav", "--first-name", "Dmitri", "--last-name", "Synced")
        secret = os.path.join(folder, "dav-password")
        with open(secret, "w") as f:
            f.write(PASSWORD)
        cli.run("remote", "add", "dav", dav["addressbook"], "--username", "anna", "--password-file", secret)
        page.reload()
        page.get_by_role("button", name="Sync", exact=True).click()
        remote = page.locator("#remote-list li[data-remote='dav']")
        expect(remote).to_contain_text("last sync: never")
        page.get_by_role("button", name="Sync dav now").click()
        expect(page.locator("#sync-status")).to_contain_text("pushed 1 new", timeout=60000)
        expect(remote).not_to_contain_text("never")
        page.get_by_role("button", name="Close").click()
        # No credential reaches the page: not in any answer it can read.
        for path in ["/api/info", "/"]:
            status, _, body = server.request("GET", path)
            check(status == 200 and PASSWORD.encode() not in body and b"dav-password" not in body,
                  f"{path} holds no credential")
        status, _, body = server.request("GET", "/api/info")
        remotes = json.loads(body)["remotes"]
        check(remotes and set(remotes[0]) == {"name", "url", "lastSyncedAt"}, f"a remote shows name, URL, last sync: {remotes}")
        check(remotes[0]["lastSyncedAt"], "the last sync is known after sync now")


# MARK: - Nothing lost: Undo, the trash, a contact's history


def trash_json(cli):
    return json.loads(cli.run("trash", "--format", "json").stdout)


def undo_checks(page, server, cli):
    """A delete in the page is undone by the bar's Undo: the contact is
    back at its place in the list, and for every other process."""
    ids = [cli.run("add", "--first-name", first, "--last-name", "Trashcan").stdout.strip() for first in ["Alma", "Berta", "Cora"]]
    search = page.get_by_label("Search")
    search.fill("Trashcan")
    wait_until(page, "() => document.querySelectorAll('#list .row:not(.loading)').length === 3")
    before = shown_names(page)
    row(page, "Berta Trashcan").click()
    expect(page.locator("#contact-name")).to_have_text("Berta Trashcan")
    page.get_by_role("button", name="Delete").click()
    toast = page.locator("#toast")
    expect(toast).to_contain_text("Deleted Berta Trashcan.")
    expect(row(page, "Berta Trashcan")).to_have_count(0)
    check(cli.run("show", ids[1], ok=False).returncode == 1, "the page deleted the contact")
    trashed = [entry for entry in trash_json(cli) if entry["id"] == ids[1]]
    check(len(trashed) == 1 and trashed[0]["by"] == "web", f"the trash holds it, deleted by web: {trashed}")
    status, _, body = server.request("GET", "/api/trash")
    check(status == 200 and json.loads(body) == trash_json(cli), f"/api/trash is `trash --format json` ({status} {body[:200]!r})")
    toast.get_by_role("button", name="Undo deleting Berta Trashcan").click()
    expect(toast).to_be_hidden()
    expect(page.locator("#contact-name")).to_have_text("Berta Trashcan")
    wait_until(page, "() => document.querySelectorAll('#list .row:not(.loading)').length === 3")
    check(shown_names(page) == before, f"Undo put it back at its place: {shown_names(page)} vs {before}")
    check(stored(cli, ids[1])["lastName"] == "Trashcan", "another process sees it back")
    check(all(entry["id"] != ids[1] for entry in trash_json(cli)), "the trash no longer lists it")
    # The bar goes by itself after a few seconds.
    row(page, "Cora Trashcan").click()
    page.get_by_role("button", name="Delete").click()
    expect(toast).to_be_visible()
    expect(toast).to_be_hidden(timeout=12000)
    check(cli.run("show", ids[2], ok=False).returncode == 1, "without Undo the delete stands")
    search.fill("")
    return ids


def trash_view_checks(page, server, cli, folder):
    """A contact with a photo and groups, deleted in the page and restored
    from the Trash view, is the same card to the byte; an id in use again
    is refused with a sentence and offered as new."""
    cli.run("group", "create", "Keepers")
    photo = os.path.join(folder, "kept.png")
    with open(photo, "wb") as f:
        f.write(png(40, 40))
    kept = cli.run("add", "--first-name", "Greta", "--last-name", "Bin", "--company", "Recycling AG",
                   "--phone", "+49 30 7654321").stdout.strip()
    cli.run("photo", "set", kept, photo)
    cli.run("group", "create", "Hoarders")
    cli.run("group", "add", "Keepers", kept)
    cli.run("group", "add", "Hoarders", kept)
    exported = lambda: cli.run("export", "--id", kept, "--format", "vcard").stdout
    as_json = lambda: json.loads(cli.run("export", "--id", kept, "--format", "json").stdout)[0]
    before, before_json = exported(), as_json()
    check("PHOTO" in before and "Keepers" in before, f"the card holds its photo and groups: {before[:200]}")
    search = page.get_by_label("Search")
    search.fill("Greta Bin")
    row(page, "Greta Bin").click()
    page.get_by_role("button", name="Delete").click()
    expect(page.locator("#toast")).to_contain_text("Deleted Greta Bin.")
    page.get_by_role("button", name="Trash").click()
    dialog = page.locator("#trash")
    listed = dialog.get_by_role("list", name="Deleted contacts").locator("li")
    expect(listed.first).to_contain_text("Greta Bin")
    names = listed.locator("strong").all_text_contents()
    want = [entry["name"] for entry in trash_json(cli)]
    check(names == want, f"the Trash view lists newest first, as `trash`: {names} vs {want}")
    expect(listed.first).to_contain_text("local · deleted")
    expect(listed.first).to_contain_text("by this app")
    dialog.get_by_role("button", name="Restore Greta Bin").click()
    expect(page.locator("#trash-status")).to_contain_text("Restored Greta Bin.")
    expect(listed.filter(has_text="Greta Bin")).to_have_count(0)
    after, after_json = exported(), as_json()
    check(after == before, f"restored to the byte (photo, groups and all):\n{before}\n---\n{after}")
    # A restore is a new change: the revision alone moves on.
    check(after_json.pop("revision") > before_json.pop("revision") and after_json == before_json,
          f"the JSON export is the same but for the revision: {before_json} vs {after_json}")
    page.get_by_role("button", name="Close").click()
    expect(row(page, "Greta Bin")).to_be_visible()

    # Its id given to another contact: refused with one sentence, offered as new.
    cli.run("delete", kept)
    cli.run("add", "--json", "-", stdin=json.dumps({"id": kept, "firstName": "Usurper"}))
    count = cli.count()
    page.get_by_role("button", name="Trash").click()
    dialog.get_by_role("button", name="Restore Greta Bin").click()
    expect(page.locator("#trash-status")).to_contain_text(f"Another contact has the id \"{kept}\" now")
    check(cli.count() == count, "a refused restore writes nothing")
    status, _, body = server.request("POST", "/api/trash/restore", headers={"Origin": server.origin},
                                     body=json.dumps({"ids": [kept]}))
    check(status == 409 and json.loads(body)["error"].count(".") == 1, f"an id in use is a conflict, one sentence ({status} {body!r})")
    dialog.get_by_role("button", name="Restore Greta Bin as a new contact").click()
    expect(page.locator("#trash-status")).to_contain_text("Restored Greta Bin.")
    check(cli.count() == count + 1 and len(cli.ids("--name", "Greta")) == 1, "restored as a new contact beside the other")
    page.get_by_role("button", name="Close").click()
    search.fill("")


def contact_history_checks(page, server, cli):
    """Two edits in the page, then its first version restored from the
    contact's History: the field is back, as a new update."""
    id = cli.run("add", "--first-name", "Hedda", "--last-name", "Verso", "--company", "First Light").stdout.strip()
    form = page.locator("#editor")
    page.get_by_label("Search").fill("Hedda")
    row(page, "Hedda Verso").click()
    for company in ["Second Wind", "Third Eye"]:
        page.get_by_role("button", name="Edit").click()
        form.get_by_label("Company", exact=True).fill(company)
        page.get_by_role("button", name="Save").click()
        expect(page.locator("#detail dl").first).to_contain_text(company)
    versions = page.get_by_role("list", name="Versions").locator("li")
    expect(versions).to_have_count(3)
    expect(versions.first).to_contain_text("(current)")
    expect(versions.first).to_contain_text("this app")
    expect(versions.first).to_contain_text("Company")
    history = json.loads(cli.run("history", id, "--format", "json").stdout)
    check([v["by"] for v in history] == ["web", "web", "add"], f"the page's edits are by web: {history}")
    status, _, body = server.request("GET", f"/api/history?id={id}")
    check(status == 200 and json.loads(body) == history, f"/api/history is `history --format json` ({status})")
    first = history[-1]["revision"]
    status, _, body = server.request("GET", f"/api/history/version?id={id}&revision={first}")
    check(status == 200 and json.loads(body)["contact"].get("company") == "First Light",
          f"/api/history/version shows the contact as it was ({status} {body[:120]!r})")
    oldest = versions.last
    oldest.locator("summary").click()
    expect(oldest.locator("dl")).to_contain_text("First Light")
    oldest.get_by_role("button", name=f"Restore revision {first}").click()
    expect(page.locator("#detail dl").first).to_contain_text("First Light")
    expect(versions).to_have_count(4)
    expect(versions.first).to_contain_text("restored")
    check(stored(cli, id).get("company") == "First Light", "the first version is the contact again")
    history = json.loads(cli.run("history", id, "--format", "json").stdout)
    check([v["by"] for v in history] == ["restore", "web", "web", "add"] and "company" in history[0]["fields"],
          f"the restore is a new update in the history: {history}")
    status, _, body = server.request("POST", f"/api/history/restore?id={id}&revision=1", headers={"Origin": server.origin})
    check(status == 404 and "holds no revision 1" in json.loads(body)["error"], f"a revision not kept is a 404 ({status} {body!r})")
    page.get_by_label("Search").fill("")


def keeps_nothing_checks(chromium, binary, folder):
    """With `trash-days 0` the Trash view says it keeps nothing, and a
    delete asks first and offers no Undo."""
    cli = CLI(binary, os.path.join(folder, "keeps-nothing.sqlite"))
    cli.run("init")
    cli.run("settings", "trash-days", "0")
    server = Server(cli)
    try:
        page = chromium.new_page(viewport={"width": 1280, "height": 800}, locale="en-US")
        page.goto(server.address())
        page.get_by_role("button", name="Trash").click()
        expect(page.locator("#trash-days")).to_contain_text("The trash keeps nothing")
        expect(page.locator("#trash-status")).to_have_text("The trash is empty.")
        page.get_by_role("button", name="Close").click()
        asked = []
        page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
        row(page, "John Smith").click()
        page.get_by_role("button", name="Delete").click()
        expect(page.locator("#detail")).to_contain_text("Deleted John Smith")
        check(asked and "cannot be undone" in asked[0], f"a delete that cannot be undone asks first: {asked}")
        expect(page.locator("#toast")).to_be_hidden()
        check(trash_json(cli) == [] and cli.names("--name", "John") == [], "deleted for good, nothing in the trash")
        page.close()
    finally:
        server.stop()


# MARK: - The birthday calendar


def calendar_checks(page, server, cli, chromium):
    """The feed, opened by its own token only, fetched by chromium; the
    upcoming birthdays view."""
    import datetime
    today = datetime.date.today()
    cli.run("book", "create", "calendar")
    cli.run("add", "--book", "calendar", "--first-name", "Cal", "--last-name", "Endar, Jr.", "--birthday",
            today.isoformat())
    later = (today + datetime.timedelta(days=3)).strftime("--%m-%d")
    cli.run("add", "--first-name", "Yearless", "--last-name", "Ли", "--birthday=" + later)
    feed = cli.run("serve", "--feed-url").stdout.strip()
    machine = f"http://{server.machine}"
    path = feed.removeprefix(machine)
    check(re.fullmatch(r"/calendar/[0-9a-f]{64}/birthdays\.ics", path) is not None,
          f"serve --feed-url names this server's port and the feed: {feed}")
    status, headers, body = server.request("GET", path, host=server.machine, cookie=False)
    check(status == 200 and headers.get("Content-Type", "").startswith("text/calendar")
          and body.startswith(b"BEGIN:VCALENDAR\r\n") and "SUMMARY:Cal Endar\\, Jr. (".encode() in body,
          f"the feed opens with its token and no cookie (got {status}, {body[:80]!r})")
    status, _, body = server.request("GET", path + "?book=calendar", host=server.machine, cookie=False)
    check(status == 200 and b"Cal Endar" in body and b"Yearless" not in body, f"?book= narrows the feed ({status})")
    token = path.split("/")[2]
    refusals = [("/calendar/" + "0" * 64 + "/birthdays.ics", False), ("/calendar/" + server.token + "/birthdays.ics", True),
                ("/calendar/birthdays.ics", True), (path + "/../../api/list", True), ("/calendar/" + token + "/other.ics", True)]
    for refused, cookie in refusals:
        status, _, body = server.request("GET", refused, host=server.machine, cookie=cookie)
        check(status == 404 and b"Cal" not in body, f"{refused} (cookie: {cookie}) is a bare 404 (got {status} {body[:60]!r})")
    # At the app's host the feed's path keeps the app's rules: no cookie, nothing.
    status, _, body = server.request("GET", path, cookie=False)
    check(status == 401 and b"Cal" not in body, f"the app's host asks the feed for its cookie (got {status})")
    status, _, _ = server.request("GET", path, host="evil.example", cookie=False)
    check(status == 421, f"the feed keeps the Host check (got {status})")
    for opened in ["/api/list", "/api/info", "/"]:
        status, _, _ = server.request("GET", opened, headers={"Cookie": f"contactsdb={token}"}, cookie=False)
        check(status == 401, f"the feed token opens nothing else: {opened} got {status}")
    status, _, _ = server.request("GET", "/?code=" + token, host=server.machine, cookie=False)
    check(status == 401, f"the feed token is no code that opens the app (got {status})")
    status, _, _ = server.request("POST", path, headers={"Origin": server.origin}, body="x", host=server.machine, cookie=False)
    check(status in (403, 404), f"the feed takes no write (got {status})")

    # Chromium, with no cookie at all, fetches the feed as a calendar app would.
    context = chromium.new_context()
    reader = context.new_page()
    with reader.expect_download() as download:
        try:
            reader.goto(feed)
        except Exception:
            pass  # a calendar is downloaded, not shown: navigation ends there
    fetched = open(download.value.path(), "rb").read()
    check(fetched.startswith(b"BEGIN:VCALENDAR") and b"Cal Endar" in fetched, f"chromium fetched the feed: {fetched[:60]!r}")
    wrong = machine + "/calendar/" + "f" * 64 + "/birthdays.ics"
    with reader.expect_response(wrong) as answer:
        try:
            reader.goto(wrong)
        except Exception:
            pass  # chromium ends the navigation of a bare 404 in an error page
    check(answer.value.status == 404, f"chromium gets 404 for a wrong token (got {answer.value.status})")
    context.close()

    # The app's page: its cookie, a wrong token, and the view.
    status = page.evaluate("p => fetch(p).then(r => r.status)", "/calendar/" + "0" * 64 + "/birthdays.ics")
    check(status == 404, f"the page's cookie does not open the feed without its token (got {status})")
    renewed = cli.run("serve", "--new-feed-token").stdout.strip()
    status, _, _ = server.request("GET", path, host=server.machine, cookie=False)
    check(renewed != feed and status == 404, f"a replaced token stops working at once (got {status})")
    status, _, _ = server.request("GET", renewed.removeprefix(machine), host=server.machine, cookie=False)
    check(status == 200, f"the new token opens the feed (got {status})")
    page.get_by_role("button", name="Birthdays").click()
    days = page.get_by_role("list", name="Upcoming birthdays")
    expect(days).to_contain_text(f"{today.isoformat()} Cal Endar, Jr.: birthday")
    expect(days).to_contain_text(f"{(today + datetime.timedelta(days=3)).isoformat()} Yearless Ли: birthday")
    expect(page.get_by_label("Calendar address")).to_have_value(renewed)
    page.get_by_role("button", name="Close").click()


# MARK: - Figures


def figures(binary, contacts, runs, database=None):
    with tempfile.TemporaryDirectory(prefix="contactsdb-web-figures-") as folder:
        cli = CLI(binary, database or os.path.join(folder, "contacts.sqlite"))
        if database is None:
            cli.run("init", "--no-seed")
            generated = os.path.join(folder, "generated.json")
            with open(generated, "w") as f:
                f.write(cli.run("generate", "--contacts", str(contacts)).stdout)
            started = time.time()
            cli.run("import", generated)
            print(f"imported {cli.count():,} contacts in {time.time() - started:.1f} s", file=sys.stderr)
        contacts = cli.count()
        server = Server(cli)
        try:
            with sync_playwright() as playwright:
                chromium = browser(playwright)
                firsts, keystrokes = [], []
                for _ in range(runs):
                    page = chromium.new_page(viewport={"width": 1280, "height": 800}, locale="en-US")
                    page.goto(server.address())
                    wait_until(page, "window.contactsTimings.firstScreen !== null")
                    firsts.append(page.evaluate("window.contactsTimings.firstScreen"))
                    search = page.get_by_label("Search")
                    for word in ["anna", "ivan", "call", "smith", "петров", "kim"]:
                        search.fill("")
                        wait_until(page, "document.getElementById('list').getAttribute('aria-busy') === 'false'")
                        count = page.evaluate("window.contactsTimings.keystrokes.length")
                        for letter in word:
                            search.press_sequentially(letter)
                            count += 1
                            wait_until(page, f"window.contactsTimings.keystrokes.length >= {count}")
                    keystrokes += page.evaluate("window.contactsTimings.keystrokes")
                    page.close()
                chromium.close()
        finally:
            server.stop()
        keystrokes.sort()
        p = lambda q: keystrokes[min(len(keystrokes) - 1, int(q * len(keystrokes)))]
        print(f"contacts: {contacts:,}")
        print(f"first screen (navigation to the first rows drawn), {runs} runs: median {statistics.median(firsts):.0f} ms, "
              f"max {max(firsts):.0f} ms")
        print(f"keystroke to results drawn, {len(keystrokes)} keystrokes: median {statistics.median(keystrokes):.1f} ms, "
              f"p90 {p(0.9):.1f} ms, max {keystrokes[-1]:.1f} ms")


def main(argv):
    if not argv:
        sys.exit(__doc__)
    binary = os.path.abspath(argv[0])
    if "--figures" in argv:
        runs = int(argv[argv.index("--runs") + 1]) if "--runs" in argv else 3
        database = os.path.abspath(argv[argv.index("--db") + 1]) if "--db" in argv else None
        figures(binary, int(argv[argv.index("--figures") + 1]), runs, database)
        return
    screenshot = os.path.abspath(argv[argv.index("--screenshot") + 1]) if "--screenshot" in argv else None
    with tempfile.TemporaryDirectory(prefix="contactsdb-web-") as folder:
        cli = CLI(binary, os.path.join(folder, "contacts.sqlite"))
        cli.run("init")
        photo = os.path.join(folder, "photo.png")
        with open(photo, "wb") as f:
            f.write(png(160, 160))
        cli.run("photo", "set", cli.ids("--name", "Anna")[0], photo)
        server = Server(cli)
        # Used after the checks below, which take over a minute: past its time.
        stale, stale_since = server.address(), time.monotonic()
        neighbour = Neighbour(server.port)
        try:
            security_checks(server, cli)
            with sync_playwright() as playwright:
                chromium = browser(playwright)
                cookie_attack_checks(chromium, server, neighbour)
                photo_attack_checks(chromium, server, cli, folder, neighbour)
                history_checks(playwright, server, folder)
                page = chromium.new_page(viewport={"width": 1280, "height": 800}, locale="en-US")
                page.set_default_timeout(10000)
                page_checks(page, server, cli, folder, screenshot)
                whole_card_checks(page, cli, folder)
                every_list_checks(page, cli)
                undo_checks(page, server, cli)
                trash_view_checks(page, server, cli, folder)
                contact_history_checks(page, server, cli)
                keeps_nothing_checks(chromium, binary, folder)
                sync_checks(page, server, cli, folder)
                calendar_checks(page, server, cli, chromium)
                chromium.close()
            opener_checks(cli, folder)
            time.sleep(max(0, 61 - (time.monotonic() - stale_since)))
            status, _, body = server.request("GET", path_of(stale), host=server.machine, cookie=False)
            check(status == 401 and b"press Enter" in body, f"an address unused for a minute opens nothing (got {status})")
        finally:
            neighbour.stop()
            code = server.stop()
            check(code == 0, f"serve exits 0 on SIGTERM (got {code})")
    if FAILURES:
        sys.exit(f"{len(FAILURES)} check(s) failed")
    print("web app: every check passed")


if __name__ == "__main__":
    main(sys.argv[1:])
