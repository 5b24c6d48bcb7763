#!/usr/bin/env bash
# Times `catalog import` against the sqlite3 shell's tuned `.import` on the same generated file,
# alternating the two, and prints a Markdown table. Linux only (GNU time's -v report).
#
#   Benchmarks/compare.sh                      # 1,000,000 rows, 5 runs of each
#   Benchmarks/compare.sh --10m --runs 3       # 10,000,000 rows
#   Benchmarks/compare.sh --with-sqlite-utils  # also one run of sqlite-utils insert
#   Benchmarks/compare.sh --vocabulary realistic --with-fts5 --with-duckdb --runs 3
#
# Run it on an otherwise idle machine: the report says how much CPU other processes used while
# the runs were timed, so that a busy run can be recognised.
set -euo pipefail

usage() {
    cat <<'EOF'
Usage: Benchmarks/compare.sh [options]

Builds `catalog` in release mode, generates a product CSV, then imports it alternately with
`catalog import` (its defaults: progress on) and with the sqlite3 shell (journal and sync off,
64 MB cache, .import, then a unique index on productId), each run under /usr/bin/time -v.

Options:
  --rows N              rows to generate (default 1000000)
  --10m                 shortcut for --rows 10000000
  --runs N              timed runs of each tool, alternating (default 5, at least 1)
  --seed N              generator seed (default 1)
  --work DIR            where the CSV and databases go (default ${TMPDIR:-/tmp}/productcatalog-compare)
  --scratch-path DIR    build folder for the release build (default <repo>/.build-release)
  --catalog PATH        time this catalog executable instead of building one (e.g. a release
                        build of another commit, or one made while the sources keep changing)
  --vocabulary NAME     sample (the default: six columns) or realistic (catalog generate
                        --vocabulary realistic --descriptions: nine columns, 600,000 words in
                        six languages, a description of 20 to 120 words; about 570 MB a million)
  --with-fts5           also time the sqlite3 shell's import followed by an FTS5 index of the
                        file's title, brand and type (detail=none, 'rebuild'): the shell doing
                        by hand what the catalog's word index does
  --with-duckdb         also time DuckDB (CREATE TABLE AS read_csv, then a unique index, into a
                        file), from PyPI into a venv in the work folder
  --with-sqlite-utils   also run `sqlite-utils insert ... --csv --pk productId` once; uses the
                        sqlite-utils on PATH or installs it from PyPI into a venv in the work folder
  --progress-compare    also time `catalog import --quiet`, which shows no progress, against
                        the default (progress lines on standard error)
  --keep                keep the work folder (the CSV and the last databases)
  -h, --help            show this help

The table also goes to Benchmarks/results/compare-<date>.md.
EOF
}

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$script_dir/.." && pwd)
command_line="$(printf '%q ' "$0" "$@")"
command_line="${command_line% }"

rows=1000000
runs=5
seed=1
work="${TMPDIR:-/tmp}/productcatalog-compare"
scratch="$repo/.build-release"
catalog=""
with_sqlite_utils=0
with_fts5=0
with_duckdb=0
vocabulary=sample
progress_compare=0
keep=0

need_value() {
    if [[ $# -lt 2 || -z "$2" || "$2" == --* ]]; then
        echo "compare.sh: $1 needs a value; see --help" >&2
        exit 2
    fi
}
while [[ $# -gt 0 ]]; do
    case "$1" in
        --rows) need_value "$@"; rows="$2"; shift 2 ;;
        --10m) rows=10000000; shift ;;
        --runs) need_value "$@"; runs="$2"; shift 2 ;;
        --seed) need_value "$@"; seed="$2"; shift 2 ;;
        --work) need_value "$@"; work="$2"; shift 2 ;;
        --scratch-path) need_value "$@"; scratch="$2"; shift 2 ;;
        --catalog) need_value "$@"; catalog="$2"; shift 2 ;;
        --with-sqlite-utils) with_sqlite_utils=1; shift ;;
        --with-fts5) with_fts5=1; shift ;;
        --with-duckdb) with_duckdb=1; shift ;;
        --vocabulary) need_value "$@"; vocabulary="$2"; shift 2 ;;
        --progress-compare) progress_compare=1; shift ;;
        --keep) keep=1; shift ;;
        -h | --help) usage; exit 0 ;;
        *) echo "compare.sh: unknown option $1; see --help" >&2; exit 2 ;;
    esac
