#!/usr/bin/env bash
# Writes schema-v1.sqlite: a database as users have it at schema version 1
# (migration 0001 only), with the bundled seed, 300 generated contacts and
# a deletion, plus what that build answered (schema-v1-answers.txt), for
# the upgrade tests. It was run once with the build whose newest migration
# was 0001_initial; a later build cannot make it again.
#
# Usage: make_schema_v1_fixture.sh PATH/TO/contactsdb
set -euo pipefail
contactsdb=$1
cd "$(dirname "$0")"
rm -f schema-v1.sqlite schema-v1.sqlite-wal schema-v1.sqlite-shm
db=(--db schema-v1.sqlite)
"$contactsdb" "${db[@]}" init
"$contactsdb" generate --contacts 300 --seed 21 > /tmp/schema-v1-contacts.json
"$contactsdb" "${db[@]}" import /tmp/schema-v1-contacts.json
"$contactsdb" "${db[@]}" delete seed-acme c17
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
} > schema-v1-answers.txt
rm -f /tmp/schema-v1-contacts.json
