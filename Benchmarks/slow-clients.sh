#!/usr/bin/env bash
# Hostile clients against `catalog serve` (release build) on loopback: how long ordinary searches
# take while hundreds or thousands of sockets dribble request heads or sit idle, and the server's
# memory while many large JSON bodies arrive at once, or many uploads of pictures and collection files
# stall before their last byte. Prints a Markdown table per build.
#
#   Benchmarks/slow-clients.sh                          # this checkout
#   Benchmarks/slow-clients.sh --before e62342a         # and that commit's build, in the same run
#
# The catalog is 100,000 generated products. The clients are Benchmarks/tools/hostile_clients.py
# (python3, standard library). Needs `ulimit -n` of at least 20,000 for the largest case.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
work="${TMPDIR:-/tmp}/productcatalog-slow-clients"
before=""
while [ $# -gt 0 ]; do
    case "$1" in
        --before) before="$2"; shift 2 ;;
        --work) work="$2"; shift 2 ;;
        -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
mkdir -p "$work"

source "$root/Benchmarks/tools/build-catalog.sh"

builds=(now)
build_catalog "" now
if [ -n "$before" ]; then build_catalog "$before" before; builds+=(before); fi

cd "$work"
[ -f products.csv ] || "$work/catalog-now" generate --rows 100000 --seed 7 --output products.csv
tools="$root/Benchmarks/tools/hostile_clients.py"
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

for name in "${builds[@]}"; do
    rm -rf catalog.sqlite*
    "$work/catalog-$name" import products.csv --db catalog.sqlite --quiet > /dev/null
    "$work/catalog-$name" serve --db catalog.sqlite --port 0 > serve.out 2>&1 &
    server=$!
    port=""
    for _ in $(seq 1 100); do
        port="$(sed -n 's/.*127\.0\.0\.1:\([0-9][0-9]*\).*/\1/p' serve.out | head -n 1)"
        [ -n "$port" ] && break
        sleep 0.1
    done
    [ -n "$port" ] || { echo "catalog serve did not start" >&2; cat serve.out >&2; exit 1; }
    echo
    echo "### $name ($("$work/catalog-$name" --version), $(nproc) cores)"
    echo
    echo "| clients | five searches for \`shirt\`, one after another (ms) |"
    echo "|---|---|"
    python3 "$tools" baseline "$port"
    python3 "$tools" slow "$port" 300 0.1
    python3 "$tools" slow "$port" 1000 0.1
    python3 "$tools" slow "$port" 1000 10
    python3 "$tools" idle "$port" 1000
    python3 "$tools" idle "$port" 15000
    python3 "$tools" bodies "$port" "$server" 16
    python3 "$tools" bodies "$port" "$server" 64
    python3 "$tools" stalled "$port" "$server" pictures 150
    python3 "$tools" stalled "$port" "$server" collections 20
    kill "$server"
    wait "$server" 2>/dev/null || true
done