done
for value in "$rows" "$runs" "$seed"; do
    if ! [[ "$value" =~ ^[0-9]+$ ]]; then
        echo "compare.sh: $value is not a whole number" >&2
        exit 2
    fi
done
rows=$((10#$rows)) runs=$((10#$runs)) seed=$((10#$seed))
case "$vocabulary" in
    sample) generate_options=() ;;
    realistic) generate_options=(--vocabulary realistic --descriptions) ;;
    *) echo "compare.sh: --vocabulary is sample or realistic, not $vocabulary" >&2; exit 2 ;;
esac
if (( rows < 1 || runs < 1 )); then
    echo "compare.sh: --rows and --runs must be at least 1" >&2
    exit 2
fi

# --- What the comparison needs -------------------------------------------------------------
# GNU time is not installed silently: a benchmark script should not change the machine it
# measures. The message says what to install instead.
missing=()
[[ -x /usr/bin/time ]] && /usr/bin/time -v true >/dev/null 2>&1 || missing+=("time (GNU time at /usr/bin/time, for -v)")
command -v sqlite3 >/dev/null || missing+=("sqlite3 (the SQLite shell)")
[[ -n "$catalog" ]] || command -v swift >/dev/null || missing+=("swift (a Swift 6.1 or newer toolchain)")
if (( ${#missing[@]} > 0 )); then
    echo "compare.sh: missing: ${missing[*]}" >&2
    echo "On Debian or Ubuntu: apt-get install -y time sqlite3" >&2
    exit 1
fi

now() {
    if [[ -n "${EPOCHREALTIME:-}" ]]; then echo "${EPOCHREALTIME/,/.}"; else date +%s.%N; fi
}
load_average() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "unknown"; }
# CPU time all processes have used so far, in clock ticks (user, nice, system, irq, softirq, steal).
busy_ticks() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat; }

mkdir -p "$work"
log="$work/compare.log"
: >"$log"
cleanup() {
    if (( keep == 0 )); then rm -rf "$work/products.csv" "$work"/*.sqlite* "$work/sqlite3-import.sql" "$work"/time-*.txt; fi
}
trap cleanup EXIT

# --- Build and generate --------------------------------------------------------------------
if [[ -z "$catalog" ]]; then
    echo "Building catalog (release, $scratch)..." >&2
    (cd "$repo" && swift build -c release --product catalog --scratch-path "$scratch" >>"$log" 2>&1) || {
        echo "compare.sh: the release build failed; the end of $log:" >&2
        tail -n 30 "$log" >&2
        exit 1
    }
    catalog="$(cd "$repo" && swift build -c release --scratch-path "$scratch" --show-bin-path)/catalog"
    catalog_origin="release build of the repository"
else
    if [[ ! -x "$catalog" ]]; then
        echo "compare.sh: --catalog $catalog is not an executable file" >&2
        exit 2
    fi
    catalog=$(cd "$(dirname "$catalog")" && pwd)/$(basename "$catalog")
    catalog_origin="$catalog, given with --catalog"
fi

csv="$work/products.csv"
echo "Generating $rows rows (seed $seed) into $csv..." >&2
"$catalog" generate --rows "$rows" --seed "$seed" "${generate_options[@]}" --output "$csv"
csv_bytes=$(stat -c %s "$csv")

sql="$work/sqlite3-import.sql"
csv_for_shell=${csv//\"/\\\"}
header=$(head -n 1 "$csv")
if [[ "$vocabulary" == sample ]]; then
    create_table="CREATE TABLE products(productId TEXT, title TEXT, listPrice REAL, salesPrice REAL, color TEXT, size TEXT);"
    skip="--skip 1"
else
    # The shell makes a TEXT column of each header name.
    create_table=""
    skip=""
fi
cat >"$sql" <<EOF
PRAGMA journal_mode=OFF;
PRAGMA synchronous=OFF;
PRAGMA cache_size=-64000;
$create_table
.import --csv $skip "$csv_for_shell" products
CREATE UNIQUE INDEX products_productId ON products(productId);
EOF
# The same, then an FTS5 index of the words the catalog indexes (those of its columns the file has).
fts_columns=$(tr ',' '\n' <<<"$header" | tr -d '\r' | grep -x -E 'title|brand|productType' | paste -sd, -)
fts_sql="$work/sqlite3-import-fts5.sql"
cat "$sql" >"$fts_sql"
cat >>"$fts_sql" <<EOF
CREATE VIRTUAL TABLE words USING fts5($fts_columns, content='products', detail=none, tokenize='unicode61 remove_diacritics 2');
INSERT INTO words(words) VALUES('rebuild');
EOF

# sqlite-utils: the one on PATH, or else one installed from PyPI into a venv in the work folder.
utils=""
if (( with_sqlite_utils )); then
    utils=$(command -v sqlite-utils || true)
    if [[ -z "$utils" ]]; then
        venv="$work/venv"
        if [[ ! -x "$venv/bin/sqlite-utils" ]]; then
            echo "Installing sqlite-utils from PyPI into $venv..." >&2
            python3 -m venv "$venv" >>"$log" 2>&1 && "$venv/bin/pip" install --quiet sqlite-utils >>"$log" 2>&1 || {
                echo "compare.sh: could not install sqlite-utils (see $log); leaving it out" >&2
            }
        fi
        if [[ -x "$venv/bin/sqlite-utils" ]]; then utils="$venv/bin/sqlite-utils"; fi
    fi
fi

# DuckDB: the Python package from PyPI, in a venv in the work folder.
duckdb_python=""
if (( with_duckdb )); then
    venv="$work/venv-duckdb"
    if [[ ! -x "$venv/bin/python" ]] || ! "$venv/bin/python" -c 'import duckdb' 2>/dev/null; then
        echo "Installing duckdb from PyPI into $venv..." >&2
        python3 -m venv "$venv" >>"$log" 2>&1 && "$venv/bin/pip" install --quiet duckdb >>"$log" 2>&1 || {
            echo "compare.sh: could not install duckdb (see $log); leaving it out" >&2
        }
    fi
    if "$venv/bin/python" -c 'import duckdb' 2>/dev/null; then duckdb_python="$venv/bin/python"; fi
fi
duckdb_import='import duckdb, sys
c = duckdb.connect(sys.argv[1])
c.execute("CREATE TABLE products AS SELECT * FROM read_csv(?, header = true, all_varchar = true)", [sys.argv[2]])
c.execute("CREATE UNIQUE INDEX products_productId ON products (productId)")
c.close()'
duckdb_count='import duckdb, sys
print(duckdb.connect(sys.argv[1], read_only=True).execute("SELECT count(*) FROM products").fetchone()[0])'

# --- Timing --------------------------------------------------------------------------------
# For each tool: the wall-clock seconds, CPU seconds (user + system) and peak RSS (kB) of every
# run, space-separated, in run order.
declare -A seconds cpu sys rss
tools=()

remove_db() {
    rm -f "$1" "$1-journal" "$1-wal" "$1-shm" "$1.importing" "$1.importing-journal" "$1.importing.words" "$1.rejects.csv" "$1.wal"
}

# timed TOOL DB STDIN -- COMMAND...: runs COMMAND on a fresh DB under /usr/bin/time -v with its
# output discarded, checks that DB then holds every row, and records the run under TOOL.
timed() {
    local tool="$1" db="$2" input="$3"
    shift 4
    local report="$work/time-report.txt"
    remove_db "$db"
    local start end
    start=$(now)
    if ! /usr/bin/time -v -o "$report" "$@" <"$input" >/dev/null 2>>"$log"; then
        echo "compare.sh: $tool failed: $*" >&2
        tail -n 20 "$log" >&2
        exit 1
    fi
    end=$(now)
    local count
    if [[ "$tool" == "$duckdb_tool" ]]; then
        count=$("$duckdb_python" -c "$duckdb_count" "$db")
    else
        count=$(sqlite3 "$db" 'SELECT count(*) FROM products')
    fi
    if [[ "$count" != "$rows" ]]; then
        echo "compare.sh: $tool left $count rows in $db, expected $rows" >&2
        exit 1
    fi
    local user system peak
    user=$(awk -F': ' '/User time \(seconds\)/ { print $2 }' "$report")
    system=$(awk -F': ' '/System time \(seconds\)/ { print $2 }' "$report")
    peak=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$report")
    [[ -n "${seconds[$tool]+set}" ]] || tools+=("$tool")
    seconds[$tool]+="$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }') "
    cpu[$tool]+="$(awk -v u="$user" -v s="$system" 'BEGIN { printf "%.2f", u + s }') "
    sys[$tool]+="$system "
    rss[$tool]+="$peak "
    remove_db "$db"
}

catalog_tool='catalog import'
quiet_tool='catalog import --quiet'
sqlite_tool="sqlite3 .import (tuned)"
fts5_tool="sqlite3 .import + FTS5"
duckdb_tool="DuckDB read_csv"
utils_tool='sqlite-utils insert'

# How busy the machine is: the load average now (after the build), and, below, the CPU time that
# processes other than the timed ones used while they ran.
load_before=$(load_average)
busy_before=$(busy_ticks)
runs_started=$(now)

for (( run = 1; run <= runs; run++ )); do
    echo "Run $run of $runs..." >&2
    timed "$catalog_tool" "$work/catalog.sqlite" /dev/null -- "$catalog" import "$csv" --db "$work/catalog.sqlite"
    timed "$sqlite_tool" "$work/sqlite3.sqlite" "$sql" -- sqlite3 -bail "$work/sqlite3.sqlite"
    if (( with_fts5 )); then
        timed "$fts5_tool" "$work/sqlite3-fts5.sqlite" "$fts_sql" -- sqlite3 -bail "$work/sqlite3-fts5.sqlite"
    fi
    if [[ -n "$duckdb_python" ]]; then
        timed "$duckdb_tool" "$work/duckdb.db" /dev/null -- "$duckdb_python" -c "$duckdb_import" "$work/duckdb.db" "$csv"
    fi
    if (( progress_compare )); then
        timed "$quiet_tool" "$work/catalog-quiet.sqlite" /dev/null -- "$catalog" import "$csv" --db "$work/catalog-quiet.sqlite" --quiet
    fi
done

if [[ -n "$utils" ]]; then
    echo "sqlite-utils (one run)..." >&2
    timed "$utils_tool" "$work/sqlite-utils.sqlite" /dev/null -- "$utils" insert "$work/sqlite-utils.sqlite" products "$csv" --csv --pk productId
fi

runs_ended=$(now)
busy_after=$(busy_ticks)
load_after=$(load_average)

# CPU seconds the timed runs used themselves, and what the whole machine used meanwhile.
own_cpu=0
for tool in "${tools[@]}"; do
    own_cpu=$(tr ' ' '\n' <<<"${cpu[$tool]}" | awk -v s="$own_cpu" '{ s += $1 } END { print s }')
done
other_cpu=$(awk -v b0="$busy_before" -v b1="$busy_after" -v hz="$(getconf CLK_TCK)" -v own="$own_cpu" \
    'BEGIN { o = (b1 - b0) / hz - own; printf "%.1f", o < 0 ? 0 : o }')
other_share=$(awk -v o="$other_cpu" -v t0="$runs_started" -v t1="$runs_ended" -v n="$(nproc)" \
    'BEGIN { printf "%.0f", 100 * o / ((t1 - t0) * n) }')

# --- Report --------------------------------------------------------------------------------
median() { tr ' ' '\n' | sed '/^$/d' | sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
minimum() { tr ' ' '\n' | sed '/^$/d' | sort -g | head -n 1; }
maximum() { tr ' ' '\n' | sed '/^$/d' | sort -g | tail -n 1; }
count() { tr ' ' '\n' | sed '/^$/d' | wc -l; }
thousands() { sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e 'ta'; }

cpu_model=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null)
[[ -n "$cpu_model" ]] || cpu_model=$(lscpu 2>/dev/null | awk -F': +' '/Model name/ { print $2; exit }')
sqlite_median=$(median <<<"${seconds[$sqlite_tool]}")
repository_state=$(cd "$repo" && git rev-parse --short HEAD 2>/dev/null || echo "unknown")
if [[ -n "$(cd "$repo" && git --no-optional-locks status --porcelain -- Sources Package.swift 2>/dev/null)" ]]; then
    repository_state+=" with uncommitted changes"
fi

report() {
    echo "### catalog import vs sqlite3, $(thousands <<<"$rows") rows"
    echo
    echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "- machine: $(uname -m), $(nproc) cores, ${cpu_model:-unknown CPU}"
    echo "- load average before the runs: $load_before; after: $load_after"
    echo "- other processes used about $other_cpu CPU s during the $(awk -v a="$runs_started" -v b="$runs_ended" 'BEGIN { printf "%.0f", b - a }') s of timed runs ($other_share% of the machine)"
    echo "- input: $(thousands <<<"$rows") rows, $(awk -v b="$csv_bytes" 'BEGIN { printf "%.1f", b / 1e6 }') MB (catalog generate --seed $seed ${generate_options[*]})"
    echo "- catalog: $catalog_origin, version $("$catalog" --version 2>/dev/null || echo unknown); repository at commit $repository_state when the report was written"
    echo "- sqlite3: $(sqlite3 --version | cut -d' ' -f1)"
    if [[ -n "$duckdb_python" ]]; then echo "- duckdb: $("$duckdb_python" -c 'import duckdb; print(duckdb.__version__)')"; fi
    echo "- command: \`$command_line\`"
    echo
    echo "| tool | runs | median s | min s | × sqlite3 | rows/s | CPU s (median) | system s (median) | peak RSS MB |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
    local tool med
    for tool in "${tools[@]}"; do
        med=$(median <<<"${seconds[$tool]}")
        printf '| %s | %d | %.3f | %.3f | %.2f | %s | %.2f | %.2f | %.1f |\n' \
            "$tool" "$(count <<<"${seconds[$tool]}")" "$med" "$(minimum <<<"${seconds[$tool]}")" \
            "$(awk -v a="$med" -v b="$sqlite_median" 'BEGIN { print a / b }')" \
            "$(awk -v r="$rows" -v s="$med" 'BEGIN { printf "%d", r / s }' | thousands)" \
            "$(median <<<"${cpu[$tool]}")" "$(median <<<"${sys[$tool]}")" \
            "$(awk -v k="$(maximum <<<"${rss[$tool]}")" 'BEGIN { print k / 1024 }')"
    done
    echo
    echo "Each run starts from no database and ends with every row counted in it. catalog import"
    echo "checks and converts every field, stores prices as integer thousandths, keeps productId unique"
    echo "ignoring case and swaps the new catalog in atomically; the sqlite3 line stores the raw"
    echo "text with no checks, journaling or syncing, then builds the index."
    echo "catalog import also builds its word index (each term's and each 1-3 character start's products,"
    echo "the term list, the places), the facet counts and the sort lists by price and title."
    if (( with_fts5 )); then
        echo "\`$fts5_tool\` adds an FTS5 index of $fts_columns (detail=none, no prefix indexes) to the shell's work."
    fi
    if [[ -n "$duckdb_python" ]]; then
        echo "DuckDB reads every column as text and builds a unique index on productId, in a database file."
    fi
    if (( progress_compare )); then
        echo "\`catalog import --quiet\` shows no progress; the default prints a progress line on"
        echo "standard error about once a second (discarded here)."
    fi
}

mkdir -p "$script_dir/results"
result_file="$script_dir/results/compare-$(date -u '+%Y%m%dT%H%M%SZ').md"
report | tee "$result_file"
echo >&2
echo "Saved to $result_file" >&2
