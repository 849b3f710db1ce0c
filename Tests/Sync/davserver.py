#!/usr/bin/env python3
"""Starts a real CardDAV server on 127.0.0.1 for the sync tests, and stops it.

  davserver.py start radicale|xandikos|cyrus|davical DIR [--user U --password P]
      starts the server with its data in DIR, on a free port, with one
      empty address book; prints {"pid", "port", "root", "addressbook"} as
      JSON and exits, leaving the server running in its own session.
      Radicale checks the password (a plain htpasswd file); Xandikos takes
      no credentials; Cyrus IMAP (Debian's cyrus-imapd and cyrus-caldav,
      the server Fastmail runs) checks it in a sasldb of its own;
      DAViCal (Debian's `davical`) checks it, served by
      PHP's own server from a PostgreSQL cluster in DIR (davical.py).
  davserver.py mkcol URL USER PASSWORD NAME
      makes another address book at URL, displayed as NAME.
  davserver.py move FROM TO USER PASSWORD
      moves a card to another href as some servers do: GET, PUT at TO, DELETE.
  davserver.py vdirsyncer URL USER PASSWORD DIR
      writes DIR/vdirsyncer.conf, pairing the address book at URL with the
      folder DIR/cards of .vcf files (a second device), and prints its path.
  davserver.py forget-tokens DIR
      makes the DAViCal of DIR forget every sync-token it gave, as it does
      of those older than a week.
  davserver.py stop PID
      stops the server with that pid, and the processes it started (and
      DAViCal's PostgreSQL), and waits for it.

Run with the Python whose bin/ holds radicale and xandikos (.ci/run makes
one in .build-python).
"""
import base64
import contextlib
import davical
import imaplib
import json
import os
import pwd
import signal
import socket
import stat
import subprocess
import sys
import time
import urllib.request

MKCOL = """<?xml version="1.0" encoding="utf-8"?>
<d:mkcol xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:carddav"><d:set><d:prop>
<d:resourcetype><d:collection/><c:addressbook/></d:resourcetype><d:displayname>{}</d:displayname>
</d:prop></d:set></d:mkcol>"""


def command_line(usage, **defaults):
    """The binary named first on the command line, then each `--name N`
    option of `defaults` in their order, as integers; the usage text when
    there is no binary."""
    args = sys.argv[1:]
    if not args:
        sys.exit(usage)
    option = lambda name, default: int(args[args.index("--" + name) + 1]) if "--" + name in args else default
    return (os.path.abspath(args[0]), *(option(name, default) for name, default in defaults.items()))


def option_text(name, default):
    """The word after `--name` on the command line, or `default`."""
    args = sys.argv[1:]
    return args[args.index("--" + name) + 1] if "--" + name in args else default


def killed(command, delay, env=None):
    """Runs the command and kills it with SIGKILL after `delay` seconds;
    True if it ended first. A command that ends with a failure ends the
    script, naming it."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    try:
        process.wait(timeout=delay)
        if process.returncode != 0:
            sys.exit(f"{' '.join(command[:4])} exited {process.returncode}: {process.stderr.read().decode()}")
        return True
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGKILL)
        process.wait()
        return False


def mkcol(url, user, password, name):
    status = request("MKCOL", url, user, password, MKCOL.format(name).encode())
    if status != 201:
        sys.exit(f"MKCOL {url} answered {status}")


def move(source, target, user, password):
    token = base64.b64encode(f"{user}:{password}".encode()).decode()
    get = urllib.request.Request(source, headers={"Authorization": "Basic " + token})
    with urllib.request.urlopen(get, timeout=10) as response:
        card = response.read()
    if request("PUT", target, user, password, card, "text/vcard; charset=utf-8") not in (201, 204):
        sys.exit(f"PUT {target} failed")
    if request("DELETE", source, user, password) not in (200, 204):
        sys.exit(f"DELETE {source} failed")


def vdirsyncer_config(url, user, password, folder):
    os.makedirs(os.path.join(folder, "cards"), exist_ok=True)
    config = os.path.join(folder, "vdirsyncer.conf")
    with open(config, "w") as f:
        f.write(f"""[general]
