#!/usr/bin/env bats
# parallel.bats - the report does not depend on how many threads evaluate
# nodes (KUBECTL_PREEMPT_PARALLELISM): the Filter pass, DryRunPreemption
# and scoring fold what the threads evaluated in node order, and
# independent mode's pods, analysed on the threads, each fill their own
# entry of the report, so 1, 2, 3 and 16 threads print the same bytes.  The cluster is one of bench/gen.c's
# (120 nodes, 2,400 pods, 150 pending, 60 PDBs): large enough for
# preemption on most pending pods, candidate sampling and several batches;
# the same size in each of gen's other shapes (fits: scoring; affinity:
# anti-affinity and spread state in the dry run; nominated; pdb) is
# checked in both modes too.

load '../helpers/common'
load '../helpers/bench_cluster'

setup_file() {
    local shape
    bench_cluster "$BATS_FILE_TMPDIR/cluster.json" 120 2400 150 60
    for shape in fits affinity nominated pdb; do
        bench_cluster "$BATS_FILE_TMPDIR/$shape.json" 120 2400 150 60 \
            --shape "$shape"
    done
}

# same_for_all_threads [-c FILE] ARGS...: 1, 2, 3 and 16 threads, same bytes
same_for_all_threads() {
    local t file="$BATS_FILE_TMPDIR/cluster.json"
    if [ "$1" = -c ]; then
        file=$2
        shift 2
    fi
    KUBECTL_PREEMPT_PARALLELISM=1 "$KP" -f "$file" \
        "$@" >"$BATS_TEST_TMPDIR/one"
    for t in 2 3 16; do
        KUBECTL_PREEMPT_PARALLELISM=$t "$KP" \
            -f "$file" "$@" >"$BATS_TEST_TMPDIR/many"
        cmp "$BATS_TEST_TMPDIR/one" "$BATS_TEST_TMPDIR/many"
    done
}

# both modes on one of gen's shapes; prints the queue run's result counts
same_on_shape() {
    local f="$BATS_FILE_TMPDIR/$1.json"
    [ -s "$f" ]
    same_for_all_threads -c "$f" -o json --mode independent
    same_for_all_threads -c "$f" -o json
}

count() {   # RESULT: pods of the last queue report with that result
    jq "[.pods[] | select(.result == \"$1\")] | length" "$BATS_TEST_TMPDIR/one"
}

@test "fits shape: the same with 1, 2, 3 and 16 threads, both modes" {
    same_on_shape fits
    # scoring really runs: most pods fit
    run count Fits
    assert [ "$output" -gt 75 ]
}

@test "affinity shape: the same with 1, 2, 3 and 16 threads, both modes" {
    same_on_shape affinity
    run count Preempts
    assert [ "$output" -gt 50 ]
}

@test "nominated shape: the same with 1, 2, 3 and 16 threads, both modes" {
    same_on_shape nominated
    run count NotEligible
    assert [ "$output" -gt 20 ]
}

@test "pdb shape: the same with 1, 2, 3 and 16 threads, both modes" {
    same_on_shape pdb
    run jq '[.pods[] | select(.pdbViolations > 0)] | length' \
        "$BATS_TEST_TMPDIR/one"
    assert [ "$output" -gt 10 ]
}

@test "queue mode JSON is the same with 1, 2, 3 and 16 threads" {
    need jq
    same_for_all_threads -o json
    # the cluster really preempts, on many pods
    run jq '[.pods[] | select(.result == "Preempts")] | length' \
        "$BATS_TEST_TMPDIR/one"
    assert [ "$output" -gt 50 ]
}

@test "independent mode JSON is the same with 1, 2, 3 and 16 threads" {
    same_for_all_threads -o json --mode independent
}

@test "per-node explanations are the same with 1 and 16 threads" {
    same_for_all_threads -o wide --explain-nodes
}

@test "independent mode's table and explanations are the same too" {
    same_for_all_threads -o wide --mode independent
    same_for_all_threads -o wide --explain-nodes --mode independent
}

@test "a node what-if in independent mode is the same with 1 to 16 threads" {
    local node
    node=$(jq -r '[.items[] | select(.kind == "Node")][1].metadata.name' \
        "$BATS_FILE_TMPDIR/cluster.json")
    same_for_all_threads -o json --mode independent --drain "$node"
    # the drain really moves pods: their replacements are analysed
    run jq '.pods | length' "$BATS_TEST_TMPDIR/one"
    assert [ "$output" -gt 150 ]
}

@test "an offset and a small candidate sample give the same report" {
    same_for_all_threads -o json --offset 37 \
        --min-candidate-nodes-absolute 5 --min-candidate-nodes-percentage 1
}

@test "a parallelism that is not a number falls back to the CPUs" {
    KUBECTL_PREEMPT_PARALLELISM=lots run "$KP" \
        -f "$BATS_FILE_TMPDIR/cluster.json" -o json
    assert_success
    KUBECTL_PREEMPT_PARALLELISM=1 "$KP" -f "$BATS_FILE_TMPDIR/cluster.json" \
        -o json >"$BATS_TEST_TMPDIR/one"
    [ "$output" = "$(cat "$BATS_TEST_TMPDIR/one")" ]
}
