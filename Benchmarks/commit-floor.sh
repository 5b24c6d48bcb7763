#!/usr/bin/env bash
# The fixed cost of a small write to a large catalog: one product's price changed, on a fresh
# synced copy of DB each time (the page cache warm, as on a server that just searched it), under
# `strace -f -tt -T`, by
#   - the sqlite3 shell, under the journal modes DELETE, TRUNCATE, PERSIST and WAL, and DELETE
#     with `secure_delete = FAST` (Debian's SQLite zeroes every freed page by default);
#   - `catalog import ONE.csv --mode upsert` (its own settings: DELETE, synchronous FULL).
# Prints, per run: wall time, the time in fsync/fdatasync, in unlink and ftruncate, the journal's
# size at its largest, and how long the process took to start and to exit.
#
#   Benchmarks/commit-floor.sh --db /tmp/productcatalog-upserts/base-now.sqlite \
#       --changes /tmp/productcatalog-upserts/changes-plain-10000000-1000.csv --catalog .build-release/release/catalog
#
# Files go to $TMPDIR/productcatalog-floor (a copy of DB: as much free disk as DB takes).
set -euo pipefail

db=""
changes=""
catalog=""
repeats=2
work="${TMPDIR:-/tmp}/productcatalog-floor"
while [ $# -gt 0 ]; do
    case "$1" in
        --db) db="$2"; shift 2 ;;
        --changes) changes="$2"; shift 2 ;;
        --catalog) catalog="$2"; shift 2 ;;
        --repeats) repeats="$2"; shift 2 ;;
        --work) work="$2"; shift 2 ;;
        -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
[ -n "$db" ] && [ -n "$changes" ] && [ -n "$catalog" ] || { echo "--db, --changes and --catalog are needed (see --help)" >&2; exit 2; }
command -v strace > /dev/null || apt-get install -y -qq strace > /dev/null
mkdir -p "$work"
head -2 "$changes" > "$work/one.csv"
id=$(python3 -c 'import csv,sys; r=csv.reader(open(sys.argv[1])); next(r); print(next(r)[0])' "$work/one.csv")

# Sums the strace of one run: wall, syncs, unlink/ftruncate, start (to the catalog's open) and exit.
summarize() {
    python3 - "$1" "$2" <<'PY'
import re, sys
path, db = sys.argv[1], sys.argv[2]
def seconds(stamp):
    h, m, s = stamp.split(":")
    return int(h) * 3600 + int(m) * 60 + float(s)
first = last = opened = exited = None
sync = unlink = trunc = 0.0
syncs = 0
for line in open(path):
    m = re.match(r"(\d+\s+)?(\d+:\d+:\d+\.\d+) (.*)", line)
    if not m:
        continue
    t, rest = seconds(m.group(2)), m.group(3)
    first = t if first is None else first
    last = t
    took = re.search(r"<(\d+\.\d+)>\s*$", rest)
    took = float(took.group(1)) if took else 0.0
    if rest.startswith(("fsync", "fdatasync")):
        sync += took; syncs += 1
    elif rest.startswith(("unlink", "unlinkat")):
        unlink += took
    elif rest.startswith("ftruncate"):
        trunc += took
    elif rest.startswith("openat") and db in rest and opened is None and "-journal" not in rest and "-wal" not in rest:
        opened = t
    elif rest.startswith("exit_group"):
        exited = t
print("%.3f | %.3f (%d) | %.3f | %.3f | %.3f | %.3f" % (last - first, sync, syncs, unlink, trunc,
      (opened or first) - first, last - (exited or last)))
PY
}

echo "## One product's price changed in $(basename "$db") ($(stat -L -c %s "$db") bytes), $repeats runs each"
echo
echo "| writer | journal | wall (s) | fsync/fdatasync (s, calls) | unlink (s) | ftruncate (s) | to the open (s) | exit (s) |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
run() {
    local label="$1" mode="$2"; shift 2
    cp -L "$db" "$work/floor.sqlite"
    rm -f "$work/floor.sqlite-journal" "$work/floor.sqlite-wal" "$work/floor.sqlite-shm"
    sync
    strace -f -tt -T -e trace=openat,fsync,fdatasync,unlink,unlinkat,ftruncate,exit_group -o "$work/trace.txt" "$@" > /dev/null
    echo "| $label | $mode | $(summarize "$work/trace.txt" floor.sqlite) |"
}
for _ in $(seq 1 "$repeats"); do
    for mode in DELETE TRUNCATE PERSIST WAL; do
        run "sqlite3 shell" "$mode" sqlite3 "$work/floor.sqlite" \
            "PRAGMA journal_mode = $mode; PRAGMA synchronous = FULL; UPDATE products SET listPriceMilli = listPriceMilli + 1000 WHERE productId = '$id';"
    done
    run "sqlite3 shell" "DELETE, secure_delete FAST" sqlite3 "$work/floor.sqlite" \
        "PRAGMA journal_mode = DELETE; PRAGMA secure_delete = FAST; PRAGMA synchronous = FULL; UPDATE products SET listPriceMilli = listPriceMilli + 1000 WHERE productId = '$id';"
    run "catalog import --mode upsert" "DELETE (its own)" "$catalog" import "$work/one.csv" --db "$work/floor.sqlite" --mode upsert --quiet
done
rm -f "$work/floor.sqlite" "$work/floor.sqlite-journal" "$work/floor.sqlite-wal" "$work/floor.sqlite-shm"
