#!/usr/bin/env bash
# What a word index (SQLite FTS5) would add to an import, in each shape considered for it, next
# to sqlite-utils' two steps (`insert`, then `enable-fts`) on the same file:
#
#     Benchmarks/word-index.sh CATALOG FILE.csv [RUNS]
#
# CATALOG is a `catalog` executable (a release build). For each run, alternating: `catalog import
# FILE --quiet`; then, on a copy of that catalog, each FTS5 shape filled from the products table
# by the sqlite3 shell (the same system SQLite the catalog links); then sqlite-utils. Prints the
# median seconds of each and its ratio to the import alone. sqlite-utils comes from PATH or is
# installed from PyPI into a venv in the scratch folder; it is left out if that fails.
set -euo pipefail
catalog=$1 file=$2 runs=${3:-3}
scratch=${WORD_INDEX_SCRATCH:-$(mktemp -d)}
mkdir -p "$scratch"
trap '[[ -n "${WORD_INDEX_SCRATCH:-}" ]] || rm -rf "$scratch"' EXIT

# name|FTS5 columns and options|columns filled from products
shapes=(
  "title, contentless, no positions|title, content='', detail=none, tokenize='unicode61 remove_diacritics 2'|title"
  "title+color+size, contentless, no positions|title, color, size, content='', detail=none, tokenize='unicode61 remove_diacritics 2'|title, color, size"
  "title+color+size, stored, positions|productId UNINDEXED, title, color, size, detail=full, tokenize='unicode61 remove_diacritics 2'|productId, title, color, size"
)

utils=$(command -v sqlite-utils || true)
if [[ -z "$utils" ]]; then
    if [[ ! -x "$scratch/venv/bin/sqlite-utils" ]]; then
        python3 -m venv "$scratch/venv" >/dev/null && "$scratch/venv/bin/pip" install --quiet sqlite-utils >/dev/null 2>&1 || true
    fi
    [[ -x "$scratch/venv/bin/sqlite-utils" ]] && utils="$scratch/venv/bin/sqlite-utils"
fi

now() { date +%s.%N; }
declare -A times
record() { times[$1]="${times[$1]:-} $2"; }
for run in $(seq "$runs"); do
    db="$scratch/catalog.sqlite"
    rm -f "$db"*
    start=$(now); "$catalog" import "$file" --db "$db" --quiet >/dev/null; end=$(now)
    import=$(echo "$end - $start" | bc)
    record "catalog import" "$import"
    for shape in "${shapes[@]}"; do
        IFS='|' read -r name spec columns <<<"$shape"
        cp "$db" "$scratch/words.sqlite"
        start=$(now)
        sqlite3 "$scratch/words.sqlite" "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;
            CREATE VIRTUAL TABLE words USING fts5($spec);
            INSERT INTO words(words, rank) VALUES('automerge', 0);
            INSERT INTO words(rowid, $columns) SELECT row_number() OVER (), $columns FROM products;" >/dev/null
        end=$(now)
        record "import + words: $name" "$(echo "$import + $end - $start" | bc)"
    done
    if [[ -n "$utils" ]]; then
        rm -f "$scratch/utils.sqlite"
        start=$(now); "$utils" insert "$scratch/utils.sqlite" products "$file" --csv --pk productId >/dev/null; middle=$(now)
        "$utils" enable-fts "$scratch/utils.sqlite" products title >/dev/null; end=$(now)
        record "sqlite-utils insert" "$(echo "$middle - $start" | bc)"
        record "sqlite-utils insert + enable-fts title" "$(echo "$end - $start" | bc)"
    fi
    echo "run $run of $runs done" >&2
done

median() { printf '%s\n' $1 | sort -g | awk '{v[NR]=$1} END {print (NR % 2 ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2)}'; }
base=$(median "${times[catalog import]}")
echo "| $(wc -l <"$file") lines, $runs runs | median s | × catalog import |"
echo "|---|---:|---:|"
for key in "catalog import" "${shapes[@]%%|*}" "sqlite-utils insert" "sqlite-utils insert + enable-fts title"; do
    [[ "$key" == "catalog import" || "$key" == sqlite-utils* ]] || key="import + words: $key"
    [[ -n "${times[$key]:-}" ]] || continue
    m=$(median "${times[$key]}")
    printf '| %s | %.2f | %.2f |\n' "$key" "$m" "$(echo "$m / $base" | bc -l)"
done
