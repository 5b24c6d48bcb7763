#!/usr/bin/env bash
# Times `catalog import` of one generated file from each kind of source: the file, the file
# gzip-compressed, a local http:// URL (plain and gzip), and standard input (cat and gzip -c),
# alternating the cases run by run, and prints a Markdown table of medians. Linux only (GNU time).
#
#   Benchmarks/sources.sh                 # 1,000,000 rows, 5 runs of each case
#   Benchmarks/sources.sh --rows 200000 --runs 3
#
# The URL cases download from python3's http.server on 127.0.0.1 (a port the system picks),
# started and stopped by this script. Reference rows time what the transfer and the
# decompression cost on their own: `curl` to /dev/null and `gzip -dc` to /dev/null.
set -euo pipefail

rows=1000000
runs=5
seed=1
work="${TMPDIR:-/tmp}/productcatalog-sources"
root="$(cd "$(dirname "$0")/.." && pwd)"
scratch="$root/.build-sources"

while [ $# -gt 0 ]; do
    case "$1" in
        --rows) rows="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --seed) seed="$2"; shift 2 ;;
        --work) work="$2"; shift 2 ;;
        --scratch-path) scratch="$2"; shift 2 ;;
        -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
[ "$runs" -ge 1 ] || { echo "--runs must be at least 1" >&2; exit 2; }

echo "Building catalog (release) in $scratch ..." >&2
swift build -c release --package-path "$root" --scratch-path "$scratch" --product catalog >&2
mkdir -p "$work"
# A copy, so that edits and rebuilds elsewhere cannot change the binary under measurement.
cp "$scratch/release/catalog" "$work/catalog"
catalog="$work/catalog"
cd "$work"

csv="products-$rows.csv"
if [ ! -f "$csv" ]; then
    echo "Generating $rows rows ..." >&2
    "$catalog" generate --rows "$rows" --seed "$seed" --output "$csv"
fi
gzip -c -6 -n "$csv" > "$csv.gz"

python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$work" > server.log 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
port=""
for _ in $(seq 1 100); do
    port="$(sed -n 's/.*port \([0-9][0-9]*\).*/\1/p' server.log | head -n 1)"
    [ -n "$port" ] && break
    sleep 0.1
done
[ -n "$port" ] || { echo "the local HTTP server did not start" >&2; cat server.log >&2; exit 1; }
url="http://127.0.0.1:$port"

declare -A commands=(
    ["file"]="'$catalog' import '$csv' --db bench.sqlite"
    ["file, gzip"]="'$catalog' import '$csv.gz' --db bench.sqlite"
    ["URL"]="'$catalog' import '$url/$csv' --db bench.sqlite"
    ["URL, gzip"]="'$catalog' import '$url/$csv.gz' --db bench.sqlite"
    ["stdin: cat |"]="cat '$csv' | '$catalog' import - --db bench.sqlite"
    ["stdin: cat .gz |"]="cat '$csv.gz' | '$catalog' import - --db bench.sqlite"
    ["(gzip -dc > /dev/null)"]="gzip -dc '$csv.gz' > /dev/null"
)
order=("file" "file, gzip" "URL" "URL, gzip" "stdin: cat |" "stdin: cat .gz |" "(gzip -dc > /dev/null)")
if command -v curl > /dev/null; then
    commands["(curl URL > /dev/null)"]="curl -sf '$url/$csv' -o /dev/null"
    commands["(curl URL.gz > /dev/null)"]="curl -sf '$url/$csv.gz' -o /dev/null"
    order+=("(curl URL > /dev/null)" "(curl URL.gz > /dev/null)")
fi

declare -A times memories
for run in $(seq 1 "$runs"); do
    echo "Run $run of $runs ..." >&2
    for name in "${order[@]}"; do
        rm -f bench.sqlite
        /usr/bin/time -f "%e %M" -o time.out bash -c "${commands[$name]}" > /dev/null 2> run.err \
            || { echo "failed: $name" >&2; cat run.err >&2; exit 1; }
        read -r seconds kilobytes < time.out
        times[$name]+="$seconds "
        memories[$name]+="$kilobytes "
    done
done

median() { tr ' ' '\n' | sed '/^$/d' | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }
plain="$(echo "${times[file]}" | median)"

echo
echo "$rows rows: $(stat -c %s "$csv") bytes, $(stat -c %s "$csv.gz") gzip -6; median of $runs runs; $(nproc) cores"
echo
echo "| source | wall s | vs file | max RSS MB | all runs (s) |"
echo "|---|---:|---:|---:|---|"
for name in "${order[@]}"; do
    wall="$(echo "${times[$name]}" | median)"
    rss="$(echo "${memories[$name]}" | median)"
    awk -v name="$name" -v wall="$wall" -v plain="$plain" -v rss="$rss" -v all="${times[$name]}" \
        'BEGIN { printf "| %s | %.2f | %+.2f | %.0f | %s|\n", name, wall, wall - plain, rss / 1024, all }' 
done
echo
echo "Max RSS of a pipeline is its largest process's. Load average: $(cut -d' ' -f1-3 /proc/loadavg)"
