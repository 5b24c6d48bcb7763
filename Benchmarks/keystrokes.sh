#!/usr/bin/env bash
# Search as you type on a realistic catalog: every keystroke of sampled titles, timed in-process
# (ProductSearch, the Keystrokes executable) and through `catalog serve` (one request at a time),
# then `wrk -t2 -c32` on the slowest keystrokes. With --before, another build's server is timed
# on the same keystrokes in the same run (it imports the same file into a catalog of its own layout).
# With --postgres URL, the same file is imported there too and typed through `catalog serve --db URL`
# after the file, for the two engines side by side (same results, see PostgresAgreementTests).
#
#   Benchmarks/keystrokes.sh                                # 1,000,000 realistic products, 1,000 titles
#   Benchmarks/keystrokes.sh --rows 10000000 --titles 300
#   Benchmarks/keystrokes.sh --before e62342a --titles 200
#   Benchmarks/keystrokes.sh --catalog .build-release/release/catalog   # time this build of catalog
#   Benchmarks/keystrokes.sh --catalog NEW --before-catalog OLD         # and that one's server beside it
#   Benchmarks/keystrokes.sh --titles 100 --postgres 'postgres://postgres@/postgres?host=/tmp/pg&port=5499&schema=keystrokes'
#   Benchmarks/keystrokes.sh --languages --titles 200     # words from real word lists of five languages
#   Benchmarks/keystrokes.sh --catalog NEW --before-catalog OLD --pending 10000   # with 1% of a million changed
#
# With --languages, titles draw on Debian's word lists of German, French, Spanish, Italian and
# Polish (`catalog generate --word-list`), dense with near neighbours as real languages are.
# With --pending N, each build types on a copy of its catalog into which one upsert changed N
# products spread through it (a word added to each title, tools/upsert_changes.py): the changes
# an edited catalog holds until they are merged away.
# Installs wrk (and with --languages the word lists) from Debian's packages when missing (as root).
# Files go to $TMPDIR/productcatalog-keystrokes.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
work="${TMPDIR:-/tmp}/productcatalog-keystrokes"
rows=1000000
titles=1000
seed=11
before=""
postgres=""
given=""
before_catalog=""
languages=""
pending=""
while [ $# -gt 0 ]; do
    case "$1" in
        --rows) rows="$2"; shift 2 ;;
        --titles) titles="$2"; shift 2 ;;
        --seed) seed="$2"; shift 2 ;;
        --before) before="$2"; shift 2 ;;
        --postgres) postgres="$2"; shift 2 ;;
        --work) work="$2"; shift 2 ;;
        --catalog) given="$2"; shift 2 ;;
        --before-catalog) before_catalog="$2"; shift 2 ;;
        --languages) languages=yes; shift ;;
        --pending) pending="$2"; shift 2 ;;
        -h|--help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
mkdir -p "$work"
# A given build is known by its bytes, so that its catalog is kept for the next run of the same one.
if [ -n "$before_catalog" ]; then before="given-$(sha1sum "$before_catalog" | cut -c1-12)"; fi
command -v wrk > /dev/null || { apt-get install -y -qq wrk > /dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq wrk; }; }

source "$root/Benchmarks/tools/build-catalog.sh"
builds=(now)
if [ -n "$given" ]; then cp "$given" "$work/catalog-now"; else build_catalog "" now; fi
if [ -n "$before_catalog" ]; then cp "$before_catalog" "$work/catalog-before"; builds+=(before)
elif [ -n "$before" ]; then build_catalog "$before" before; builds+=(before); fi
echo "Building the Keystrokes executable ..." >&2
swift build -c release --package-path "$root/Benchmarks" --product Keystrokes >&2
keys="$root/Benchmarks/.build/release/Keystrokes"

cd "$work"
if [ -n "$languages" ]; then
    lists=(ngerman french spanish italian polish)
    [ -f /usr/share/dict/polish ] || apt-get install -y -qq wngerman wfrench wspanish witalian wpolish > /dev/null
    csv="languages-$rows.csv"
    [ -f "$csv" ] || "$work/catalog-now" generate --rows "$rows" --seed "$seed" --vocabulary realistic \
        "${lists[@]/#/--word-list=/usr/share/dict/}" --output "$csv"
    # The catalogs below are of the file they were made from.
    work_suffix=-languages
else
    csv="realistic-$rows.csv"
    [ -f "$csv" ] || "$work/catalog-now" generate --rows "$rows" --seed "$seed" --vocabulary realistic --output "$csv"
    work_suffix=""
