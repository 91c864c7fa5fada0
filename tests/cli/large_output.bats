#!/usr/bin/env bats
# large_output.bats - -o json is written while it is rendered, a megabyte
# at a time (the report of a 5,000-node cluster is gigabytes): the
# warnings still come first, every byte arrives once and in order, and a
# failed write is an error.  The cluster is one of bench/gen.c's with a
# pod bound to a node that is gone (a warning); --explain-nodes makes the
# report several megabytes.

load '../helpers/common'
load '../helpers/bench_cluster'

setup_file() {
    bench_cluster "$BATS_FILE_TMPDIR/gen.json" 120 2400 150 60
    cat >"$BATS_FILE_TMPDIR/orphan.json" <<'JSON'
{"kind": "Pod", "apiVersion": "v1",
 "metadata": {"namespace": "default", "name": "orphan"},
 "spec": {"nodeName": "node-that-is-gone", "containers": [{"name": "c"}]},
 "status": {"phase": "Running"}}
JSON
}

@test "a multi-megabyte JSON report arrives whole, after the warnings" {
    need jq
    "$KP" -f "$BATS_FILE_TMPDIR/gen.json" -f "$BATS_FILE_TMPDIR/orphan.json" \
        -o json --explain-nodes >"$BATS_TEST_TMPDIR/all" 2>&1
    # big enough to be written in several pieces
    assert [ "$(stat -c %s "$BATS_TEST_TMPDIR/all")" -gt 3000000 ]
    run head -n 1 "$BATS_TEST_TMPDIR/all"
    assert_output --partial 'warning: '
    assert_output --partial 'node-that-is-gone'
    # the rest is one JSON document: every pending pod, every node for each
    tail -n +2 "$BATS_TEST_TMPDIR/all" >"$BATS_TEST_TMPDIR/report.json"
    run jq -r '"\(.snapshot.pendingPods) \(.pods | length) \(.snapshot.nodes) \([.pods[].nodes | length] | add)"' \
        "$BATS_TEST_TMPDIR/report.json"
    assert_success
    read -r pending npods nodes nentries <<<"$output"
    assert_equal "$npods" "$pending"
    assert_equal "$nentries" "$((npods * nodes))"
}

@test "the report on a pipe is the same bytes as in a file" {
    "$KP" -f "$BATS_FILE_TMPDIR/gen.json" -o json --explain-nodes \
        >"$BATS_TEST_TMPDIR/file" 2>/dev/null
    "$KP" -f "$BATS_FILE_TMPDIR/gen.json" -o json --explain-nodes \
        2>/dev/null | cat >"$BATS_TEST_TMPDIR/pipe"
    cmp "$BATS_TEST_TMPDIR/file" "$BATS_TEST_TMPDIR/pipe"
}

@test "a report that cannot be written is an error, exit status 1" {
    [ -w /dev/full ] || skip "no /dev/full"
    run -1 bash -c '"$0" -f "$1" -o json --explain-nodes >/dev/full' \
        "$KP" "$BATS_FILE_TMPDIR/gen.json"
    assert_output --partial 'error: writing output'
}
