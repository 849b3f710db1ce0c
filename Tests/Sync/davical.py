"""DAViCal (Debian's `davical`, 1.1) for davserver.py: a PostgreSQL
cluster of its own in DIR/pg on 127.0.0.1, and DAViCal's caldav.php served
by PHP's own server through DIR/router.php, on free ports.

DAViCal reads its configuration only from /etc/davical/NAME-conf.php, NAME
the request's server name (else /etc/davical/config.php): the router names
DIR/davical-conf.php that way (`/etc/davical/../../DIR/davical`), so nothing
is written outside DIR, and the configuration puts the server name back.

initdb and DAViCal's own dba/create-database.sh take about 20 s, so their
result, an empty DAViCal database, is made once per machine in the system's
temporary folder and copied for each server (a second or two).
"""
import glob
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

POSTGRES = sorted(glob.glob("/usr/lib/postgresql/*/bin"))[-1:] or ["/usr/lib/postgresql/15/bin"]
POSTGRES = POSTGRES[0]
DAVICAL = "/usr/share/davical"

ROUTER = r"""<?php
// DAViCal takes /etc/davical/SERVER_NAME-conf.php: this names the one beside.
$_SERVER['SERVER_NAME'] = '../..' . __DIR__ . '/davical';
$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
$_SERVER['PATH_INFO'] = rawurldecode(preg_replace('{^/caldav\.php}', '', $path));
$_SERVER['SCRIPT_NAME'] = '/caldav.php';
// Each request logged as `"METHOD URI" STATUS`, as the tests count writes.
register_shutdown_function(function () {
    error_log(sprintf('"%s %s" %d', $_SERVER['REQUEST_METHOD'], $_SERVER['REQUEST_URI'], http_response_code()));
});
chdir('/usr/share/davical/htdocs');
require 'caldav.php';
"""

CONFIG = """<?php
$c->pg_connect[] = "host=127.0.0.1 port={port} dbname=davical user=davical_app";
$c->domain_name = '127.0.0.1';
$c->admin_email = 'admin@example.net';
$_SERVER['SERVER_NAME'] = '127.0.0.1';
"""

MKCOL = """<?xml version="1.0" encoding="utf-8"?>
<d:mkcol xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:carddav"><d:set><d:prop>
<d:resourcetype><d:collection/><c:addressbook/></d:resourcetype><d:displayname>Contacts</d:displayname>
</d:prop></d:set></d:mkcol>"""


def owner():
    """PostgreSQL refuses to run as root: as root it runs as `postgres`."""
    return "postgres" if os.geteuid() == 0 else None


def as_owner(command, check=True, **options):
    # Its groups too: root's group would be held to a folder's group bits.
    account = {"user": owner(), "group": owner(), "extra_groups": []} if owner() else {}
    return subprocess.run(command, check=check, stdin=subprocess.DEVNULL, **account, **options)


def reachable(path):
    """Lets the cluster's owner reach `path`: each folder above it is made
    passable (o+x) where it is not (a temporary folder is 0700)."""
    if owner() is None:
        return
    folder = os.path.dirname(os.path.abspath(path))
    while folder != "/":
        mode = os.stat(folder).st_mode
        if not mode & 0o001:
            os.chmod(folder, mode | 0o001)
        folder = os.path.dirname(folder)


def give(path):
    if owner() is not None:
        account = pwd.getpwnam(owner())
        for root, folders, files in os.walk(path):
            for name in [root] + [os.path.join(root, n) for n in folders + files]:
                os.chown(name, account.pw_uid, account.pw_gid)


def psql(port, sql, database="davical"):
    return subprocess.run(["psql", "-qXAt", "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", "-c", sql, database],
                          check=True, capture_output=True, text=True, stdin=subprocess.DEVNULL).stdout


def start_cluster(data, port):
    options = (f"-c listen_addresses=127.0.0.1 -p {port} -c unix_socket_directories='' "
               "-c fsync=off -c synchronous_commit=off -c full_page_writes=off")
    as_owner([f"{POSTGRES}/pg_ctl", "-D", data, "-l", os.path.join(data, "server.log"), "-w", "-o", options, "start"],
             stdout=subprocess.DEVNULL)