fi
# A catalog is kept for the next run only when the same revision made it (its layout may differ).
echo "$before" > before.wanted
for name in "${builds[@]}"; do
    if [ ! -f "catalog-$name-$rows$work_suffix.sqlite" ] || [ "$name" = now ] || ! cmp -s before.wanted "catalog-$name-$rows$work_suffix.revision"; then
        rm -f "catalog-$name-$rows$work_suffix.sqlite"
        cp before.wanted "catalog-$name-$rows$work_suffix.revision"
        /usr/bin/time -f "%e s, %M KB peak" -o import-$name.time "$work/catalog-$name" import "$csv" --db "catalog-$name-$rows$work_suffix.sqlite" --quiet > /dev/null
        echo "import ($name): $(cat import-$name.time), $(stat -c %s "catalog-$name-$rows$work_suffix.sqlite") bytes"
    fi
done

# The catalog each build is typed on: its import, or a copy of it with the pending changes.
served_suffix="$rows$work_suffix"
if [ -n "$pending" ]; then
    changes="changes-$pending$work_suffix-$rows"
    [ -d "$changes" ] || python3 "$root/Benchmarks/tools/upsert_changes.py" "$csv" "$changes" "$pending" > /dev/null
    for name in "${builds[@]}"; do
        target="catalog-$name-$rows$work_suffix-pending.sqlite"
        rm -f "$target" "$target-wal" "$target-shm" "$target-journal"
        cp "catalog-$name-$rows$work_suffix.sqlite" "$target"
        /usr/bin/time -f "%e s" -o pending-$name.time "$work/catalog-$name" import "$changes/step-01.csv" --db "$target" --mode upsert --json > pending-$name.json
        echo "upsert of $pending changes ($name): $(cat pending-$name.time), $(tail -n 1 pending-$name.json | cut -c1-200)"
    done
    served_suffix="$rows$work_suffix-pending"
fi

if [ -n "$postgres" ]; then
    /usr/bin/time -f "%e s, %M KB peak" -o import-postgres.time "$work/catalog-now" import "$csv" --db "$postgres" --quiet > /dev/null
    echo "import (postgres): $(cat import-postgres.time)"
fi

echo
echo "## In-process ($rows products)"
"$keys" "catalog-now-$served_suffix.sqlite" --titles "$titles" --seed "$seed" | tee inprocess.txt
python3 - "$work/catalog-now-$rows$work_suffix.sqlite" "$titles" "$seed" > titles.txt <<'PY'
import sqlite3, sys
path, wanted, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
con = sqlite3.connect(path)
total = con.execute("select count(*) from products").fetchone()[0]
step = max(1, total // wanted)
picked = []
for index, (title,) in enumerate(con.execute("select title from products order by productId")):
    if index % step == seed % step and title:
        picked.append(title.replace("\n", " "))
    if len(picked) >= wanted:
        break
print("\n".join(picked))
PY

servers=("${builds[@]}")
[ -n "$postgres" ] && servers+=(postgres)
for name in "${servers[@]}"; do
    if [ "$name" = postgres ]; then
        "$work/catalog-now" serve --db "$postgres" --port 0 > serve-$name.out 2>&1 &
    else
        "$work/catalog-$name" serve --db "catalog-$name-$served_suffix.sqlite" --port 0 > serve-$name.out 2>&1 &
    fi
    server=$!
    port=""
    for _ in $(seq 1 100); do
        port="$(sed -n 's/.*127\.0\.0\.1:\([0-9][0-9]*\).*/\1/p' serve-$name.out | head -n 1)"
        [ -n "$port" ] && break
        sleep 0.1
    done
    [ -n "$port" ] || { echo "catalog serve did not start" >&2; cat serve-$name.out >&2; exit 1; }
    echo
    echo "## Through catalog serve ($name)"
    python3 "$root/Benchmarks/tools/type_titles.py" "$port" titles.txt --slowest 3 | tee typed-$name.txt
    if [ "$name" = now ]; then grep '^slow:' typed-now.txt | cut -f2 > slowest.txt; fi
    while IFS= read -r text; do
        query="$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1]))' "$text")"
        echo "wrk -t2 -c32 -d8s q=$text ($name):"
        wrk -t2 -c32 -d8s --latency "http://127.0.0.1:$port/api/products?q=$query" | grep -E 'Requests/sec|50%|99%|Socket errors|Non-2xx' | sed 's/^/    /'
    done < slowest.txt
    kill "$server"
    wait "$server" 2>/dev/null || true
done
