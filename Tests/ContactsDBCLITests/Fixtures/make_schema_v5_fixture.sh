#!/usr/bin/env bash
# Writes schema-v5.sqlite: a database as users have it at schema version 5
# (migrations 0001–0005), with the bundled seed, 300 generated contacts,
# favorites, a group and a deletion, plus what that build answered
# (schema-v5-answers.txt), for the upgrade tests. It was run once with the
# build whose newest migration was 0005_derived_table_sources; a later build
# cannot make it again.
#
# Usage: make_schema_v5_fixture.sh PATH/TO/contactsdb
set -euo pipefail
contactsdb=$1
cd "$(dirname "$0")"
rm -f schema-v5.sqlite schema-v5.sqlite-wal schema-v5.sqlite-shm schema-v5.sqlite-lock
db=(--db schema-v5.sqlite)
"$contactsdb" "${db[@]}" init
"$contactsdb" generate --contacts 300 --seed 55 > /tmp/schema-v5-contacts.json
"$contactsdb" "${db[@]}" import /tmp/schema-v5-contacts.json
"$contactsdb" "${db[@]}" delete seed-acme c17
"$contactsdb" "${db[@]}" favorite c5 seed-ivan-petrov c40
"$contactsdb" "${db[@]}" group create "Book club"
"$contactsdb" "${db[@]}" group add "Book club" c5 c6 c7
{
    echo "# export"; "$contactsdb" "${db[@]}" export --format ndjson
    echo "# query --has telegram --has phone --has email --sort last-name:desc"
    "$contactsdb" "${db[@]}" query --has telegram --has phone --has email --sort last-name:desc --format ndjson | cut -d'"' -f4
    echo "# query --name an --limit 20"
    "$contactsdb" "${db[@]}" query --name an --limit 20 --format ndjson | cut -d'"' -f4
    echo "# query --sections"
    "$contactsdb" "${db[@]}" query --sections --format csv
    echo "# query --phone 345 --count"
    "$contactsdb" "${db[@]}" query --phone 345 --count
    echo "# favorites"
    "$contactsdb" "${db[@]}" favorites --format ndjson | cut -d'"' -f4
} > schema-v5-answers.txt
rm -f /tmp/schema-v5-contacts.json schema-v5.sqlite-lock
