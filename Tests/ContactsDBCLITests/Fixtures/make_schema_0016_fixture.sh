#!/usr/bin/env bash
# Writes schema-0016.sqlite: a database as users have it at schema
# version 4 (migrations 0001–0016, one address book), with the bundled seed,
# 200 generated contacts, favorites, groups synced as group cards with a
# Xandikos address book, a photo, a merge record and an edit not yet synced,
# plus what that build answered (schema-0016-answers.txt), for the upgrade
# tests. It was run once with the build whose newest migration was
# 0016_group_sync; a later build cannot make it again.
#
# Usage: make_schema_0016_fixture.sh PATH/TO/contactsdb PATH/TO/python3
# (the python of .build-python, whose bin/ holds xandikos).
set -euo pipefail
contactsdb=$1
python=$2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
cd "$here"
rm -f schema-0016.sqlite schema-0016.sqlite-wal schema-0016.sqlite-shm schema-0016.sqlite-lock
db=(--db "$here/schema-0016.sqlite")
server=$("$python" "$here/../../Sync/davserver.py" start xandikos "$work/server")
pid=$("$python" -c 'import json, sys; print(json.load(sys.stdin)["pid"])' <<< "$server")
addressbook=$("$python" -c 'import json, sys; print(json.load(sys.stdin)["addressbook"])' <<< "$server")
trap '"$python" "$here/../../Sync/davserver.py" stop "$pid"; rm -rf "$work"' EXIT

"$contactsdb" "${db[@]}" init
"$contactsdb" generate --contacts 200 --seed 16 > "$work/contacts.json"
"$contactsdb" "${db[@]}" import "$work/contacts.json"
"$contactsdb" "${db[@]}" favorite c5 seed-ivan-petrov c40
"$contactsdb" "${db[@]}" group create "Book club"
"$contactsdb" "${db[@]}" group add "Book club" c5 c6 c7
"$python" -c '
import struct, sys, zlib
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
rows = b"".join(b"\x00" + bytes([200, 40, 40]) * 8 for _ in range(8))
sys.stdout.buffer.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 8, 8, 8, 2, 0, 0, 0))
                        + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))' > "$work/photo.png"
"$contactsdb" "${db[@]}" photo set c6 "$work/photo.png"
echo '{"id": "anna", "firstName": "Anna", "lastName": "Petrova", "phones": [{"type": "mobile", "value": "8 912 345 67 89"}]}' \
    | "$contactsdb" "${db[@]}" add --json -
"$contactsdb" "${db[@]}" merge anna seed-ivan-petrov
"$contactsdb" "${db[@]}" remote add home "$addressbook" --groups cards
"$contactsdb" "${db[@]}" sync
"$contactsdb" "${db[@]}" update c8 --note "changed after the last sync"
{
    echo "# export"; "$contactsdb" "${db[@]}" export --format ndjson
    echo "# query --has telegram --has phone --has email --sort last-name:desc"
    "$contactsdb" "${db[@]}" query --has telegram --has phone --has email --sort last-name:desc --format ndjson | cut -d'"' -f4
    echo "# query --text ivan --limit 20"
    "$contactsdb" "${db[@]}" query --text ivan --limit 20 --format ndjson | cut -d'"' -f4
    echo "# query --group Book club"
    "$contactsdb" "${db[@]}" query --group "Book club" --format ndjson | cut -d'"' -f4
    echo "# query --sections"
    "$contactsdb" "${db[@]}" query --sections --format csv
    echo "# favorites"
    "$contactsdb" "${db[@]}" favorites --format ndjson | cut -d'"' -f4
    echo "# group list"
    "$contactsdb" "${db[@]}" group list --format csv
    echo "# remote list"
    "$contactsdb" "${db[@]}" remote list | sed "s|$addressbook|ADDRESSBOOK|"
    echo "# merges"
    "$contactsdb" "${db[@]}" merges
} > schema-0016-answers.txt
rm -f schema-0016.sqlite-lock schema-0016.sqlite-sync-lock
