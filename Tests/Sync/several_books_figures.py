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
every card. Prints each run and the medians (of the two columns, and of the runs' ratios), of the wall time and of the
processor time contactsdb spent (its processes', not the server's), which
other work on the machine disturbs less. Not part of the tests:
figures for reading.

Run with the Python of .build-python, which has Radicale.
"""
import os
import resource
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

    def processor():
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime

    def sync(db):
        """The sync's wall and processor seconds, and its report."""
        before = processor()
        seconds, report = timed([binary, "--db", db, "sync"], env)
        return seconds, processor() - before, report

    def singles(run):
        wall = cpu = 0.0
        for db, book in [(database(f"single-{book}-{run}", [book]), book) for book in BOOKS]:
            seconds, processor_seconds, report = sync(db)
            if not report.startswith(f"pulled: {count} new"):
                sys.exit(f"the single sync of {book} reported {report!r}")
            wall, cpu = wall + seconds, cpu + processor_seconds
        return wall, cpu

    def together(run):
        seconds, processor_seconds, report = sync(database(f"three-{run}", BOOKS))
        for book in BOOKS:
            if f"{book}: pulled: {count} new" not in report:
                sys.exit(f"the sync of three reported {report!r}")
        return seconds, processor_seconds

    wall, cpu = {"singles": [], "together": []}, {"singles": [], "together": []}
    for run in range(runs):
        order = (("singles", singles), ("together", together))
        for name, timing in order if run % 2 == 0 else reversed(order):
            seconds, processor_seconds = timing(run)
            wall[name].append(seconds)
            cpu[name].append(processor_seconds)
        print(f"first sync of 3 × {count} cards, run {run + 1}: three single syncs {wall['singles'][-1]:.2f} s "
              f"in all ({cpu['singles'][-1]:.2f} s processor), one sync of three {wall['together'][-1]:.2f} s "
              f"({cpu['together'][-1]:.2f} s processor)", flush=True)
    for label, figures in (("wall", wall), ("processor", cpu)):
        # Each run's two figures were taken side by side: the median of their ratios.
        ratios = [together / singles for singles, together in zip(figures["singles"], figures["together"])]
        print(f"median {label}: three single syncs {statistics.median(figures['singles']):.2f} s in all, one sync of "
              f"three {statistics.median(figures['together']):.2f} s, median of the runs' ratios {statistics.median(ratios):.2f}")


if __name__ == "__main__":
    main()
