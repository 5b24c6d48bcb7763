#!/usr/bin/env bash
# A stock import into PostgreSQL next to psql's `\copy` of the same file, and next to the same
# import into a catalog file, in one run:
#
#     Benchmarks/postgres-stock.sh --catalog BIN --postgres URL [--rows 200000] [--stores 10] [--runs 3] [--before BIN]
#
# BIN is a release `catalog`; URL a server this user may create schemas on (postgres://…, without
# `schema=`): the script uses the schemas `stock_bench` and `stock_bench_before` and drops them at the end.
# It generates --rows products and a Google local inventory feed putting each at --stores stores
# (Benchmarks/tools/stock_feed.py), imports the products once into each catalog, then for each run,
# in turn:
#   - psql: `\copy` of the stock file into a plain table, then its primary key (id, store_code) and
#     the partial index (store_code, id) WHERE quantity > 0 a catalog keeps ("\copy + indexes");
#   - `catalog import-stock FILE --db URL&schema=stock_bench` (a replacing import of the whole stock);
#   - the same into a catalog file (a copy of one holding the products);
#   - with --before, the earlier build into `stock_bench_before`.
# Prints every run's seconds and the medians, with the catalog's ratio to \copy + indexes.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="${TMPDIR:-/tmp}/productcatalog-postgres-stock"
catalog="" url="" before="" rows=200000 stores=10 runs=3
while [ $# -gt 0 ]; do
    case "$1" in
        --catalog) catalog="$(readlink -f "$2")"; shift 2 ;;
        --postgres) url="$2"; shift 2 ;;
        --before) before="$(readlink -f "$2")"; shift 2 ;;
        --rows) rows="$2"; shift 2 ;;
        --stores) stores="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
[ -x "$catalog" ] && [ -n "$url" ] || { echo "give --catalog BIN and --postgres URL (see --help)" >&2; exit 2; }
case "$url" in *\?*) join="&" ;; *) join="?" ;; esac
psql_url="$url"
mkdir -p "$work"
cd "$work"
products="plain-$rows.csv"
stock="stock-$rows-$stores.csv"
[ -f "$products" ] || "$catalog" generate --rows "$rows" --seed 1 --output "$products" > /dev/null
[ -f "$stock" ] || python3 "$root/Benchmarks/tools/stock_feed.py" "$products" "$stores" "$stock"
sql() { PGOPTIONS="-c client_min_messages=warning" psql "$psql_url" -q -v ON_ERROR_STOP=1 -c "$1" > /dev/null; }
cleanup() { sql "DROP SCHEMA IF EXISTS stock_bench CASCADE; DROP SCHEMA IF EXISTS stock_bench_before CASCADE; DROP TABLE IF EXISTS public.stock_bench_copy"; }
trap cleanup EXIT
cleanup
"$catalog" import "$products" --db "$url${join}schema=stock_bench" --quiet > /dev/null
[ -z "$before" ] || "$before" import "$products" --db "$url${join}schema=stock_bench_before" --quiet > /dev/null
rm -f products.sqlite*
"$catalog" import "$products" --db products.sqlite --quiet > /dev/null
echo "# $rows products, $stores stores: $(($(wc -l < "$stock") - 1)) stock rows ($(stat -c %s "$stock") bytes), $(date -u +%Y-%m-%dT%H:%MZ), $(git -C "$root" rev-parse --short HEAD), $(nproc) cores"
echo
seconds() { local start end; start=$(date +%s.%N); "$@" > /dev/null; end=$(date +%s.%N); echo "$end - $start" | bc; }
declare -A times
tools=(copy postgres file)
[ -z "$before" ] || tools+=(before)
for run in $(seq 1 "$runs"); do
    # The first tool rotates from run to run.
    for offset in $(seq 0 $((${#tools[@]} - 1))); do
        tool=${tools[$(((run + offset) % ${#tools[@]}))]}
        case "$tool" in
        copy)
            sql "DROP TABLE IF EXISTS public.stock_bench_copy; CREATE TABLE public.stock_bench_copy (store_code text, id text, quantity bigint, availability text)"
            t=$(seconds psql "$psql_url" -q -v ON_ERROR_STOP=1 -c "\\copy public.stock_bench_copy FROM '$stock' CSV HEADER" \
                -c "ALTER TABLE public.stock_bench_copy ADD PRIMARY KEY (id, store_code)" \
                -c "CREATE INDEX ON public.stock_bench_copy (store_code, id) WHERE quantity > 0") ;;
        postgres) t=$(seconds "$catalog" import-stock "$stock" --db "$url${join}schema=stock_bench" --rejects rejects.csv --quiet) ;;
        before) t=$(seconds "$before" import-stock "$stock" --db "$url${join}schema=stock_bench_before" --rejects rejects-before.csv --quiet) ;;
        file)
            cp products.sqlite stock.sqlite
            t=$(seconds "$catalog" import-stock "$stock" --db stock.sqlite --quiet) ;;
        esac
        times[$tool]="${times[$tool]:-} $t"
        printf 'run %d  %-9s %6.2f s\n' "$run" "$tool" "$t"
    done
done
median() { tr ' ' '\n' <<< "$1" | grep -v '^$' | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo
echo "| | median (s) | × psql \\copy + indexes |"
echo "|---|---:|---:|"
base=$(median "${times[copy]}")
for tool in "${tools[@]}"; do
    m=$(median "${times[$tool]}")
    label=$tool
    case $tool in
        copy) label='psql `\copy` + primary key + store index' ;;
        postgres) label='`catalog import-stock` into PostgreSQL' ;;
        before) label='the earlier build, into PostgreSQL' ;;
        file) label='`catalog import-stock` into a catalog file' ;;
    esac
    printf '| %s | %.2f | %.2f |\n' "$label" "$m" "$(echo "$m / $base" | bc -l)"
done
