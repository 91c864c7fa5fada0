#!/usr/bin/env bats
# warnings.bats - warnings travel one way (core/run.h): wherever one is
# raised (loading, the scheduler configuration, the node what-ifs, the
# run), it reaches stderr once, as "warning: ...", and -o json's
# "warnings" (and the kubectl printers' document) once, in the same
# order: loading first, then the configuration, then the run.
#
# KP_BIN overrides the binary under test (default build/kubectl-preempt).

load '../helpers/common'

setup() {
    # a ConfigMap among the --add manifests: a warning while loading
    EXTRA="$BATS_TEST_TMPDIR/extra.yaml"
    cat >"$EXTRA" <<'YAML'
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: batch
data:
  a: b
YAML
    # from the configuration (--ignore-unknown-plugins) and from the
    # what-ifs (--only-added: the drain's pods are not in -n nope)
    ARGS=(-f "$ROOT/tests/fixtures/whatif/drain.json" --add "$EXTRA"
          --config "$ROOT/tests/fixtures/config/out-of-tree.yaml"
          --ignore-unknown-plugins --drain node-a --only-added -n nope)
    WANT="$EXTRA: ignored 1 object(s) that make no pods (ConfigMap)
profile 'default-scheduler': plugin 'Coscheduling' is not an in-tree plugin; simulated without it (--ignore-unknown-plugins)
--only-added: no pod to report: --add and the node what-ifs made 3 pod(s), none of them pending and selected"
}

# the "warning: " lines of $stderr, without the prefix
stderr_warnings() {
    printf '%s\n' "$stderr" | sed -n 's/^warning: //p'
}

@test "load, config and what-if warnings: each once on stderr and in -o json, in order" {
    need jq
    run --separate-stderr "$KP" "${ARGS[@]}" -o json
    assert_success
    assert_equal "$(stderr_warnings)" "$WANT"
    assert_equal "$(jq -r '.warnings[]' <<<"$output")" "$WANT"
}

@test "the kubectl printers read the same warnings (-o jsonpath), each once" {
    run --separate-stderr "$KP" "${ARGS[@]}" \
        -o 'jsonpath={range .warnings[*]}{@}{"\n"}{end}'
    assert_success
    assert_equal "$(stderr_warnings)" "$WANT"
    assert_equal "$output" "$WANT"
}

@test "the table run prints the same warnings once, before its notice" {
    run --separate-stderr "$KP" "${ARGS[@]}"
    assert_success
    assert_equal "$(stderr_warnings)" "$WANT"
    assert_equal "${stderr##*$'\n'}" "No pending pods found in namespace nope."
    assert_line --index 0 --partial "Drain of node node-a: 3 evicted"
}

@test "a run that fails prints its one error line and no warning" {
    run --separate-stderr "$KP" "${ARGS[@]}" -o json POD-THAT-IS-NOT-THERE
    assert_failure 1
    assert_equal "$stderr" "error: pod 'nope/POD-THAT-IS-NOT-THERE' not found"
    assert_equal "$output" ""
}

@test "explain's warnings reach stderr once too" {
    run --separate-stderr "$KP" explain -f "$ROOT/tests/fixtures/whatif/drain.json"
    assert_success
    assert_equal "$stderr" "warning: no preemptions found: no Preempted events, no pods with a DisruptionTarget condition from the scheduler, no nominated pods (events expire after one hour)"
}