status_path = "{folder}/status/"
[pair contacts]
a = "server"
b = "folder"
collections = null
conflict_resolution = "a wins"
[storage server]
type = "carddav"
url = "{url}"
username = "{user}"
password = "{password}"
[storage folder]
type = "filesystem"
path = "{folder}/cards/"
fileext = ".vcf"
""")
    return config


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tool(name):
    path = os.path.join(os.path.dirname(sys.executable), name)
    return path if os.path.exists(path) else name


def request(method, url, user, password, body=None, content_type="application/xml"):
    req = urllib.request.Request(url, data=body, method=method)
    if user is not None:
        token = base64.b64encode(f"{user}:{password}".encode()).decode()
        req.add_header("Authorization", "Basic " + token)
    if body is not None:
        req.add_header("Content-Type", content_type)
    try:
        with urllib.request.urlopen(req, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def wait_for(port, process, log):
    deadline = time.time() + 30
    while time.time() < deadline:
        if process.poll() is not None:
            sys.exit(f"the server exited at start:\n{open(log).read()}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    sys.exit("the server did not answer within 30 s")


def start(kind, folder, user, password):
    os.makedirs(folder, exist_ok=True)
    port = free_port()
    log = os.path.join(folder, "server.log")
    if kind == "cyrus":
        return start_cyrus(folder, port, user, password, log)
    if kind == "davical":
        return davical.start(folder, port, user, password, log, wait_for)
    if kind == "radicale":
        users = os.path.join(folder, "users")
        with open(users, "w") as f:
            f.write(f"{user}:{password}\n")
        config = os.path.join(folder, "config")
        with open(config, "w") as f:
            f.write(f"""[server]
hosts = 127.0.0.1:{port}
[auth]
type = htpasswd
htpasswd_filename = {users}
htpasswd_encryption = plain
delay = 0
[rights]
type = owner_only
[storage]
filesystem_folder = {os.path.join(folder, "collections")}
[logging]
level = info
""")
        command = [tool("radicale"), "--config", config]
    elif kind == "xandikos":
        command = [tool("xandikos"), "serve", "--defaults", "-d", os.path.join(folder, "data"),
                   "-l", "127.0.0.1", "-p", str(port)]
    else:
        sys.exit(f"unknown server {kind}")
    with open(log, "w") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                   start_new_session=True)
    wait_for(port, process, log)
    root = f"http://127.0.0.1:{port}/"
    if kind == "radicale":
        addressbook = f"{root}{user}/contacts/"
        mkcol(addressbook, user, password, "Contacts")
    else:
        addressbook = f"{root}user/contacts/addressbook/"
    return {"pid": process.pid, "port": port, "root": root, "addressbook": addressbook}


CYRUS = "/usr/lib/cyrus/bin"


def start_cyrus(folder, port, user, password, log):
    """Cyrus's master with its HTTP service (CardDAV) on `port` and an IMAP
    one, all its state in `folder`. Its services refuse to run as root, so
    under root they run as the packages' `cyrus` user, which must reach
    `folder`; its first IMAP login makes the user's mailbox, which the
    address book lives under."""
    folder = os.path.abspath(folder)
    imap = free_port()
    as_root = os.geteuid() == 0
    conf = cyrus_config(folder, port, imap, "cyrus" if as_root else pwd.getpwuid(os.geteuid()).pw_name)
    saslpasswd = "/usr/sbin/saslpasswd2" if os.path.exists("/usr/sbin/saslpasswd2") else "saslpasswd2"
    subprocess.run([saslpasswd, "-p", "-c", "-f", os.path.join(folder, "sasldb2"), user],
                   input=password.encode(), check=True)
    if as_root:
        subprocess.run(["chown", "-R", "cyrus:mail", folder], check=True)
        reachable_by_others(folder)
    with open(log, "w") as out:
        process = subprocess.Popen([f"{CYRUS}/master", "-C", conf, "-M", os.path.join(folder, "cyrus.conf"),
                                    "-p", os.path.join(folder, "master.pid")],
                                   stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                   start_new_session=True)
    wait_for(port, process, log)
    wait_for(imap, process, log)
    with imaplib.IMAP4("127.0.0.1", imap, timeout=10) as session:
        session.login(user, password)
    root = f"http://127.0.0.1:{port}/"
    addressbook = f"{root}dav/addressbooks/user/{user}/Default/"
    # The first request to the user's home makes the address book.
    token = base64.b64encode(f"{user}:{password}".encode()).decode()
    propfind = urllib.request.Request(addressbook, method="PROPFIND",
                                      headers={"Authorization": "Basic " + token, "Depth": "0"})
    try:
        urllib.request.urlopen(propfind, timeout=10).close()
    except urllib.error.URLError as error:
        stop(process.pid)
        sys.exit(f"Cyrus has no address book at {addressbook}: {error}")
    return {"pid": process.pid, "port": port, "root": root, "addressbook": addressbook}


def cyrus_config(folder, port, imap, cyrus_user):
    """Writes Cyrus's imapd.conf and cyrus.conf into `folder`, with the
    folders they name; the path of imapd.conf."""
    for part in ("config/db", "config/proc", "config/socket", "config/lock", "config/sieve", "partition"):
        os.makedirs(os.path.join(folder, part), exist_ok=True)
    conf = os.path.join(folder, "imapd.conf")
    with open(conf, "w") as f:
        f.write(f"""configdirectory: {folder}/config
