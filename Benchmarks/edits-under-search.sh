#!/usr/bin/env bash
# A team at work on `catalog serve`: one client types searches (the keystrokes of the first two
# words of sampled titles) while another sends batches of 1,000 title changes
# (tools/edit_stream.py); first the searches alone on the idle server, then both at once. Each
# build serves a fresh copy of its own import of the same file; builds alternate, --rounds times.
#
#   Benchmarks/edits-under-search.sh --catalog NEW --before-catalog OLD                 # plain 1,000,000
#   Benchmarks/edits-under-search.sh --catalog NEW --before-catalog OLD --rows 10000000 --rounds 1
#   Benchmarks/edits-under-search.sh --catalog NEW --pager                              # a third client pages meanwhile
#
# Prints a Markdown table: per build and round, the batches' median and worst (and worst over
# median), the searches' p50, p99 and worst idle and during the batches, their p99 ratio, and the
# requests that did not answer 200. Files go to $TMPDIR/productcatalog-edits (kept for the next run).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
work="${TMPDIR:-/tmp}/productcatalog-edits"
rows=1000000
rounds=2
batches=30
given=""
before_catalog=""
pager=""
while [ $# -gt 0 ]; do
    case "$1" in
        --rows) rows="$2"; shift 2 ;;
        --rounds) rounds="$2"; shift 2 ;;
        --batches) batches="$2"; shift 2 ;;
        --catalog) given="$2"; shift 2 ;;
        --before-catalog) before_catalog="$2"; shift 2 ;;
        --pager) pager="--pager"; shift ;;
        --work) work="$2"; shift 2 ;;
        -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
mkdir -p "$work"
source "$root/Benchmarks/tools/build-catalog.sh"
plain_bases "$rows"

results=()
for round in $(seq 1 "$rounds"); do
    for name in "${builds[@]}"; do
        rm -f served.sqlite served.sqlite-wal served.sqlite-shm served.sqlite-journal
        cp -L "base-$name.sqlite" served.sqlite
        sync
        ./catalog-$name serve --db served.sqlite --port 0 > serve.out 2>&1 &
        server=$!
        port=""
        for _ in $(seq 1 100); do
            port="$(sed -n 's/.*127\.0\.0\.1:\([0-9][0-9]*\).*/\1/p' serve.out | head -n 1)"
            [ -n "$port" ] && break
            sleep 0.1
        done
        [ -n "$port" ] || { echo "catalog serve did not start" >&2; cat serve.out >&2; exit 1; }
        python3 "$root/Benchmarks/tools/edit_stream.py" "$port" "$csv" --batches "$batches" $pager --json "stream-$name-$round.json" > "stream-$name-$round.txt"
        kill "$server"
        wait "$server" 2>/dev/null || true
        results+=("$name $round")
        echo "$name round $round: $(python3 -c 'import json, sys; s = json.load(open(sys.argv[1]))["summary"]; print("batch median %.3f s, worst %.3f s; search p99 %.1f ms idle, %.1f ms during" % (s["batchMedian"], s["batchMax"], s["idle"]["p99"], s["during"]["p99"]))' "stream-$name-$round.json")" >&2
    done
done
rm -f served.sqlite served.sqlite-wal served.sqlite-shm

echo "## Searches while batches of 1,000 title changes stream into catalog serve ($rows products; $(date -u +%Y-%m-%d), $(nproc) cores)"
echo
echo "| build | round | batches | batch median (s) | worst (s) | worst / median | idle p50 / p99 / worst (ms) | during p50 / p99 / worst (ms) | p99 ratio | searches during | not 200 |"
echo "|---|---:|---:|---:|---:|---:|---|---|---:|---:|---:|"
for entry in "${results[@]}"; do
    read -r name round <<< "$entry"
    python3 - "stream-$name-$round.json" "$name" "$round" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["summary"]
i, d = s["idle"], s["during"]
errors = s["batchErrors"] + i["errors"] + d["errors"] + s["pages"]["errors"]
print(f"| {sys.argv[2]} | {sys.argv[3]} | {s['batches']} | {s['batchMedian']:.3f} | {s['batchMax']:.3f} | {s['batchMaxOverMedian']:.2f} | "
      f"{i['p50']:.1f} / {i['p99']:.1f} / {i['worst']:.0f} | {d['p50']:.1f} / {d['p99']:.1f} / {d['worst']:.0f} | {s['p99Ratio']:.2f} | {d['searches']} | {errors} |")
PY
done
