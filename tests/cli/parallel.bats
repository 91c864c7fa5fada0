#!/usr/bin/env bats
# parallel.bats - the report does not depend on how many threads evaluate
# nodes (KUBECTL_PREEMPT_PARALLELISM): the Filter pass and
# DryRunPreemption fold their batches in node order, so 1, 2, 3 and 16
# threads print the same bytes.  The cluster is one of bench/gen.c's
# (120 nodes, 2,400 pods, 150 pending, 60 PDBs): large enough for
# preemption on most pending pods, candidate sampling and several batches.

load '../helpers/common'
load '../helpers/bench_cluster'

setup_file() {
    bench_cluster "$BATS_FILE_TMPDIR/cluster.json" 120 2400 150 60
}

same_for_all_threads() {
    local t
    KUBECTL_PREEMPT_PARALLELISM=1 "$KP" -f "$BATS_FILE_TMPDIR/cluster.json" \
        "$@" >"$BATS_TEST_TMPDIR/one"
    for t in 2 3 16; do
        KUBECTL_PREEMPT_PARALLELISM=$t "$KP" \
            -f "$BATS_FILE_TMPDIR/cluster.json" "$@" >"$BATS_TEST_TMPDIR/many"
        cmp "$BATS_TEST_TMPDIR/one" "$BATS_TEST_TMPDIR/many"
    done
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
