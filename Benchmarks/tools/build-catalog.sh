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
