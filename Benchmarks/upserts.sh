#!/usr/bin/env bash
# Upserts of 1,000, 10,000 and 100,000 changed products into a catalog of --rows products, this
# build against --before REV, alternating, each run on a fresh, synced copy of the catalog that
# build's own import made of the same file (its own layout and page size; the page cache warm, as
# on a server that just searched it). Prints wall time, CPU and system time, peak memory and the
# most disk the upsert used beside the catalog (its -journal or its .importing copy, sampled every 20 ms).
#
#   Benchmarks/upserts.sh --before 0316287                          # 1,000,000 plain generated products
#   Benchmarks/upserts.sh --before 0316287 --rows 10000000 --vocabulary realistic
#   Benchmarks/upserts.sh --before-catalog /path/to/catalog           # a release binary already built
#   Benchmarks/upserts.sh --catalog NEW --before-catalog OLD          # both already built
#
# Files go to $TMPDIR/productcatalog-upserts; the catalogs are kept for the next run.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
work="${TMPDIR:-/tmp}/productcatalog-upserts"
rows=1000000
vocabulary=plain
before=""
before_catalog=""
given=""
changes=(1000 10000 100000)
repeats=2
while [ $# -gt 0 ]; do
    case "$1" in
        --rows) rows="$2"; shift 2 ;;
        --vocabulary) vocabulary="$2"; shift 2 ;;
        --before) before="$2"; shift 2 ;;
        --before-catalog) before_catalog="$2"; shift 2 ;;
        --catalog) given="$2"; shift 2 ;;
        --changes) IFS=, read -r -a changes <<< "$2"; shift 2 ;;
        --repeats) repeats="$2"; shift 2 ;;
        --work) work="$2"; shift 2 ;;
        -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
mkdir -p "$work"
source "$root/Benchmarks/tools/build-catalog.sh"
builds=(now)
if [ -n "$given" ]; then cp "$given" "$work/catalog-now"; else build_catalog "" now; fi
if [ -n "$before" ]; then build_catalog "$before" before; builds=(before now); fi
if [ -n "$before_catalog" ]; then cp "$before_catalog" "$work/catalog-before"; builds=(before now); fi

cd "$work"
csv="$vocabulary-$rows.csv"
# "plain" is the generator's default vocabulary, `sample`.
[ -f "$csv" ] || ./catalog-now generate --rows "$rows" --seed 21 --vocabulary "${vocabulary/plain/sample}" --output "$csv"
# Each build imports the file into a catalog of its own, kept for the next run of the same binary.
for name in "${builds[@]}"; do
    base="base-$(sha1sum "catalog-$name" | cut -c1-12)-$vocabulary-$rows.sqlite"
    [ -f "$base" ] || ./catalog-$name import "$csv" --db "$base" --quiet > /dev/null
    ln -sf "$base" "base-$name.sqlite"
done

# K rows spread over the file, each with a new list price and a word added to its title.
for count in "${changes[@]}"; do
    [ -f "changes-$vocabulary-$rows-$count.csv" ] || python3 - "$csv" "$rows" "$count" > "changes-$vocabulary-$rows-$count.csv" <<'PY'
import csv, sys
path, total, wanted = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
step = max(1, total // wanted)
with open(path, newline="", encoding="utf-8") as source:
    reader = csv.reader(source)
    header = next(reader)
    title, price = header.index("title"), header.index("listPrice")
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow(header)
    written = 0
    for index, row in enumerate(reader):
        if index % step == 0 and written < wanted:
            row[title] = row[title] + " Renewed"
            row[price] = "%.2f" % (float(row[price] or 0) + 1)
            writer.writerow(row)
            written += 1
PY
done

# The most bytes the files beside `db` held while process `pid` ran.
watch_disk() {
    local db="$1" pid="$2" most=0 now
    while kill -0 "$pid" 2> /dev/null; do
        now=$(( $(stat -c %s "$db-journal" 2> /dev/null || echo 0) + $(stat -c %s "$db.importing" 2> /dev/null || echo 0) ))
        [ "$now" -gt "$most" ] && most=$now
        sleep 0.02
    done
    echo "$most"
}

echo "## Upserts into $rows $vocabulary products, ${builds[*]} alternating"
echo
for name in "${builds[@]}"; do
    echo "- $name: $(stat -L -c %s "base-$name.sqlite") bytes, pages of $(sqlite3 "base-$name.sqlite" 'PRAGMA page_size') bytes"
done
echo
echo "| build | changed products | wall (s) | CPU (s) | system (s) | peak RSS (MB) | disk beside the catalog (MB) | added / updated |"
echo "|---|---:|---:|---:|---:|---:|---:|---|"
for count in "${changes[@]}"; do
    for _ in $(seq 1 "$repeats"); do
        for name in "${builds[@]}"; do
            cp -L "base-$name.sqlite" upsert.sqlite
            rm -f upsert.sqlite-journal upsert.sqlite.importing
            sync
            /usr/bin/time -f "%e %U %S %M" -o upsert.time ./catalog-$name import "changes-$vocabulary-$rows-$count.csv" --db upsert.sqlite --mode upsert --json > upsert.out &
            job=$!
            disk=$(watch_disk upsert.sqlite "$job")
            wait "$job"
            read -r wall user system rss < upsert.time
            outcome=$(python3 -c 'import json,sys; e=[json.loads(l) for l in open("upsert.out")][-1]; print("%d / %d" % (e["rowsInserted"]-e["rowsUpdated"], e["rowsUpdated"]))')
            printf "| %s | %s | %s | %s | %s | %d | %.1f | %s |\n" "$name" "$count" "$wall" "$user" "$system" $((rss / 1024)) "$(echo "$disk / 1048576" | bc -l)" "$outcome"
        done
    done
done
rm -f upsert.sqlite upsert.sqlite-journal
