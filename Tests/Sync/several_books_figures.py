#!/usr/bin/env python3
"""Times the first sync of three remotes in one database against three
single ones.

  several_books_figures.py CONTACTSDB [--cards N] [--runs R]

Starts one Radicale on 127.0.0.1 with three address books of N generated
cards each (default 3,000; the books' UIDs differ), read once by the server
before the first sync. Then R times (default 3): three new databases each
bound to one address book, each synced alone (timed one by one, summed),
and one new database bound to all three, synced by one `sync` (timed). The
order of the two alternates between runs. Checks that every sync brought
every card. Prints each run and the medians. Not part of the tests:
figures for reading.

Run with the Python of .build-python, which has Radicale.
"""
import os
import statistics
import subprocess
import sys
import tempfile

import davserver
from sync_figures import PASSWORD, USER, fill, timed, warm

BOOKS = ("work", "family", "home")


def main():
    binary, cards, runs = davserver.command_line(__doc__, cards=3000, runs=3)
    with tempfile.TemporaryDirectory(prefix="contactsdb-figures-") as folder:
        with davserver.running("radicale", os.path.join(folder, "server"), USER, PASSWORD) as server:
            measure(binary, folder, server, cards, runs)


def measure(binary, folder, server, count, runs):
    env = dict(os.environ, SYNC_PASSWORD=PASSWORD)
    urls = {}
    for seed, book in enumerate(BOOKS, start=3):
        urls[book] = server["root"] + f"{USER}/{book}/"
        davserver.mkcol(urls[book], USER, PASSWORD, book)
        collection = os.path.join(folder, "server", "collections", "collection-root", USER, book)
        fill(binary, folder, collection, count, seed=seed, prefix=book + "-")
        warm(urls[book])

    def database(name, books):
        db = os.path.join(folder, name + ".sqlite")
        subprocess.run([binary, "--db", db, "init", "--no-seed"], check=True, capture_output=True)
        for book in books:
            subprocess.run([binary, "--db", db, "remote", "add", book, urls[book], "--username", USER,
                            "--password-env", "SYNC_PASSWORD"], check=True, capture_output=True, env=env)
        return db

    def singles(run):
        total = 0.0
        for book in BOOKS:
            seconds, report = timed([binary, "--db", database(f"single-{book}-{run}", [book]), "sync"], env)
            if not report.startswith(f"pulled: {count} new"):
                sys.exit(f"the single sync of {book} reported {report!r}")
            total += seconds
        return total

    def together(run):
        seconds, report = timed([binary, "--db", database(f"three-{run}", BOOKS), "sync"], env)
        for book in BOOKS:
            if f"{book}: pulled: {count} new" not in report:
                sys.exit(f"the sync of three reported {report!r}")
        return seconds

    figures = {"singles": [], "together": []}
    for run in range(runs):
        order = (("singles", singles), ("together", together))
        for name, timing in order if run % 2 == 0 else reversed(order):
            figures[name].append(timing(run))
        print(f"first sync of 3 × {count} cards, run {run + 1}: three single syncs {figures['singles'][-1]:.2f} s "
              f"in all, one sync of three {figures['together'][-1]:.2f} s", flush=True)
    singles_median, together_median = statistics.median(figures["singles"]), statistics.median(figures["together"])
    print(f"median: three single syncs {singles_median:.2f} s in all, one sync of three {together_median:.2f} s, "
          f"ratio {together_median / singles_median:.2f}")


if __name__ == "__main__":
    main()
