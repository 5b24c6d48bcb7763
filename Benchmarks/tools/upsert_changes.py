"""Writes the change files of a sequence of upserts: for each size, that many products of the
catalog's file, spread through it and none changed twice in the sequence, each with a word added
to its title and its list price raised by one (or, with `prices:`, its price alone).

    python3 upsert_changes.py CATALOG.csv OUTDIR 100000 prices:1000 10000 ...

Writes OUTDIR/step-01.csv, step-02.csv, ... and prints their names and sizes.
"""
import csv
import os
import random
import sys


def main():
    path, out, steps = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(out, exist_ok=True)
    with open(path, newline="", encoding="utf-8") as source:
        reader = csv.reader(source)
        header = next(reader)
        rows = list(reader)
    title, price = header.index("title"), header.index("listPrice")
    wanted = [(step.startswith("prices:"), int(step.split(":")[-1])) for step in steps]
    total = sum(count for _, count in wanted)
    if total > len(rows):
        sys.exit(f"the sequence changes {total} products; the file has {len(rows)}")
    random.seed(5)
    chosen = random.sample(range(len(rows)), total)
    start = 0
    for number, (prices_only, count) in enumerate(wanted, 1):
        picked = sorted(chosen[start:start + count])
        start += count
        name = os.path.join(out, "step-%02d.csv" % number)
        with open(name, "w", newline="", encoding="utf-8") as target:
            writer = csv.writer(target, lineterminator="\n")
            writer.writerow(header)
            for index in picked:
                row = list(rows[index])
                if not prices_only:
                    row[title] = row[title] + " Renewed%d" % number
                row[price] = "%.2f" % (float(row[price] or 0) + 1)
                writer.writerow(row)
        print(name, count, "prices" if prices_only else "titles and prices")


if __name__ == "__main__":
    main()
