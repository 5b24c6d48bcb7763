#!/usr/bin/env bash
# Two ways a small upsert might write less, tried in the sqlite3 shell before building either:
# the same changed products (new title with one more word, new price; the word row moves to the
# next class and gets a new title key, as the settling does) upserted, alternating, into
#   cur     the catalog as `catalog import` made it (word rows in word_products), rollback journal;
#   merged  the same products with wordRow and titleKey as columns of products (as the PostgreSQL
#           layout keeps them) and word_products dropped, rollback journal;
#   wal     the current layout in WAL mode, the checkpoint left for later (timed apart).
# The FTS5 writes are the same in every layout, so they are left out. Prints each run's wall time
# and commit, and the pages each layout changed (page by page against the untouched copy, named by dbstat).
#
#   Benchmarks/upsert-prototypes.sh CATALOG CHANGES.csv [PAIRS]
#
# CATALOG is a catalog `catalog import` made (it is copied, never changed); CHANGES.csv has the
# columns productId,title,listPrice,salesPrice,color,size (Benchmarks/upserts.sh writes such files).
set -euo pipefail
catalog=$1 changes=$2 pairs=${3:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$catalog" "$work/cur-base.sqlite"
cp "$catalog" "$work/merged-base.sqlite"
sqlite3 "$work/merged-base.sqlite" > /dev/null <<'SQL'
PRAGMA journal_mode = OFF;
DROP TRIGGER words_insert; DROP TRIGGER words_update; DROP TRIGGER words_delete;
ALTER TABLE products ADD COLUMN wordRow INTEGER;
ALTER TABLE products ADD COLUMN titleKey INTEGER;
CREATE TEMP TABLE m AS SELECT productId, wordRow, titleKey FROM word_products;
CREATE INDEX temp.m_productId ON m (productId);
UPDATE products SET (wordRow, titleKey) = (SELECT wordRow, titleKey FROM m WHERE m.productId = products.productId);
DROP TABLE word_products;
CREATE UNIQUE INDEX products_wordRow ON products (wordRow);
CREATE INDEX products_titleKey ON products (titleKey);
CREATE INDEX products_place ON products ((wordRow & 1099511627775));
VACUUM;
SQL
sqlite3 "$work/cur-base.sqlite" "VACUUM"

setup=".dbconfig no_ckpt_on_close on
PRAGMA synchronous = FULL; PRAGMA cache_size = -160000; PRAGMA wal_autocheckpoint = 0;
CREATE TEMP TABLE c (productId TEXT, title TEXT, listPrice TEXT, salesPrice TEXT, color TEXT, size TEXT);
.import --csv --skip 1 $changes c
CREATE TEMP TABLE cs AS SELECT * FROM c ORDER BY productId COLLATE NOCASE;
.timer on"
upsert="INSERT INTO products (productId, title, listPriceMilli, color, size)
  SELECT productId, title, CAST(listPrice * 1000 AS INTEGER), color, size FROM cs WHERE true
  ON CONFLICT (productId) DO UPDATE SET title = excluded.title, listPriceMilli = excluded.listPriceMilli, color = excluded.color, size = excluded.size"
changed="WHERE title IS NOT excluded.title OR listPriceMilli IS NOT excluded.listPriceMilli"
# The current layout: the triggers note stale and pending rows; the settling moves each word row and sets its key.
current="BEGIN;
INSERT INTO word_meta (name, value) VALUES ('deferWords', 1);
$upsert $changed;
UPDATE word_products SET wordRow = wordRow + (1 << 40), titleKey = abs(random()) WHERE wordRow IN (SELECT wordRow FROM word_pending);
DELETE FROM word_pending; DELETE FROM word_stale; DELETE FROM word_meta WHERE name = 'deferWords';
COMMIT;"
merged="BEGIN;
INSERT OR IGNORE INTO word_stale (wordRow, title, brand, productType)
  SELECT p.wordRow, p.title, p.brand, p.productType FROM cs JOIN products p ON p.productId = cs.productId;
$upsert, wordRow = wordRow + (1 << 40), titleKey = abs(random()) $changed;
INSERT OR IGNORE INTO word_pending (wordRow) SELECT p.wordRow FROM cs JOIN products p ON p.productId = cs.productId;
DELETE FROM word_pending; DELETE FROM word_stale;
COMMIT;"

# run NAME BASE MODE BODY: one upsert into a fresh, synced copy of BASE.
run() {
    local name=$1 base=$2 mode=$3 body=$4 db="$work/$1.sqlite" start end
    cp "$work/$base-base.sqlite" "$db"
    rm -f "$db"-journal "$db"-wal "$db"-shm
    sqlite3 "$db" "PRAGMA journal_mode = $mode" > /dev/null
    sync
    start=$(date +%s.%N)
    printf '%s\n%s\n' "$setup" "$body" | sqlite3 "$db" > "$work/$name.out" 2>&1
    end=$(date +%s.%N)
    if grep -qi error "$work/$name.out"; then cat "$work/$name.out" >&2; exit 1; fi
    printf '| %s | %.3f | %s |' "$name" "$(echo "$end - $start" | bc)" "$(grep 'Run Time' "$work/$name.out" | tail -1 | awk '{print $4}')"
    if [ "$mode" = wal ]; then
        start=$(date +%s.%N)
        sqlite3 "$db" "PRAGMA wal_checkpoint(TRUNCATE)" > /dev/null
        end=$(date +%s.%N)
        printf ' %.3f |\n' "$(echo "$end - $start" | bc)"
    else
        printf ' |\n'
    fi
}

echo "| layout | wall (s) | commit (s) | checkpoint later (s) |"
echo "|---|---:|---:|---:|"
for _ in $(seq "$pairs"); do
    run cur cur delete "$current"
    run merged merged delete "$merged"
    run wal cur wal "$current"
done

# The pages the last runs of cur and merged changed, by B-tree.
echo
for name in cur merged; do
    sqlite3 "$work/$name-base.sqlite" "SELECT pageno, name FROM dbstat" > "$work/$name.pages"
    python3 - "$work/$name-base.sqlite" "$work/$name.sqlite" "$work/$name.pages" "$name" <<'PY'
import collections, sys
before, after, pages, name = sys.argv[1:]
size = int.from_bytes(open(before, "rb").read(18)[16:18], "big")
size = 65536 if size == 1 else size  # how the file header writes 64 KiB
names = {int(p): n for p, n in (line.rstrip("\n").split("|", 1) for line in open(pages))}
changed, number = collections.Counter(), 0
with open(before, "rb") as a, open(after, "rb") as b:
    while True:
        x, y = a.read(size), b.read(size)
        if not x and not y:
            break
        number += 1
        if x != y:
            changed[names.get(number, "(new pages)")] += 1
print(f"- {name}: {sum(changed.values())} pages of {size} bytes changed: " + ", ".join(f"{n} {c}" for n, c in changed.most_common()))
PY
done
