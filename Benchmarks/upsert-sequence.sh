#!/usr/bin/env bash
# A sequence of upserts into one catalog, each timed where it falls in the sequence: what a
# catalog fed hourly by several feeds lives through. Each build runs the whole sequence on a
# fresh, synced copy of its own import of the same file; builds alternate, --rounds times.
#
#   Benchmarks/upsert-sequence.sh --catalog NEW --before-catalog OLD --rows 10000000
#   Benchmarks/upsert-sequence.sh --catalog NEW --rows 10000000 --steps "100000 prices:1000 100000 prices:1000 100000 prices:1000"
#
# The default steps are 20 upserts of 1,000 to 100,000 products with changed titles and prices,
# 5% of ten million in all; `prices:N` changes N prices alone. Prints a Markdown table: each
# step's wall seconds per build and round, and whether it rebuilt the word index ("listsRebuilt").
# Files go to $TMPDIR/productcatalog-upsert-sequence (the CSV and base catalogs are kept).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
work="${TMPDIR:-/tmp}/productcatalog-upsert-sequence"
rows=10000000
rounds=1
given=""
before_catalog=""
steps="100000 1000 10000 prices:1000 50000 1000 5000 1000 100000 prices:1000 20000 1000 2000 1000 100000 1000 50000 prices:1000 50000 2000"
while [ $# -gt 0 ]; do
    case "$1" in
        --rows) rows="$2"; shift 2 ;;
        --rounds) rounds="$2"; shift 2 ;;
        --catalog) given="$2"; shift 2 ;;
        --before-catalog) before_catalog="$2"; shift 2 ;;
        --steps) steps="$2"; shift 2 ;;
        --work) work="$2"; shift 2 ;;
        -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
mkdir -p "$work"
source "$root/Benchmarks/tools/build-catalog.sh"
plain_bases "$rows"
changes="changes-$rows-$(echo "$steps" | sha1sum | cut -c1-8)"
[ -d "$changes" ] || python3 "$root/Benchmarks/tools/upsert_changes.py" "$csv" "$changes" $steps > /dev/null

declare -A seconds rebuilt
for round in $(seq 1 "$rounds"); do
    for name in "${builds[@]}"; do
        cp -L "base-$name.sqlite" sequence.sqlite
        rm -f sequence.sqlite-journal sequence.sqlite-wal sequence.sqlite-shm
        sync
        number=0
        for step in $steps; do
            number=$((number + 1))
            file=$(printf "%s/step-%02d.csv" "$changes" "$number")
            start=$(date +%s.%N)
            ./catalog-$name import "$file" --db sequence.sqlite --mode upsert --json > step.out
            end=$(date +%s.%N)
            seconds[$name,$round,$number]=$(echo "$end - $start" | bc -l)
            rebuilt[$name,$round,$number]=$(python3 -c 'import json; e=[json.loads(l) for l in open("step.out")][-1]; print("rebuilt" if e.get("listsRebuilt") else "")')
            echo "$name round $round step $number ($step): ${seconds[$name,$round,$number]} s ${rebuilt[$name,$round,$number]}" >&2
        done
    done
done
rm -f sequence.sqlite sequence.sqlite-journal sequence.sqlite-wal sequence.sqlite-shm step.out

echo "## A sequence of upserts into $rows products ($(date -u +%Y-%m-%d), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))"
echo
header="| step | products |"
rule="|---:|---|"
for round in $(seq 1 "$rounds"); do for name in "${builds[@]}"; do header+=" $name #$round (s) |"; rule+="---:|"; done; done
echo "$header"
echo "$rule"
number=0
for step in $steps; do
    number=$((number + 1))
    line="| $number | $step |"
    for round in $(seq 1 "$rounds"); do
        for name in "${builds[@]}"; do
            line+=" $(printf %.2f "${seconds[$name,$round,$number]}")${rebuilt[$name,$round,$number]:+ (rebuilt)} |"
        done
    done
    echo "$line"
done
