# bench_cluster.bash - for bats files that need a cluster of realistic
# size: bench_cluster OUT NODES PODS PENDING PDBS [--shape NAME] builds
# bench/gen.c (once per file) and writes its snapshot to OUT.  Needs ROOT
# (the checkout).

bench_cluster() {
    local out=$1
    shift
    [ -x "$BATS_FILE_TMPDIR/gen" ] ||
        cc -std=c11 -O1 -D_GNU_SOURCE -o "$BATS_FILE_TMPDIR/gen" \
            "$ROOT/bench/gen.c"
    "$BATS_FILE_TMPDIR/gen" "$@" -o "$out" 2>/dev/null
}
