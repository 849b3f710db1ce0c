#!/usr/bin/env python3
"""Checks `contactsdb birthdays --format ics` against real calendar software:

- the Python `icalendar` library reads it, and `recurring-ical-events`
  expands it over each year 2026..2036 to exactly the days `birthdays
  --format json --from YYYY-01-01 --within 366` lists (the same window on
  both sides: the first day and the 366 days after it), for every book and
  for one book;
- khal, the terminal calendar, imports it and lists each event on its day.

The database is made through the binary: a book, a JSON file of contacts
with known and unknown years, 29 February with and without a year, and
names that need escaping and folding (Korean, Russian, a comma, a
semicolon, a backslash; a newline in a date's label, which the engine
tidies to a space as it tidies names), imported into two books.

Usage: calendar_check.py PATH/TO/contactsdb
  (needs: pip install icalendar recurring-ical-events khal)
Prints one line per check and ends with "N passed, M failed".
"""
import collections
import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import icalendar
import recurring_ical_events

CONTACTSDB = str(Path(sys.argv[1]).resolve())
YEARS = range(2026, 2037)
# khal from PATH, else beside the Python that runs this (its venv).
KHAL = shutil.which("khal") or str(Path(sys.executable).parent / "khal")
results = []


def check(name, ok, detail=""):
    results.append(ok)
    print(("ok    " if ok else "FAIL  ") + name + ("" if ok else ": " + str(detail)[:2000]))


def run(*args, db):
    return subprocess.run([CONTACTSDB, "--db", db] + list(args), check=True, capture_output=True, text=True)


def calendar_bytes(db, books=()):
    """`birthdays --format ics` as written: bytes, CRLF kept."""
    args = ["birthdays", "--format", "ics"] + sum((["--book", b] for b in books), [])
    return subprocess.run([CONTACTSDB, "--db", db] + args, check=True, capture_output=True).stdout


def contacts():
    """Contacts made for the edges: names in
    Hangul and Cyrillic, long enough to fold, with a comma, a semicolon and
    a backslash; a label with a newline."""
    people = [
        {"id": "minji", "firstName": "민지", "lastName": "김", "birthday": "1990-03-09"},
        {"id": "ivan", "firstName": "Иван Александрович", "lastName": "Петров-Водкин, мл.",
         "birthday": "--02-29", "dates": [{"type": "годовщина; свадьбы", "value": "2012-07-14"}]},
        {"id": "leap", "firstName": "Leap", "lastName": "Year\\Slash", "birthday": "2000-02-29"},
        {"id": "yearless", "company": "Acme; Sons, Ltd", "birthday": "--12-31",
         "dates": [{"type": "founded\nin a garage", "value": "--01-01"}]},
        {"id": "future", "firstName": "Later", "lastName": "Born", "birthday": "2030-06-15",
         "dates": [{"type": "anniversary", "value": "2033-02-28"}]},
        {"id": "long", "firstName": "김수한무거북이와두루미삼천갑자동방삭치치카포사리사리센타워리워리세브리캉",
         "lastName": "Очень-Длинная-Фамилия", "birthday": "1961-01-01",
         "dates": [{"type": "anniversary", "value": "--02-29"}, {"type": "other", "value": "1985-11-30"}]},
    ]
    # Enough ordinary dates to fill every month, some yearless.
    for n in range(60):
        month, day = n % 12 + 1, n * 7 % 28 + 1
        birthday = f"--{month:02d}-{day:02d}" if n % 3 == 0 else f"{1950 + n}-{month:02d}-{day:02d}"
        people.append({"id": f"p{n}", "firstName": f"Person {n}", "lastName": "Тест", "birthday": birthday})
    return people


def make_database(work):
    db = str(work / "calendar.sqlite")
    run("init", "--no-seed", db=db)
    run("book", "create", "family", db=db)
    people = contacts()
    (work / "local.json").write_text(json.dumps(people[:4] + people[6:40], ensure_ascii=False))
    (work / "family.json").write_text(json.dumps(people[4:6] + people[40:], ensure_ascii=False))
    run("import", str(work / "local.json"), db=db)
    run("import", "--book", "family", str(work / "family.json"), db=db)
    return db


def listed(db, year, books):
    """`birthdays --format json` from 1 January for 366 days more, as
    (date, contact id, kind) with a count."""
    args = ["birthdays", "--format", "json", "--from", f"{year}-01-01", "--within", "366"]
    for book in books:
        args += ["--book", book]
    dates = json.loads(run(*args, db=db).stdout)
    return collections.Counter((d["date"], d["id"], d["kind"]) for d in dates)


def expanded(calendar, year):
    """The events of the same window, expanded by recurring-ical-events."""
    start = datetime.date(year, 1, 1)
    end = start + datetime.timedelta(days=367)
    found = collections.Counter()
    for event in recurring_ical_events.of(calendar).between(start, end):
        uid = str(event["UID"])
        contact, _, which = uid.rpartition("/")
        kind = "birthday" if which == "birthday" else "anniversary"
        found[(event["DTSTART"].dt.isoformat(), contact, kind)] += 1
    return found


