#!/usr/bin/env bash
# Loading a product CSV into PostgreSQL: `catalog import` next to psql's `\copy` (and pgloader,
# when it is on PATH), in a throwaway cluster of their own:
#
#     Benchmarks/postgres.sh CATALOG FILE.csv [RUNS]
#
# CATALOG is a `catalog` executable (a release build). With PG_BENCH_BEFORE=OTHER_CATALOG (an
# earlier build, say the previous commit's), that one runs too, in turn with the others, into a
# schema of its own: before and after a change, side by side in one run.
#
# Run as root: the script makes a cluster in a fresh temporary folder with initdb and pg_ctl (as
# the postgres user, Unix socket only, port $PG_BENCH_PORT or 5544, default durability settings),
# creates database `bench`, and stops and deletes the cluster on exit. For each run, each tool in
# turn (the first one rotating from run to run), on an empty database after a CHECKPOINT:
#   - `catalog import FILE --db postgres:///bench?... --quiet`, the whole command: COPY of the rows
#     and their folded words into a new table, a unique index on lower("productId"), a GIN index
#     on the words, the swap;
#   - psql: `\copy` into a plain table of six text columns, then `CREATE UNIQUE INDEX` on
#     "productId" (the \copy alone and the two together), then the word index the catalog also
#     builds, a GIN index on to_tsvector('simple', title) (all three: "\copy + both indexes");
#   - pgloader, the same plain table and index (left out, saying why, when it is not on PATH or
#     fails).
# Prints the machine, the file's rows, every run's times and row counts, then the median seconds
# of each and its ratio to \copy + index, and the catalog's ratio to \copy + both indexes (and to
# the earlier build). Exits 1 if the catalog's products and the \copy's rows differ in number.
set -euo pipefail
catalog=$1 file=$2 runs=${3:-3}
port=${PG_BENCH_PORT:-5544}
file=$(readlink -f "$file")
catalog=$(readlink -f "$catalog")
[[ -r "$file" ]] || { echo "cannot read $file" >&2; exit 2; }

scratch=$(mktemp -d)
chown postgres "$scratch"
stop() {
    if [[ -f "$scratch/data/postmaster.pid" ]]; then
        runuser -u postgres -- pg_ctl -D "$scratch/data" -m fast -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$scratch"
}
trap stop EXIT

runuser -u postgres -- initdb -D "$scratch/data" -A trust -U postgres >"$scratch/initdb.log" 2>&1 \
    || { cat "$scratch/initdb.log" >&2; exit 1; }
runuser -u postgres -- pg_ctl -D "$scratch/data" -l "$scratch/data/server.log" \
    -o "-k $scratch -p $port -c listen_addresses='' -c log_min_duration_statement=200" -w start >/dev/null \
    || { cat "$scratch/data/server.log" >&2; exit 1; }
export PGUSER=postgres
url="postgres:///bench?host=$scratch&port=$port"
sql() { psql -X -q -v ON_ERROR_STOP=1 -h "$scratch" -p "$port" -d "${db:-bench}" "$@"; }
db=postgres sql -c 'CREATE DATABASE bench'

plain='CREATE TABLE plain ("productId" text, title text, "listPrice" text, "salesPrice" text, color text, size text)'
index='CREATE UNIQUE INDEX ON plain ("productId")'
words='CREATE INDEX ON plain USING gin (to_tsvector('"'simple'"', coalesce(title, '"''"')))'
reset() {
    sql -c 'SET client_min_messages = warning' \
        -c 'DROP TABLE IF EXISTS products, products_importing, catalog_edits, catalog_favorites, plain' -c 'CHECKPOINT'
}
count() { sql -Atc "SELECT count(*) FROM $1"; }

loader=$(command -v pgloader || true)
if [[ -n "$loader" ]]; then
    mkdir -p "$scratch/pgloader"  # its logs and working files, which would otherwise go to /tmp/pgloader
    loader_note="pgloader: $("$loader" --root-dir "$scratch/pgloader" --version 2>&1 | sed -n 1p)"
    # The file's own header names the columns (it must have these six, in this order).
    cat >"$scratch/load.pgl" <<EOF
LOAD CSV
  FROM '$file' ("productId", title, "listPrice", "salesPrice", color, size)
  INTO postgresql://postgres@unix:$scratch:$port/bench
  TARGET TABLE plain
  WITH skip header = 1, fields optionally enclosed by '"', fields escaped by double-quote, fields terminated by ','
  BEFORE LOAD DO \$\$ $plain \$\$;
EOF
else
    loader_note="pgloader: not available (not on PATH)"
fi

echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(free -g | awk '/^Mem:/ {print $2}') GB;" \
    "PostgreSQL $(sql -Atc 'SHOW server_version'), fsync $(sql -Atc 'SHOW fsync')," \
    "synchronous_commit $(sql -Atc 'SHOW synchronous_commit'), shared_buffers $(sql -Atc 'SHOW shared_buffers')," \
    "maintenance_work_mem $(sql -Atc 'SHOW maintenance_work_mem'), max_wal_size $(sql -Atc 'SHOW max_wal_size')"
echo "file: $file, $(du -h "$file" | cut -f1), $(( $(wc -l <"$file") - 1 )) rows (lines after the header)"
echo "$loader_note"

now() { date +%s.%N; }
declare -A times
record() { times[$1]="${times[$1]:-} $2"; }
mismatch=0

