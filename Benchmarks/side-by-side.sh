#!/usr/bin/env bash
# Two builds of `catalog` importing the same file, alternating, to compare a change with the
# commit before it:
#
#     Benchmarks/side-by-side.sh OLD_CATALOG NEW_CATALOG FILE.csv [PAIRS]
#
# Each run is `catalog import FILE --db <fresh> --quiet`. Prints every wall time, then the median
# of each and their ratio, and the median of the per-pair ratios (less sensitive to the drift of
# a busy machine).
set -euo pipefail
old=$1 new=$2 file=$3 pairs=${4:-9}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
seconds() {
    local start end
    rm -f "$scratch"/catalog.sqlite*
    start=$(date +%s.%N)
    "$1" import "$file" --db "$scratch/catalog.sqlite" --quiet >/dev/null
    end=$(date +%s.%N)
    echo "$end - $start" | bc
}
olds=() news=() ratios=()
for _ in $(seq "$pairs"); do
    o=$(seconds "$old"); n=$(seconds "$new")
    echo "old $o  new $n"
    olds+=("$o"); news+=("$n"); ratios+=("$(echo "scale=4; $n / $o" | bc)")
done
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR % 2 ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2)}'; }
mo=$(median "${olds[@]}"); mn=$(median "${news[@]}")
echo "median old ${mo} s, new ${mn} s, ratio $(echo "scale=3; $mn / $mo" | bc); median of pair ratios $(median "${ratios[@]}")"
