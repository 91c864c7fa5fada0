#!/usr/bin/env bats
# exit_codes.bats - the exit statuses of the output contract: 0 analysis
# done, 1 bad input, 2 usage error, 3 a --fail-on condition matched.
#
# On examples/cluster.json: checkout-0 preempts with one PDB violation,
# search-0 preempts without any, sidecar-light fits, train-1 is
# Unschedulable, backfill-0 is NotEligible.
#
# KP_BIN overrides the binary under test (default build/kubectl-preempt).

load '../helpers/common'

CLUSTER="$ROOT/examples/cluster.json"
EXPECTED="$ROOT/tests/fixtures/expected"

setup() {
    OUT="$BATS_TEST_TMPDIR/stdout"
    ERR="$BATS_TEST_TMPDIR/stderr"
}

# run_kp ARGS...: stdout in $OUT, stderr in $ERR, exit status in $status.
run_kp() {
    status=0
    timeout -k 5 20 "$KP" "$@" >"$OUT" 2>"$ERR" || status=$?
}

# test_cmp EXPECTED ACTUAL: byte for byte the same (as git's test_cmp).
test_cmp() {
    diff -u "$1" "$2" >"$BATS_TEST_TMPDIR/diff" 2>&1 ||
        fail "$(printf '%s differs from %s:\n%s' "$2" "$1" \
                "$(cat "$BATS_TEST_TMPDIR/diff")")"
}

# expect_status N ARGS...: the run exits N with nothing on stderr but,
# for 3, the "fail-on CONDITION: ..." lines naming what matched (issue 26;
# why.bats pins their text).
expect_status() {
    local want=$1
    shift
    run_kp "$@"
    [ "$status" = "$want" ] ||
        fail "exit status $status, expected $want: kubectl-preempt $*"
    if [ "$want" = 3 ]; then
        [ -s "$ERR" ] || fail "exit 3 without a fail-on line on stderr"
        grep -v '^fail-on [a-z-]*: ' "$ERR" >"$BATS_TEST_TMPDIR/other" || true
        test_cmp /dev/null "$BATS_TEST_TMPDIR/other"
    else
        test_cmp /dev/null "$ERR"
    fi
}

# expect_usage_error PREFIX ARGS...: exit 2, nothing on stdout, one line on
# stderr starting with PREFIX (the rest names the accepted values, which
# grow with the tool).
expect_usage_error() {
    local prefix=$1 first
    shift
    run_kp "$@"
    [ "$status" = 2 ] || fail "exit status $status, expected 2: $*"
    test_cmp /dev/null "$OUT"
    first=$(head -1 "$ERR")
    [ "$(wc -l <"$ERR")" = 1 ] ||
        fail "$(printf 'stderr is not one line:\n%s' "$(cat "$ERR")")"
    [[ "$first" == "$prefix"* ]] ||
        fail "stderr '$first' does not start with '$prefix'"
}

@test "0: the analysis is done, whatever it found" {
    expect_status 0 -f "$CLUSTER"
    expect_status 0 -f "$CLUSTER" -o json
    expect_status 0 -f "$CLUSTER" -o wide --mode independent
}

# --- --fail-on: 3 when a reported pod matches, 0 when none does -----------

@test "--fail-on preemption: 3 when a reported pod preempts" {
    expect_status 3 -f "$CLUSTER" --fail-on preemption
    # the report is printed all the same
    test_cmp "$EXPECTED/cluster.table" "$OUT"
    expect_status 3 -f "$CLUSTER" --fail-on=preemption prod/search-0
}

@test "--fail-on preemption: 0 when no reported pod preempts" {
    expect_status 0 -f "$CLUSTER" --fail-on preemption prod/sidecar-light
    expect_status 0 -f "$CLUSTER" --fail-on preemption -n ml
    expect_status 0 -f "$CLUSTER" --fail-on preemption -l 'app in (light,train,backfill)'
}

@test "--fail-on pdb-violation: 3 when a reported pod violates a PDB" {
    expect_status 3 -f "$CLUSTER" --fail-on pdb-violation
    test_cmp "$EXPECTED/cluster.table" "$OUT"
    expect_status 3 -f "$CLUSTER" --fail-on pdb-violation prod/checkout-0
}

@test "--fail-on pdb-violation: 0 when the preemptions violate none" {
    # alone against the snapshot, search-0 preempts without a violation
    # (in queue mode checkout-0's evictions have used etl-pdb's budget)
    expect_status 0 -f "$CLUSTER" --mode independent \
        --fail-on pdb-violation prod/search-0
    expect_status 0 -f "$CLUSTER" --fail-on pdb-violation -l app=light
}

@test "--fail-on unschedulable: 3 when a reported pod is Unschedulable" {
    expect_status 3 -f "$CLUSTER" --fail-on unschedulable
    test_cmp "$EXPECTED/cluster.table" "$OUT"
    expect_status 3 -f "$CLUSTER" --fail-on unschedulable -n ml
}

@test "--fail-on unschedulable: 0 when every reported pod can be placed" {
    expect_status 0 -f "$CLUSTER" --fail-on unschedulable -n prod
    expect_status 0 -f "$CLUSTER" --fail-on unschedulable prod/checkout-0
}

@test "--fail-on, repeated: 3 when any of the conditions matches" {
    expect_status 3 -f "$CLUSTER" --fail-on unschedulable \
        --fail-on pdb-violation -n prod
    expect_status 3 -f "$CLUSTER" --fail-on preemption \
        --fail-on unschedulable -n ml
    expect_status 0 -f "$CLUSTER" --fail-on preemption \
        --fail-on pdb-violation --fail-on unschedulable prod/sidecar-light
}