def check_expansion(db):
    for books in ([], ["family"]):
        raw = calendar_bytes(db, books)
        lines = raw.split(b"\r\n")
        check(f"ics {books}: CRLF only, {len(lines)} lines of at most 75 octets",
              b"\n" not in raw.replace(b"\r\n", b"") and b"\r" not in raw.replace(b"\r\n", b"")
              and all(len(line) <= 75 for line in lines), [line for line in lines if len(line) > 75][:3])
        check(f"ics {books}: some lines are folded, each fold between UTF-8 sequences",
              any(line.startswith(b" ") for line in lines) and all(not line.startswith(b" ") or
                                                                    (line[1] & 0xC0) != 0x80 for line in lines))
        calendar = icalendar.Calendar.from_ical(raw.decode("utf-8"))
        for year in YEARS:
            expected = listed(db, year, books)
            found = expanded(calendar, year)
            check(f"ics {books} {year}: {sum(found.values())} days as birthdays --format json lists them",
                  found == expected, f"missing {expected - found}, extra {found - expected}")


def check_summaries(db):
    calendar = icalendar.Calendar.from_ical(calendar_bytes(db).decode("utf-8"))
    summaries = {str(e["UID"]): str(e["SUMMARY"]) for e in calendar.walk("VEVENT")}
    names = {d["id"]: d["displayName"] for d in json.loads(
        run("birthdays", "--format", "json", "--from", "2040-01-01", "--within", "366", db=db).stdout)}
    wanted = {
        "ivan/birthday": names["ivan"],
        "ivan/date-0": names["ivan"] + ", годовщина; свадьбы (2012)",
        "leap/birthday": "Leap Year\\Slash (2000)",
        # Labels are tidied as names are: the newline is stored as a space
        # (ICalendarWriterTests escape one).
        "yearless/date-0": "Acme; Sons, Ltd, founded in a garage",
        "minji/birthday": "김민지 (1990)",
        "long/date-1": names["long"] + ", anniversary (1985)",
    }
    for uid, summary in wanted.items():
        check(f"SUMMARY of {uid} reads back as written", summaries.get(uid) == summary, repr(summaries.get(uid)))
    categories = collections.Counter(str(e["CATEGORIES"].cats[0]) for e in calendar.walk("VEVENT"))
    check("CATEGORIES: BIRTHDAY and ANNIVERSARY", set(categories) == {"BIRTHDAY", "ANNIVERSARY"}, categories)


def check_khal(work, db):
    """khal imports the calendar into a vdir and lists the year's events
    on the days `birthdays` gives."""
    ics = work / "birthdays.ics"
    ics.write_bytes(calendar_bytes(db))
    vdir = work / "khal-birthdays"
    vdir.mkdir()
    config = work / "khal.conf"
    config.write_text(f"""[calendars]
[[birthdays]]
path = {vdir}
type = calendar
[locale]
timeformat = %H:%M
dateformat = %Y-%m-%d
longdateformat = %Y-%m-%d
datetimeformat = %Y-%m-%d %H:%M
longdatetimeformat = %Y-%m-%d %H:%M
local_timezone = UTC
default_timezone = UTC
[sqlite]
path = {work / "khal.db"}
""")
    environment = dict(os.environ, HOME=str(work), XDG_DATA_HOME=str(work), XDG_CONFIG_HOME=str(work))

    def khal(*args):
        return subprocess.run([KHAL, "-c", str(config)] + list(args), capture_output=True, text=True,
                              env=environment)

    imported = khal("import", "--batch", "-a", "birthdays", str(ics))
    check("khal imports the calendar", imported.returncode == 0, imported.stderr)
    files = list(vdir.glob("*.ics"))
    check("khal's vdir holds one file per event", len(files) == len(
        icalendar.Calendar.from_ical(ics.read_text()).walk("VEVENT")), len(files))
    # What khal should show: the events recurring-ical-events expands in
    # 2027 (checked above against `birthdays`), by day and summary.
    calendar = icalendar.Calendar.from_ical(ics.read_text())
    wanted = collections.Counter(
        f"{event['DTSTART'].dt.isoformat()}|{event['SUMMARY']}"
        for event in recurring_ical_events.of(calendar).between(datetime.date(2027, 1, 1), datetime.date(2028, 1, 1)))
    # Each event ends with a record separator: a summary may hold a newline.
    shown = khal("list", "--format", "{start-date}|{title}\x1e", "--day-format", "", "2027-01-01", "2027-12-31")
    check("khal lists the events", shown.returncode == 0, shown.stderr)
    listed_days = collections.Counter(
        item.strip("\n") for item in shown.stdout.split("\x1e") if item.strip())
    check(f"khal shows the {sum(wanted.values())} events of 2027 on their days", listed_days == wanted,
          f"missing {wanted - listed_days}, extra {listed_days - wanted}")
    leap = [day for day in listed_days if day.endswith("|Leap Year\\Slash (2000)")]
    check("khal shows 29 February on 28 February in 2027", leap == ["2027-02-28|Leap Year\\Slash (2000)"], leap)


def main():
    with tempfile.TemporaryDirectory() as directory:
        work = Path(directory)
        db = make_database(work)
        check_expansion(db)
        check_summaries(db)
        check_khal(work, db)
    failed = results.count(False)
    print(f"{results.count(True)} passed, {failed} failed")
    sys.exit(1 if failed else 0)


main()
