# Times the phases of an import from its --json progress events: when each phase is first reported, and the end.
#   python3 Benchmarks/tools/phases.py catalog import FILE.csv --db X.sqlite --json
import json, subprocess, sys, time
cmd = sys.argv[1:]
start = time.monotonic()
first = {}
proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
for line in proc.stdout:
    e = json.loads(line)
    p = e.get("phase") or e.get("event")
    if p not in first: first[p] = round(time.monotonic() - start, 2)
proc.wait()
print(first, "end", round(time.monotonic() - start, 2))
