# Sourced by the benchmark scripts: build_catalog REV NAME copies the release `catalog` of commit
# REV (of this checkout when REV is empty) to $work/catalog-NAME. Each NAME keeps its own build
# folder, .build-bench-NAME, so a second run rebuilds only what changed. Needs $root and $work.
build_catalog() {
    local rev="$1" name="$2" tree="$root"
    if [ -n "$rev" ]; then
        tree="$work/tree-$name"
        rm -rf "$tree"
        git -C "$root" worktree add --force --detach "$tree" "$rev" >&2
    fi
    echo "Building catalog ($name, release) ..." >&2
    swift build -c release --package-path "$tree" --scratch-path "$root/.build-bench-$name" --product catalog >&2
    cp "$root/.build-bench-$name/release/catalog" "$work/catalog-$name"
    if [ -n "$rev" ]; then git -C "$root" worktree remove --force "$tree" >&2; fi
}

# plain_bases ROWS: with the build given as --catalog (or this checkout's) as `now` and the one
# given as --before-catalog as `before` ($given, $before_catalog), sets $builds (before first) and
# $csv, the plain generated file of ROWS rows (seed 21), and links base-NAME.sqlite to each
# build's import of it, kept for the next run by the build's bytes. Ends in $work.
plain_bases() {
    local rows="$1" name base
    builds=(now)
    if [ -n "$given" ]; then cp "$given" "$work/catalog-now"; else build_catalog "" now; fi
    if [ -n "$before_catalog" ]; then cp "$before_catalog" "$work/catalog-before"; builds=(before now); fi
    cd "$work"
    csv="plain-$rows.csv"
    [ -f "$csv" ] || ./catalog-now generate --rows "$rows" --seed 21 --output "$csv"
    for name in "${builds[@]}"; do
        base="base-$(sha1sum "catalog-$name" | cut -c1-12)-$rows.sqlite"
        [ -f "$base" ] || ./catalog-$name import "$csv" --db "$base" --quiet > /dev/null
        ln -sf "$base" "base-$name.sqlite"
    done
}
