#!/bin/sh
# Builds one fuzz target with libFuzzer and runs it for SECONDS, seeded from
# the test fixtures and the regression corpus; crashers land in
# Fuzz/crashes/TARGET/, the grown corpus in .build-fuzz/corpus/TARGET/.
#   Fuzz/run.sh FuzzJSON|FuzzVCard|FuzzCSV|FuzzMigrations|FuzzDAV SECONDS
set -eu
target=${1:?usage: Fuzz/run.sh FuzzJSON|FuzzVCard|FuzzCSV|FuzzMigrations|FuzzDAV SECONDS}
seconds=${2:?usage: Fuzz/run.sh TARGET SECONDS}
cd "$(dirname "$0")/.."
# CONTACTSDB_FUZZ makes Package.swift instrument the library and the fuzz
# targets and link them with this archive (see there why not -Xswiftc).
toolchain=$(dirname "$(readlink -f "$(command -v swiftc)")")/..
CONTACTSDB_FUZZ=$(ls "$toolchain"/lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-"$(uname -m)".a | head -n 1)
export CONTACTSDB_FUZZ
swift build --scratch-path .build-fuzz --product "$target"
binary=$(swift build --scratch-path .build-fuzz --show-bin-path)/$target

corpus=.build-fuzz/corpus/$target
crashes=Fuzz/crashes/$target
mkdir -p "$corpus" "$crashes"
regressions=Tests/ContactsDBTests/Fixtures/FuzzRegressions
# The longest input tried; FUZZ_MAX_LEN raises it for the long shapes.
max_len=${FUZZ_MAX_LEN:-65536}
case $target in
FuzzJSON)
    seeds="$regressions/json"
    find Tests Seeds -path '*Fixtures*' -name '*.json' -size -64k -exec cp {} "$corpus/" \; 2>/dev/null || true
    find Seeds -name '*.json' -size -64k -exec cp {} "$corpus/" \; 2>/dev/null || true ;;
FuzzVCard)
    seeds="$regressions/vcard"
    cp Fuzz/Seeds/vcard/* "$corpus/"
    # The tests hold their cards in Swift string literals.
    python3 - "$corpus" Tests/*/*.swift <<'PY'
import re, sys, pathlib, textwrap
for path in sys.argv[2:]:
    text = pathlib.Path(path).read_text()
    for number, card in enumerate(re.findall(r'"""\n(.*?)\n *"""', text, re.S)):
        if "BEGIN:VCARD" in card:
            card = textwrap.dedent(card).replace("\\r\n", "\r\n") + "\r\n"
            pathlib.Path(sys.argv[1], pathlib.Path(path).stem + "-" + str(number) + ".vcf").write_text(card)
PY
    # One card of as many short lines as fit (200,000 with FUZZ_MAX_LEN=2100000).
    python3 - "$corpus/many-lines.vcf" "$max_len" <<'PY'
import sys
lines = min(200_000, (int(sys.argv[2]) - 100) // 10)
card = "BEGIN:VCARD\r\nVERSION:4.0\r\nKIND:group\r\nFN:All\r\n" + "MEMBER:a\r\n" * lines + "END:VCARD\r\n"
open(sys.argv[1], "w").write(card)
PY
    ;;
FuzzCSV)
    seeds="$regressions/csv"
    cp Fuzz/Seeds/csv/* "$corpus/"
    find Tests -path '*Fixtures*' -name '*.csv' -size -64k -exec cp {} "$corpus/" \; 2>/dev/null || true ;;
FuzzMigrations)
    seeds="$regressions/migrations"
    cp Fuzz/Seeds/migrations/* "$corpus/" ;;
FuzzDAV)
    seeds="$regressions/dav"
    cp Fuzz/Seeds/dav/* "$corpus/"
    # Many tiny elements, beside the responses and as one's properties.
    python3 - "$corpus/many-elements.xml" "$max_len" <<'PY'
import sys
count = (int(sys.argv[2]) - 300) // 10
head = '<?xml version="1.0"?><d:multistatus xmlns:d="DAV:">' + "<y/>" * count
body = '<d:response><d:href>/c/a.vcf</d:href><d:propstat><d:prop>' + "<x/>" * count
tail = '</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>'
open(sys.argv[1], "w").write(head + body + tail)
PY
    ;;
*) echo "unknown target $target" >&2; exit 64 ;;
esac
mkdir -p "$seeds"
# Swift's own crash handler would exit before libFuzzer saves the input.
export SWIFT_BACKTRACE=enable=no
# An input's time limit grows with the longest input: the instrumented debug
# build reads a multistatus at about 9 µs an element and a card at about
# 38 µs a line, so the longest seeds (200,000 lines at FUZZ_MAX_LEN=2100000)
# take seconds of processor time by design, and on a loaded host several
# times that on the clock the limit reads. A quadratic reader would still
# take hours. The limit reads the clock, so the run keeps the usual
# priority: at nice 19 on a busy host an input of 8 s of processor time
# waited past 600 s and was reported as a hang.
per_input=$((10 + max_len / 5000))
exec timeout $((seconds + per_input + 120)) "$binary" "$corpus" "$seeds" -max_total_time="$seconds" -timeout="$per_input" -rss_limit_mb=2048 \
    -max_len="$max_len" -print_final_stats=1 -artifact_prefix="$crashes/"