proc_path: {folder}/config/proc
mboxname_lockpath: {folder}/config/lock
sievedir: {folder}/config/sieve
lmtpsocket: {folder}/config/socket/lmtp
idlesocket: {folder}/config/socket/idle
notifysocket: {folder}/config/socket/notify
defaultpartition: default
partition-default: {folder}/partition
cyrus_user: {cyrus_user}
httpmodules: carddav
allowplaintext: yes
autocreate_quota: 0
sasl_pwcheck_method: auxprop
sasl_auxprop_plugin: sasldb
sasl_sasldb_path: {folder}/sasldb2
sasl_mech_list: PLAIN
syslog_prefix: cyrus-{port}
""")
    with open(os.path.join(folder, "cyrus.conf"), "w") as f:
        f.write(f"""START {{
  recover cmd="ctl_cyrusdb -C {conf} -r"
}}
SERVICES {{
  http cmd="httpd -C {conf}" listen="127.0.0.1:{port}" prefork=0
  imap cmd="imapd -C {conf}" listen="127.0.0.1:{imap}" prefork=0
}}
""")
    return conf


def reachable_by_others(folder):
    """Lets other users pass through (not list) each folder above `folder`."""
    path = os.path.dirname(os.path.abspath(folder))
    while path != "/":
        mode = os.stat(path).st_mode
        if not mode & stat.S_IXOTH:
            os.chmod(path, mode | stat.S_IXOTH)
        path = os.path.dirname(path)


@contextlib.contextmanager
def running(kind, folder, user="user", password="password"):
    """A server for the length of a `with` block, for the scripts beside this one."""
    server = start(kind, folder, user, password)
    try:
        yield server
    finally:
        stop(server["pid"])


def stop(pid):
    database = davical.database_of(pid)
    stop_process(pid)
    davical.stop_database(database, pid)


def stop_process(pid):
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.time() + 10
    while time.time() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        try:
            if os.waitpid(pid, os.WNOHANG)[0] == pid:
                return
        except ChildProcessError:
            pass
        time.sleep(0.05)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)


def main(argv):
    if len(argv) >= 3 and argv[0] == "start":
        user = argv[argv.index("--user") + 1] if "--user" in argv else "user"
        password = argv[argv.index("--password") + 1] if "--password" in argv else "password"
        print(json.dumps(start(argv[1], argv[2], user, password)))
    elif len(argv) == 5 and argv[0] == "mkcol":
        mkcol(*argv[1:])
    elif len(argv) == 5 and argv[0] == "vdirsyncer":
        print(vdirsyncer_config(*argv[1:]))
    elif len(argv) == 5 and argv[0] == "move":
        move(*argv[1:])
    elif len(argv) == 2 and argv[0] == "forget-tokens":
        davical.forget_tokens(argv[1])
    elif len(argv) == 2 and argv[0] == "stop":
        stop(int(argv[1]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