@test "--fail-on with -o json: 3 and the complete report" {
    expect_status 3 -f "$CLUSTER" --mode queue -o json --fail-on preemption
    test_cmp "$EXPECTED/cluster.json" "$OUT"
}

@test "--fail-on with nothing reported: 0, and stderr says nothing was found" {
    run_kp -f "$CLUSTER" --fail-on preemption --fail-on \
        pdb-violation --fail-on unschedulable -n no-such-namespace
    assert_equal "$status" 0
    test_cmp /dev/null "$OUT"
    assert_equal "$(cat "$ERR")" \
        "No pending pods found in namespace no-such-namespace."
}

# --- 1: bad input -----------------------------------------------------------

@test "1: bad input wins over --fail-on, nothing on stdout" {
    run_kp -f "$ROOT/tests/bad/truncated.json" --fail-on preemption
    assert_equal "$status" 1
    test_cmp /dev/null "$OUT"
    assert_equal "$(wc -l <"$ERR")" 1
}

@test "1: a missing file among good ones, nothing on stdout" {
    run_kp -f "$CLUSTER" -f "$BATS_TEST_TMPDIR/missing.json"
    assert_equal "$status" 1
    test_cmp /dev/null "$OUT"
    assert_equal "$(cat "$ERR")" \
        "error: $BATS_TEST_TMPDIR/missing.json: No such file or directory"
}

@test "0: the same snapshot twice is merged (issue 29); 1: an object that differs" {
    run_kp -f "$CLUSTER"
    cp "$OUT" "$BATS_TEST_TMPDIR/once"
    run_kp -f "$CLUSTER" -f "$CLUSTER"
    assert_equal "$status" 0
    test_cmp "$BATS_TEST_TMPDIR/once" "$OUT"
    need jq
    jq '(.items[] | select(.metadata.name == "web-0") | .metadata.labels.x) = "y"' \
        "$CLUSTER" >"$BATS_TEST_TMPDIR/changed.json"
    run_kp -f "$CLUSTER" -f "$BATS_TEST_TMPDIR/changed.json"
    assert_equal "$status" 1
    test_cmp /dev/null "$OUT"
    assert_equal "$(cat "$ERR")" "error: $BATS_TEST_TMPDIR/changed.json: pod 'prod/web-0': metadata.name: duplicate object: $CLUSTER has it with other contents (identical copies are merged)"
}

@test "1: an unknown POD argument, one line even when the snapshot warns" {
    run_kp -f "$ROOT/tests/ok-with-warnings/pod_on_missing_node.json" \
        prod/no-such-pod
    assert_equal "$status" 1
    test_cmp /dev/null "$OUT"
    assert_equal "$(cat "$ERR")" "error: pod 'prod/no-such-pod' not found"
}

# --- 2: usage errors --------------------------------------------------------

@test "2: bad values of -o, --mode, --fail-on" {
    expect_usage_error "error: invalid output format 'xml': expected " \
        -f "$CLUSTER" -o xml
    expect_usage_error "error: invalid output format 'JSON': expected " \
        -f "$CLUSTER" --output=JSON
    expect_usage_error "error: invalid mode 'fast': expected " \
        -f "$CLUSTER" --mode fast
    expect_usage_error "error: invalid value 'never' for --fail-on: " \
        -f "$CLUSTER" --fail-on never
    expect_usage_error "error: invalid value '' for --fail-on: " \
        -f "$CLUSTER" --fail-on=
}

@test "2: bad numbers" {
    expect_usage_error \
        "error: invalid value '-1' for --offset: expected an integer in [0, 9223372036854775807]" \
        -f "$CLUSTER" --offset -1
    expect_usage_error \
        "error: invalid value '1x' for --offset: expected an integer in [0, 9223372036854775807]" \
        -f "$CLUSTER" --offset 1x
    expect_usage_error \
        "error: invalid value '101' for --min-candidate-nodes-percentage: expected an integer in [0, 100]" \
        -f "$CLUSTER" --min-candidate-nodes-percentage 101
    expect_usage_error \
        "error: invalid value '-1' for --min-candidate-nodes-absolute: expected an integer in [0, 2147483647]" \
        -f "$CLUSTER" --min-candidate-nodes-absolute -1
    expect_usage_error \
        "error: invalid value '99999999999999999999' for --offset: expected an integer in [0, 9223372036854775807]" \
        -f "$CLUSTER" --offset 99999999999999999999
}

@test "2: bad selectors and names" {
    expect_usage_error "error: invalid label selector 'app in (x'" \
        -f "$CLUSTER" -l 'app in (x'
    expect_usage_error "error: --namespace needs a name" \
        -f "$CLUSTER" -n ''
    expect_usage_error "error: --scheduler-name needs a name" \
        -f "$CLUSTER" --scheduler-name ''
}

@test "2: unknown flags and flags missing their value" {
    expect_usage_error "error: unknown flag: --bogus" \
        -f "$CLUSTER" --bogus
    expect_usage_error "error: flag needs an argument: 'o' in -o" \
        -f "$CLUSTER" -o
    expect_usage_error "error: flag needs an argument: 'f' in -f" -f
    expect_usage_error "error: flag needs an argument: --output" \
        -f "$CLUSTER" --output
}

@test "2: a usage error is found before any input is read" {
    run_kp -f "$BATS_TEST_TMPDIR/missing.json" -o xml
    assert_equal "$status" 2
    test_cmp /dev/null "$OUT"
    run_kp -f "$ROOT/tests/bad/truncated.json" --mode fast
    assert_equal "$status" 2
    test_cmp /dev/null "$OUT"
}

@test "0: --help prints usage on stdout" {
    run_kp --help
    assert_equal "$status" 0
    test_cmp /dev/null "$ERR"
    run head -1 "$OUT"
    assert_output "Usage: kubectl-preempt [flags] [POD...]"
}
