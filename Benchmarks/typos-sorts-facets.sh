#!/usr/bin/env bash
# Typos, sorts and facets on a realistic catalog, in-process:
# - every keystroke of sampled titles typed with one typo (two neighbouring letters swapped in a
#   word of 5 or more letters), beside the same titles typed correctly (Keystrokes);
# - first pages in each sort order and page 1,000 for no query, common, rare and middling words,
#   and the facet counts of the whole catalog (SortsAndFacets);
# - with --before REV, what the structures these need cost the import: REV's build imports the
#   same file, alternating with this one (--pairs times), and the size of each structure.
#
#   Benchmarks/typos-sorts-facets.sh                                  # 1,000,000 realistic products
#   Benchmarks/typos-sorts-facets.sh --before d2b5992 --pairs 2
#   Benchmarks/typos-sorts-facets.sh --rows 10000000 --titles 300
#
# Files go to $TMPDIR/productcatalog-typos (the CSV and catalogs are kept for the next run).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
work="${TMPDIR:-/tmp}/productcatalog-typos"
rows=1000000
titles=1000
seed=11
before=""
pairs=1
while [ $# -gt 0 ]; do
    case "$1" in
        --rows) rows="$2"; shift 2 ;;
        --titles) titles="$2"; shift 2 ;;
        --seed) seed="$2"; shift 2 ;;
        --before) before="$2"; shift 2 ;;
        --pairs) pairs="$2"; shift 2 ;;
        --work) work="$2"; shift 2 ;;
        -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
mkdir -p "$work"
source "$root/Benchmarks/tools/build-catalog.sh"
build_catalog "" now
if [ -n "$before" ]; then build_catalog "$before" before; fi
echo "Building Keystrokes and SortsAndFacets ..." >&2
swift build -c release --package-path "$root/Benchmarks" --product Keystrokes >&2
swift build -c release --package-path "$root/Benchmarks" --product SortsAndFacets >&2
bin="$(swift build -c release --package-path "$root/Benchmarks" --show-bin-path)"

cd "$work"
csv="realistic-$rows.csv"
[ -f "$csv" ] || "$work/catalog-now" generate --rows "$rows" --seed "$seed" --vocabulary realistic --output "$csv"
echo "# $rows realistic products ($(stat -c %s "$csv") bytes of CSV), $(date -u +%Y-%m-%dT%H:%MZ), $(git -C "$root" rev-parse --short HEAD)"

echo
echo "## Import"
names=(now)
[ -n "$before" ] && names+=(before)
for pair in $(seq 1 "$pairs"); do
    for name in "${names[@]}"; do
        rm -f "catalog-$name-$rows.sqlite"
        /usr/bin/time -f "%e %U %S %M" -o "import-$name.time" "$work/catalog-$name" import "$csv" --db "catalog-$name-$rows.sqlite" --quiet > /dev/null
        read -r wall user sys peak < "import-$name.time"
        printf '%-7s pair %d: %7.2f s wall, %6.2f s user, %5.2f s sys, %4d MB peak, %5d MB file\n' \
            "$name" "$pair" "$wall" "$user" "$sys" $((peak / 1024)) $(($(stat -c %s "catalog-$name-$rows.sqlite") / 1048576))
    done
done
echo "What the structures of sorts and facets take in this build's file (dbstat):"
sqlite3 "catalog-now-$rows.sqlite" "SELECT printf('    %-22s %6.1f MB', name, sum(pgsize) / 1048576.0) FROM dbstat
    WHERE name IN ('facet_values', 'sort_lists', 'products_price', 'products_title') GROUP BY name ORDER BY name"
echo "    (typos read the term list, which the word index already had: nothing added)"

echo
echo "## Keystrokes, one typo each"
"$bin/Keystrokes" "catalog-now-$rows.sqlite" --titles "$titles" --seed "$seed" --typo --slowest 8
echo
echo "## Keystrokes, the same titles as written"
"$bin/Keystrokes" "catalog-now-$rows.sqlite" --titles "$titles" --seed "$seed" --slowest 4

echo
"$bin/SortsAndFacets" "catalog-now-$rows.sqlite"
