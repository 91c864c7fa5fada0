#!/usr/bin/env bats
# calls_up.bats - issue 28: tests/tools/calls_up_check reads the build's
# objects with nm and fails on a call up that the #include check cannot
# see: a symbol used by an object of a lower floor (README "Who may
# include whom") and defined by one of a higher floor.  Shown here on a
# copy of the build's objects with one planted call up, and on the
# Evaluator's MoreImportantPod, which the victim tables once called up
# (now core/sched/framework/more_important_pod.c).

load '../helpers/common'

setup() {
    need python3 nm cc
    B="$(dirname "$KP")"
    [ -d "$B/core/util" ] || skip "no objects under $B/core (build first)"
    T="$BATS_TEST_TMPDIR/build"
    mkdir -p "$T"
    cp -r "$B/core" "$B/cmd" "$T/"
}

@test "calls up: the build as it is passes, listing the known ones" {
    run "$ROOT/tests/tools/calls_up_check" --root "$ROOT" "$T"
    assert_success
    assert_line --partial "ok 1 - no call up between floors"
    assert_line --partial "# known: core/sched/plugins/helper/selcount.c calls kp_node_table"
    refute_line --partial "kp_importance_cmp"
}

@test "calls up: core/util calling the queue (core/sched) fails, naming both" {
    printf 'int kp_analyze(void);\nint planted(void) { return kp_analyze(); }\n' \
        >"$BATS_TEST_TMPDIR/planted.c"
    cc -c "$BATS_TEST_TMPDIR/planted.c" -o "$T/core/util/planted.o"
    run "$ROOT/tests/tools/calls_up_check" --root "$ROOT" "$T"
    assert_failure
    assert_line "not ok 1 - no call up between floors"
    assert_line "#   core/util/planted.c calls kp_analyze, defined in core/sched/simulate.c: core/util -> core/sched"
}

@test "calls up: the victim tables calling the Evaluator fails" {
    # victim_table.c sorts by MoreImportantPod; defined in the Evaluator's
    # room (core/sched/preemption) it would be a call up
    printf 'int kp_importance_cmp(void) { return 0; }\n' \
        >"$BATS_TEST_TMPDIR/evaluator.c"
    cc -c "$BATS_TEST_TMPDIR/evaluator.c" \
        -o "$T/core/sched/preemption/evaluator.o"
    rm "$T/core/sched/framework/more_important_pod.o"
    run "$ROOT/tests/tools/calls_up_check" --root "$ROOT" "$T"
    assert_failure
    assert_line "#   core/sched/plugins/defaultpreemption/victim_table.c calls kp_importance_cmp, defined in core/sched/preemption/evaluator.c: core/sched/plugins/* -> core/sched/preemption"
}
