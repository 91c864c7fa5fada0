#!/usr/bin/env bats
# help.bats - issue 29: help per command, generated from the flag table
# (cmd/help.c): "help", "help COMMAND", "COMMAND --help" and "--help
# COMMAND" print the command's usage, examples and only the flags it
# takes, within 80 columns, and never read a cluster.
#
# KP_BIN overrides the binary under test (default build/kubectl-preempt).

load '../helpers/common'

setup() {
    # a run that read a cluster would fail here: no kubeconfig, no server
    export KUBECONFIG="$BATS_TEST_TMPDIR/no-such-kubeconfig"
    export HOME="$BATS_TEST_TMPDIR"
    export KP_SERVICEACCOUNT_DIR="$BATS_TEST_TMPDIR/no-serviceaccount"
}

# widest NAME...: the widest line of each help, a tab as 8 columns
widest() {
    "$KP" help "$@" | expand | awk '{ if (length($0) > m) m = length($0) } END { print m }'
}

@test "help and help explain are help, not pod names for the cluster" {
    run --separate-stderr "$KP" help
    assert_success
    assert_line --index 0 'Usage: kubectl-preempt [flags] [POD...]'
    assert_equal "$stderr" ''
    assert_equal "$output" "$("$KP" --help)"
    run --separate-stderr "$KP" help explain
    assert_success
    assert_line --index 0 'Usage: kubectl-preempt explain [flags] [POD...]'
    assert_equal "$stderr" ''
}

@test "explain --help, --help explain and help explain print the same, explain's own" {
    local want
    want=$("$KP" help explain)
    run --separate-stderr "$KP" explain --help
    assert_success
    assert_equal "$output" "$want"
    run --separate-stderr "$KP" --help explain
    assert_equal "$output" "$want"
    run --separate-stderr "$KP" -f x.json explain -h
    assert_equal "$output" "$want"
}

@test "explain's help lists only flags explain takes: no what-ifs, no --add, no --sort-by" {
    run "$KP" help explain
    assert_success
    local f
    for f in --drain --cordon --add --add-node --only-added --explain-nodes --sort-by --mode --offset; do
        refute_line --regexp "^ +(-., )?$f( |\$)"
    done
    assert_line --regexp '^  -f, --filename FILE$'
    assert_line --regexp '^      --fail-on CONDITION$'
    # and explain really refuses what its help leaves out
    run --separate-stderr "$KP" explain -f "$ROOT/examples/incident.json" --drain node-a
    assert_failure 2
}

@test "each help has examples and fits in 80 columns" {
    local c
    for c in '' explain version completion help; do
        run "$KP" help $c
        assert_success
        assert_line 'Examples:' || [ "$c" = completion ]
        [ "$(widest $c)" -le 80 ] || fail "help $c is $(widest $c) columns wide"
    done
}

@test "the values of --fail-on, --mode and --profile are listed in --help" {
    run "$KP" --help
    assert_success
    assert_output --partial 'Values: preemption, pdb-violation, unschedulable, drain-blocked'
    assert_output --partial 'queue'
    assert_output --partial 'LowNodeUtilization'
}

@test "version --help is version's help; help of an unknown topic is a usage error" {
    run --separate-stderr "$KP" version --help
    assert_success
    assert_line --index 0 'Usage: kubectl-preempt version'
    refute_output --partial '--filename'
    run --separate-stderr "$KP" help nosuch
    assert_failure 2
    assert_output ''
    assert_equal "$stderr" 'error: unknown help topic "nosuch": expected explain, version, completion or help'
}

@test "help completion is completion's usage" {
    run --separate-stderr "$KP" help completion
    assert_success
    assert_line --index 0 'Usage: kubectl-preempt completion bash|zsh|fish'
}

@test "as a kubectl plugin: kubectl preempt help explain names kubectl preempt" {
    need kubectl
    mkdir -p "$BATS_TEST_TMPDIR/plugins"
    cp "$KP" "$BATS_TEST_TMPDIR/plugins/kubectl-preempt"
    PATH="$BATS_TEST_TMPDIR/plugins:$PATH" run --separate-stderr kubectl preempt help explain
    assert_success
    assert_line --index 0 'Usage: kubectl preempt explain [flags] [POD...]'
    assert_line '  kubectl preempt explain -n batch -o json'
}
