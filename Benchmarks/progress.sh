#!/usr/bin/env bash
# Whether `catalog import`'s progress tells the truth: on a generated file (release build), for
# each `--json` progress event once writing has run a moment, how far its fraction is from the
# share of the import's whole time that has passed, and how far its predicted end is from the
# real one. (This was a unit test; under the test run's parallel load, wall time says nothing.)
#
#   Benchmarks/progress.sh                        # 1,000,000 plain generated rows
#   Benchmarks/progress.sh --rows 1000000 --vocabulary realistic
#
# Files go to $TMPDIR/productcatalog-progress.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
work="${TMPDIR:-/tmp}/productcatalog-progress"
rows=1000000
vocabulary=plain
while [ $# -gt 0 ]; do
    case "$1" in
        --rows) rows="$2"; shift 2 ;;
        --vocabulary) vocabulary="$2"; shift 2 ;;
        --work) work="$2"; shift 2 ;;
        -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
mkdir -p "$work"
source "$root/Benchmarks/tools/build-catalog.sh"
build_catalog "" now

cd "$work"
csv="$vocabulary-$rows.csv"
# "plain" is the generator's default vocabulary, `sample`.
[ -f "$csv" ] || ./catalog-now generate --rows "$rows" --seed 9 --vocabulary "${vocabulary/plain/sample}" --output "$csv"
rm -f progress.sqlite
./catalog-now import "$csv" --db progress.sqlite --json > progress.jsonl
python3 - progress.jsonl <<'PY'
import json, sys
events = [json.loads(line) for line in open(sys.argv[1])]
progress = [e for e in events if e.get("event") == "progress"]
total = next(e["seconds"] for e in events if e.get("event") == "finished")
writing = [e for e in progress if e["phase"] == "writing"]
start = writing[0]["seconds"] if writing else total
settled = [e for e in progress if e["phase"] in ("writing", "finishing") and e["seconds"] > start + 0.1]
worst_fraction = max(abs(e["fractionCompleted"] - e["seconds"] / total) for e in settled)
# Reading too: the fraction there rests on the prior weights alone (ProgressEstimate).
reading = [e for e in progress if e["phase"] == "loading" and e["seconds"] > 0.1]
worst_reading = max((abs(e["fractionCompleted"] - e["seconds"] / total) for e in reading), default=0)
finishing = [e for e in progress if e["phase"] == "finishing"]
worst_end = max(abs(e["seconds"] + e["etaSeconds"] - total) / total for e in settled if e.get("etaSeconds") is not None)
phases = {}
for e in progress:
    phases.setdefault(e["phase"], e["seconds"])
print(f"{len(progress)} progress events over {total:.2f} s, {len(settled)} after writing began; phases began at " +
      ", ".join(f"{name} {seconds:.2f} s" for name, seconds in phases.items()))
print(f"largest gap between the fraction and the share of time passed: {worst_fraction * 100:.1f} points once writing ran 0.1 s, "
      f"{worst_reading * 100:.1f} points while reading")
print(f"{len(finishing)} progress events while finishing ({total - phases.get('finishing', total):.2f} s)")
print(f"largest error of the predicted end: {worst_end * 100:.1f}% of the whole time")
PY