# Times `BINARY import FILE --db TARGET` as NAME; stops the script, saying why, if it fails.
# Adds to the run's line the import's own CPU time and, from the server's log, each statement of
# it that took over 0.2 s (an ANALYZE's time includes its wait for the word index to finish).
timed_import() {
    local name=$1 binary=$2 target=$3 start end logged
    logged=$(wc -l <"$scratch/data/server.log")
    start=$(now)
    if ! /usr/bin/time -f '%U %S' -o "$scratch/cpu" "$binary" import "$file" --db "$target" --quiet >/dev/null 2>"$scratch/import.err"; then
        echo "$name failed:" >&2; cat "$scratch/import.err" >&2; exit 1
    fi
    end=$(now)
    record "$name" "$(echo "$end - $start" | bc)"
    line+=" $name $(printf %.2f "$(echo "$end - $start" | bc)") s [its CPU $(awk '{printf "%.2f", $1 + $2}' "$scratch/cpu") s; server:"
    line+=$(tail -n +"$((logged + 1))" "$scratch/data/server.log" | awk '
        /duration: .* ms/ {
            match($0, /duration: [0-9.]+/); ms = substr($0, RSTART + 10, RLENGTH - 10)
            what = /COPY/ ? "COPY" : /CREATE UNIQUE INDEX/ ? "key index" : /USING gin/ ? "word index" : /ANALYZE/ ? "ANALYZE" : "other"
            printf " %s %.2f s,", what, ms / 1000
        }')
    line="${line%,}]"
}
run_catalog() {
    reset
    timed_import "catalog import" "$catalog" "$url"
    catalog_rows=$(count products)
    line+=" ($catalog_rows products);"
}
run_before() {
    [[ -n "${PG_BENCH_BEFORE:-}" ]] || return 0
    sql -c 'DROP SCHEMA IF EXISTS before CASCADE' -c 'CHECKPOINT' >/dev/null 2>&1
    timed_import "earlier catalog import" "$PG_BENCH_BEFORE" "$url&schema=before"
    line+=";"
    sql -c 'DROP SCHEMA before CASCADE' >/dev/null 2>&1
}
run_copy() {
    reset
    local start middle end
    start=$(now)
    sql -c "$plain" -c "\\copy plain FROM '$file' WITH (FORMAT csv, HEADER true)"
    middle=$(now)
    sql -c "$index"
    end=$(now)
    sql -c 'SET maintenance_work_mem = '"'256MB'" -c "$words"
    last=$(now)
    record "\\copy" "$(echo "$middle - $start" | bc)"
    record "\\copy + index" "$(echo "$end - $start" | bc)"
    record "\\copy + both indexes" "$(echo "$last - $start" | bc)"
    copy_rows=$(count plain)
    line+=" \\copy $(printf %.2f "$(echo "$middle - $start" | bc)") s + index $(printf %.2f "$(echo "$end - $middle" | bc)") s"
    line+=" + word index $(printf %.2f "$(echo "$last - $end" | bc)") s ($copy_rows rows);"
}
run_pgloader() {
    [[ -n "$loader" ]] || return 0
    reset
    local start middle end
    start=$(now)
    if ! (cd "$scratch/pgloader" && "$loader" --root-dir "$scratch/pgloader" "$scratch/load.pgl") >"$scratch/pgloader.out" 2>&1; then
        loader_note="pgloader: failed, left out: $(grep -m1 -iE 'error|fatal|heap' "$scratch/pgloader.out" || tail -1 "$scratch/pgloader.out")"
        echo "$loader_note" >&2; tail -20 "$scratch/pgloader.out" >&2
        loader=""
        return 0
    fi
    middle=$(now)
    sql -c "$index"
    end=$(now)
    record "pgloader" "$(echo "$middle - $start" | bc)"
    record "pgloader + index" "$(echo "$end - $start" | bc)"
    line+=" pgloader $(printf %.2f "$(echo "$middle - $start" | bc)") s + index $(printf %.2f "$(echo "$end - $middle" | bc)") s ($(count plain) rows);"
}

tools=(run_catalog run_copy run_pgloader run_before)
for run in $(seq "$runs"); do
    line="run $run:"
    for i in "${!tools[@]}"; do "${tools[$(( (i + run - 1) % ${#tools[@]} ))]}"; done
    echo "$line"
    if [[ "$catalog_rows" != "$copy_rows" ]]; then
        echo "  MISMATCH: catalog products $catalog_rows, \\copy rows $copy_rows"
        mismatch=1
    fi
done
reset

median() { printf '%s\n' $1 | sort -g | awk '{v[NR]=$1} END {print (NR % 2 ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2)}'; }
base=$(median "${times[\\copy + index]}")
echo
echo "| $(( $(wc -l <"$file") - 1 )) rows, $runs runs | median s | × \\copy + index |"
echo "|---|---:|---:|"
for key in "catalog import" "earlier catalog import" "\\copy" "\\copy + index" "\\copy + both indexes" "pgloader" "pgloader + index"; do
    [[ -n "${times[$key]:-}" ]] || continue
    m=$(median "${times[$key]}")
    printf '| %s | %.2f | %.2f |\n' "$key" "$m" "$(echo "$m / $base" | bc -l)"
done
echo
printf 'catalog import ÷ (\\copy + index): %.2f\n' "$(echo "$(median "${times[catalog import]}") / $base" | bc -l)"
printf 'catalog import ÷ (\\copy + both indexes): %.2f\n' "$(echo "$(median "${times[catalog import]}") / $(median "${times[\\copy + both indexes]}")" | bc -l)"
[[ -z "${times[earlier catalog import]:-}" ]] ||
    printf 'catalog import ÷ earlier catalog import: %.2f\n' "$(echo "$(median "${times[catalog import]}") / $(median "${times[earlier catalog import]}")" | bc -l)"
echo "row counts (last run): catalog products $catalog_rows, \\copy $copy_rows: $([[ $mismatch == 0 ]] && echo equal in every run || echo DIFFERENT)"
[[ -n "$loader" ]] || echo "$loader_note"
exit "$mismatch"
