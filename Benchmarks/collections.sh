#!/usr/bin/env bash
# Collections browsed side by side with searches: a generated catalog of --rows products imported
# by this build, then (CollectionBrowsing, in-process) a manual collection of --members random products
# and one of 100 made with the library, and the first page of 20 with its count, page 1,000, a word
# in the collection, a sort and the facet counts timed beside the whole catalog and a word search.
#
#   Benchmarks/collections.sh                         # 1,000,000 products, a collection of 100,000
#   Benchmarks/collections.sh --rows 100000 --members 10000
#
# Files go to $TMPDIR/productcatalog-collections (the CSV is kept for the next run).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
work="${TMPDIR:-/tmp}/productcatalog-collections"
rows=1000000
members=100000
runs=21
while [ $# -gt 0 ]; do
    case "$1" in
        --rows) rows="$2"; shift 2 ;;
        --members) members="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --work) work="$2"; shift 2 ;;
        -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
mkdir -p "$work"
source "$root/Benchmarks/tools/build-catalog.sh"
build_catalog "" now
echo "Building CollectionBrowsing ..." >&2
swift build -c release --package-path "$root/Benchmarks" --product CollectionBrowsing >&2
bin="$(swift build -c release --package-path "$root/Benchmarks" --show-bin-path)"

cd "$work"
products="plain-$rows.csv"
[ -f "$products" ] || "$work/catalog-now" generate --rows "$rows" --seed 1 --output "$products"
echo "# $rows products ($(stat -L -c %s "$products") bytes), a collection of $members, $(date -u +%Y-%m-%dT%H:%MZ), $(git -C "$root" rev-parse --short HEAD)"
echo
rm -f catalog.sqlite
"$work/catalog-now" import "$products" --db catalog.sqlite --quiet > /dev/null
"$bin/CollectionBrowsing" catalog.sqlite --members "$members" --runs "$runs"
