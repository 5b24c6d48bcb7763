#!/usr/bin/env bash
# Stock by store, side by side with the product import: a generated catalog of --rows products,
# a Google local inventory feed putting each at --stores stores (rows grouped by store, products
# shuffled), the product import and the stock import of this build timed in one run (wall, CPU,
# peak memory), then the store filters in-process (StoreFilters).
#
#   Benchmarks/stock.sh                          # 1,000,000 products × 20 stores
#   Benchmarks/stock.sh --rows 100000 --stores 5
#
# Files go to $TMPDIR/productcatalog-stock (the CSVs are kept for the next run).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
work="${TMPDIR:-/tmp}/productcatalog-stock"
rows=1000000
stores=20
runs=21
while [ $# -gt 0 ]; do
    case "$1" in
        --rows) rows="$2"; shift 2 ;;
        --stores) stores="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --work) work="$2"; shift 2 ;;
        -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
mkdir -p "$work"
source "$root/Benchmarks/tools/build-catalog.sh"
build_catalog "" now
echo "Building StoreFilters ..." >&2
swift build -c release --package-path "$root/Benchmarks" --product StoreFilters >&2
bin="$(swift build -c release --package-path "$root/Benchmarks" --show-bin-path)"

cd "$work"
products="plain-$rows.csv"
stock="stock-$rows-$stores.csv"
[ -f "$products" ] || "$work/catalog-now" generate --rows "$rows" --seed 1 --output "$products"
[ -f "$stock" ] || python3 "$root/Benchmarks/tools/stock_feed.py" "$products" "$stores" "$stock"
echo "# $rows products ($(stat -c %s "$products") bytes), $stores stores: $((rows * stores)) stock rows ($(stat -c %s "$stock") bytes), $(date -u +%Y-%m-%dT%H:%MZ), $(git -C "$root" rev-parse --short HEAD)"
echo
echo "| step | rows | wall (s) | user (s) | sys (s) | peak RSS (MB) | catalog after (MB) |"
echo "|---|---:|---:|---:|---:|---:|---:|"
rm -f catalog.sqlite catalog.sqlite.stock-rejects.csv
/usr/bin/time -f "%e %U %S %M" -o products.time "$work/catalog-now" import "$products" --db catalog.sqlite --quiet > /dev/null
read -r wall user sys peak < products.time
printf '| catalog import | %d | %.2f | %.2f | %.2f | %d | %d |\n' "$rows" "$wall" "$user" "$sys" $((peak / 1024)) $(($(stat -c %s catalog.sqlite) / 1048576))
/usr/bin/time -f "%e %U %S %M" -o stock.time "$work/catalog-now" import-stock "$stock" --db catalog.sqlite --quiet > /dev/null
read -r wall user sys peak < stock.time
printf '| catalog import-stock | %d | %.2f | %.2f | %.2f | %d | %d |\n' $((rows * stores)) "$wall" "$user" "$sys" $((peak / 1024)) $(($(stat -c %s catalog.sqlite) / 1048576))
echo
"$bin/StoreFilters" catalog.sqlite --runs "$runs"