def stop_cluster(data):
    as_owner([f"{POSTGRES}/pg_ctl", "-D", data, "-m", "fast", "-w", "stop"], check=False,
             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def template():
    """The data folder of a stopped cluster holding DAViCal's empty database
    (its own create-database.sh), made once."""
    path = os.path.join(tempfile.gettempdir(), f"contactsdb-davical-{os.path.basename(os.path.dirname(POSTGRES))}")
    if os.path.exists(os.path.join(path, "PG_VERSION")):
        return path
    building = tempfile.mkdtemp(prefix="contactsdb-davical-building-")
    os.chmod(building, 0o700)
    reachable(building)
    give(building)
    as_owner([f"{POSTGRES}/initdb", "-D", building, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C.UTF-8",
              "--no-sync"], stdout=subprocess.DEVNULL)
    port = free_port()
    start_cluster(building, port)
    try:
        environment = dict(os.environ, PGHOST="127.0.0.1", PGPORT=str(port), PGUSER="postgres")
        made = subprocess.run(["sh", f"{DAVICAL}/dba/create-database.sh", "davical", "unused-admin-password"],
                              env=environment, capture_output=True, text=True, stdin=subprocess.DEVNULL)
        if made.returncode != 0:
            sys.exit(f"DAViCal's create-database.sh failed:\n{made.stdout}{made.stderr}")
    finally:
        stop_cluster(building)
    try:
        os.rename(building, path)
    except OSError:
        shutil.rmtree(building, ignore_errors=True)  # another start made it meanwhile
    return path


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(folder, port, user, password, log, wait_for):
    """Starts the cluster and the PHP server; the PHP server's pid is the
    server's (``stop_database``, given ``database_of`` it, stops the rest)."""
    if not os.path.exists(f"{DAVICAL}/htdocs/caldav.php"):
        sys.exit("DAViCal is not installed (Debian's davical package)")
    data = os.path.join(folder, "pg")
    shutil.copytree(template(), data, symlinks=True)
    reachable(data)
    give(data)
    os.chmod(data, 0o700)
    database_port = free_port()
    start_cluster(data, database_port)
    quoted = lambda text: "'" + text.replace("'", "''") + "'"
    psql(database_port, f"""
        INSERT INTO usr (active, username, password, fullname, email)
            VALUES (TRUE, {quoted(user)}, {quoted('**' + password)}, {quoted(user)}, 'user@example.net');
        INSERT INTO principal (type_id, user_no, displayname, default_privileges)
            VALUES (1, currval('usr_user_no_seq'), {quoted(user)}, 0::BIT(24));""")
    with open(os.path.join(folder, "router.php"), "w") as f:
        f.write(ROUTER)
    with open(os.path.join(folder, "davical-conf.php"), "w") as f:
        f.write(CONFIG.replace("{port}", str(database_port)))
    environment = dict(os.environ, PHP_CLI_SERVER_WORKERS="4")
    with open(log, "w") as out:
        process = subprocess.Popen(["php", "-S", f"127.0.0.1:{port}", os.path.join(folder, "router.php")],
                                   stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                   start_new_session=True, env=environment)
    try:
        wait_for(port, process, log)
        root = f"http://127.0.0.1:{port}/"
        addressbook = f"{root}caldav.php/{user}/contacts/"
        mkcol(addressbook, user, password)
    except BaseException:
        os.killpg(process.pid, signal.SIGTERM)
        stop_cluster(data)
        raise
    return {"pid": process.pid, "port": port, "root": root, "addressbook": addressbook}


def mkcol(url, user, password):
    import davserver
    status = davserver.request("MKCOL", url, user, password, MKCOL.encode())
    if status != 201:
        sys.exit(f"MKCOL {url} answered {status}")


def database_of(pid):
    """The cluster beside the router a PHP server of `start` runs, or None."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            arguments = f.read().decode(errors="replace").split("\0")
    except OSError:
        return None
    routers = [a for a in arguments if a.endswith("/router.php")]
    data = routers and os.path.join(os.path.dirname(routers[0]), "pg")
    return data if data and os.path.exists(os.path.join(data, "PG_VERSION")) else None


def stop_database(data, pid):
    """Stops the PHP server's workers (its session's other processes) and
    the cluster."""
    if not data:
        return
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass
    stop_cluster(data)


def database_port(folder):
    with open(os.path.join(folder, "pg", "postmaster.pid")) as f:
        return f.read().split("\n")[3]


def forget_tokens(folder):
    """Makes DAViCal forget every sync-token it gave, as it does of those
    older than a week."""
    psql(database_port(folder), "DELETE FROM sync_tokens;")


def cards(folder):
    """The cards DAViCal holds, by name."""
    rows = psql(database_port(folder), "SELECT json_agg(json_build_object('name', dav_name, 'text', caldav_data)) FROM caldav_data "
                      "WHERE caldav_type = 'VCARD'")
    return {os.path.basename(row["name"]): row["text"] for row in json.loads(rows or "null") or []}
