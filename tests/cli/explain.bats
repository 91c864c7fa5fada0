#!/usr/bin/env bats
# explain.bats - "kubectl-preempt explain": past preemptions read back
# from Events and DisruptionTarget conditions.
#
# examples/incident.json: checkout-0 has just preempted etl-worker-0 and
# etl-worker-1 on node-a (both terminating with DisruptionTarget, one
# Event through events.k8s.io/v1 with related, one through core/v1 naming
# the preemptor only by UID) and is nominated to node-a; half an hour
# earlier search-0 preempted etl-worker-2 on node-c, which is gone.
# tests/fixtures/explain/old-notes.json holds the older note forms.
#
# KP_BIN overrides the binary under test (default build/kubectl-preempt).

load '../helpers/common'

INCIDENT="$ROOT/examples/incident.json"
OLD="$ROOT/tests/fixtures/explain/old-notes.json"

@test "lists each preemption with victim, preemptor, node, time and PDBs" {
    run "$KP" explain -f "$INCIDENT"
    assert_success
    assert_output "$(cat <<'EOF'
TIME                   NODE     VICTIM               VICTIM-STATE   PREEMPTOR         PREEMPTOR-STATE   PDBS
2026-11-21T08:31:10Z   node-c   batch/etl-worker-2   Gone           prod/search-0     Running           <unknown>
2026-11-21T09:00:01Z   node-a   batch/etl-worker-0   Terminating    prod/checkout-0   Nominated         batch/etl-pdb(violated)
2026-11-21T09:00:01Z   node-a   batch/etl-worker-1   Terminating    prod/checkout-0   Nominated         batch/etl-pdb(violated)

Preemptors waiting for their victims (nominated, still pending):
NAMESPACE   NAME         PRIORITY   NOMINATED-NODE   TERMINATING-VICTIMS
prod        checkout-0   1000000    node-a           batch/etl-worker-0,batch/etl-worker-1
EOF
)"
}

@test "resolves a preemptor named only by UID in the note" {
    need jq
    run bash -c "'$KP' explain -f '$INCIDENT' -o json | jq -c '.preemptions[]
        | select(.victim.name == \"etl-worker-1\") | .preemptor
        | {namespace, name, uid, state, nominatedNode}'"
    assert_success
    assert_output '{"namespace":"prod","name":"checkout-0","uid":"0000-0012","state":"Nominated","nominatedNode":"node-a"}'
}

@test "joins a victim's event and DisruptionTarget condition into one entry" {
    need jq
    run bash -c "'$KP' explain -f '$INCIDENT' -o json |
        jq -c '[.preemptions[] | {v: .victim.name, e: .evidence}]'"
    assert_success
    assert_output '[{"v":"etl-worker-2","e":["event"]},{"v":"etl-worker-0","e":["event","condition"]},{"v":"etl-worker-1","e":["event","condition"]}]'
}

@test "-o json is a PreemptionHistory with nominated pods and their victims" {
    need jq
    run bash -c "'$KP' explain -f '$INCIDENT' -o json |
        jq -c '{apiVersion, kind, n: (.preemptions | length),
                first: .preemptions[0] | {time, node, pdbs: .podDisruptionBudgets,
                    victim: .victim.state, priority: .victim.priority},
                nominatedPods}'"
    assert_success
    assert_output '{"apiVersion":"kubectl-preempt/v1","kind":"PreemptionHistory","n":3,"first":{"time":"2026-11-21T08:31:10Z","node":"node-c","pdbs":null,"victim":"Gone","priority":null},"nominatedPods":[{"namespace":"prod","name":"checkout-0","priority":1000000,"nominatedNode":"node-a","terminatingVictims":["batch/etl-worker-0","batch/etl-worker-1"]}]}'
}

@test "POD narrows to preemptions it took part in, as victim or preemptor" {
    run "$KP" explain -f "$INCIDENT" --no-headers prod/search-0
    assert_success
    assert_output --regexp '^2026-11-21T08:31:10Z +node-c +batch/etl-worker-2 +Gone +prod/search-0 +Running +<unknown>$'
    run "$KP" explain -f "$INCIDENT" --no-headers -n batch etl-worker-1
    assert_success
    assert_line --index 0 --regexp ' batch/etl-worker-1 +Terminating +prod/checkout-0 '
    assert_equal "${#lines[@]}" 1
}

@test "-n keeps preemptions whose victim or preemptor is in the namespace" {
    need jq
    run bash -c "'$KP' explain -f '$INCIDENT' -n prod -o json |
        jq '.preemptions | length'"
    assert_success
    assert_output 3
    run bash -c "'$KP' explain -f '$INCIDENT' -n ml -o json |
        jq -c '[.preemptions, .nominatedPods]'"
    assert_output '[[],[]]'
}

@test "reads the note forms of v1.26 and v1.27, and the v1.26 condition reason" {
    run "$KP" explain -f "$OLD"
    assert_success
    assert_output "$(cat <<'EOF'
TIME                   NODE     VICTIM    VICTIM-STATE   PREEMPTOR    PREEMPTOR-STATE   PDBS
2023-01-10T10:00:00Z   node-1   batch/a   Gone           prod/api-0   Gone              <unknown>
2023-01-10T10:01:00Z   node-2   batch/b   Gone           <unknown>    Unknown           <unknown>
2023-01-10T10:05:00Z   node-2   batch/c   Terminating    <unknown>    Unknown           batch/c-pdb
EOF
)"
}

@test "an Event read through both APIs counts once; the kubelet's is not listed" {
    need jq
    run bash -c "'$KP' explain -f '$OLD' -o json |
        jq -c '[.preemptions[] | {v: .victim.name, count}]'"
    assert_success
    assert_output '[{"v":"a","count":1},{"v":"b","count":2},{"v":"c","count":1}]'
}

@test "a snapshot without preemptions prints nothing and says why on stderr" {
    run --separate-stderr "$KP" explain -f "$ROOT/examples/cluster.json"
    assert_success
    assert_output ""
    [[ "$stderr" == "warning: no preemptions found"* ]]
}

@test "the analysis of the same snapshot shows the preemptor waiting" {
    run "$KP" -f "$INCIDENT" --no-headers prod/checkout-0
    assert_success
    assert_output --regexp '^prod +checkout-0 +1000000 +NotEligible '
}

@test "explain without -f reads the live cluster, and names it when it is down" {
    run --separate-stderr "$KP" explain --server https://127.0.0.1:1 \
        --token t
    assert_failure 1
    assert_output ""
    [ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
    [[ "$stderr" == "error: "*"127.0.0.1:1"* ]]
}

@test "explain refuses --add and -o summary" {
    run "$KP" explain -f "$INCIDENT" --add "$ROOT/examples/release.yaml"
    assert_failure 2
    run "$KP" explain -f "$INCIDENT" -o summary
    assert_failure 2
}

@test "a Preempted event with a bad field exits 1 naming the event and field" {
    printf '%s' '{"kind": "Event", "metadata": {"name": "v.1",
        "namespace": "batch"}, "reason": "Preempted",
        "message": "Preempted by pod u-1 on node n1",
        "involvedObject": {"kind": "Pod", "name": "v"},
        "lastTimestamp": "yesterday"}' > "$BATS_TEST_TMPDIR/ev.json"
    run --separate-stderr "$KP" explain -f "$BATS_TEST_TMPDIR/ev.json"
    assert_failure 1
    assert_output ""
    [ "$stderr" = "error: $BATS_TEST_TMPDIR/ev.json: event 'batch/v.1': lastTimestamp: invalid RFC 3339 time 'yesterday'" ]
}

@test "-o wide adds the evidence and the event's note" {
    run "$KP" explain -f "$INCIDENT" -o wide --no-headers batch/etl-worker-0
    assert_success
    assert_line --index 0 --regexp ' batch/etl-pdb\(violated\) +event,condition +Preempted by pod 0000-0012 on node node-a$'
}

@test "explain --fail-on preemption exits 3 when a past preemption is listed, after the report" {
    run --separate-stderr "$KP" explain -f "$INCIDENT" --fail-on preemption
    assert_failure 3
    assert_line --index 0 --regexp '^TIME +NODE +VICTIM'
    run --separate-stderr "$KP" --fail-on preemption explain -f "$INCIDENT" -n nope
    assert_success
}

@test "explain --fail-on pdb-violation matches a victim whose PDB has no disruption left" {
    need jq
    # recomputed from the pods (issue 26), not status.disruptionsAllowed
    # (1, stale): etl-pdb wants 2 healthy, etl-worker-2 was gone before
    # 09:00, so evicting etl-worker-0 and -1 left 0 of 2
    run "$KP" explain -f "$INCIDENT" --fail-on pdb-violation
    assert_failure 3
    jq '(.items[] | select(.kind == "PodDisruptionBudget" and
         .metadata.name == "etl-pdb")) |= (.status.disruptionsAllowed = 0
         | .spec.minAvailable = 0)' "$INCIDENT" >"$BATS_TEST_TMPDIR/zero.json"
    run "$KP" explain -f "$BATS_TEST_TMPDIR/zero.json" --fail-on pdb-violation
    assert_success
    # without minAvailable/maxUnavailable: the budget left in status
    jq '(.items[] | select(.kind == "PodDisruptionBudget" and
         .metadata.name == "etl-pdb")) |= (.status.disruptionsAllowed = 0
         | del(.spec.minAvailable))' \
        "$INCIDENT" >"$BATS_TEST_TMPDIR/exhausted.json"
    run "$KP" explain -f "$BATS_TEST_TMPDIR/exhausted.json" -o json \
        --fail-on preemption,pdb-violation
    assert_failure 3
    assert_equal "$(jq -r .kind <<<"$output")" PreemptionHistory
    # search-0's victim is gone: its PDBs are unknown, nothing matches
    run "$KP" explain -f "$BATS_TEST_TMPDIR/exhausted.json" prod/search-0 \
        --fail-on pdb-violation
    assert_success
}

@test "explain --fail-on unschedulable is a usage error: no past preemption is unschedulable" {
    run --separate-stderr "$KP" explain -f "$INCIDENT" --fail-on unschedulable
    assert_failure 2
    assert_output ''
    assert_equal "$stderr" "error: explain looks at the past: --fail-on unschedulable does not apply (preemption and pdb-violation do)"
}

@test "explain -o yaml is its -o json document in kubectl's YAML" {
    run --separate-stderr "$KP" explain -f "$INCIDENT" -o yaml
    assert_success
    assert_line --index 0 'apiVersion: kubectl-preempt/v1'
    assert_line --index 1 'kind: PreemptionHistory'
    assert_line --index 2 'preemptions:'
    # a timestamp string is quoted, as kubectl -o yaml quotes
    # creationTimestamp (go-yaml v2 resolves it as a timestamp otherwise)
    assert_line --index 3 '- time: "2026-11-21T08:31:10Z"'
}

@test "explain -o jsonpath runs on the whole PreemptionHistory" {
    run "$KP" explain -f "$INCIDENT" \
        -o 'jsonpath={.preemptions[*].victim.name}'
    assert_success
    assert_output 'etl-worker-2 etl-worker-0 etl-worker-1'
}

@test "explain -o custom-columns has one row per preemption" {
    run "$KP" explain -f "$INCIDENT" -n batch \
        -o 'custom-columns=VICTIM:.victim.name,PREEMPTOR:.preemptor.name,NODE:.node'
    assert_success
    assert_output "$(printf '%s\n' 'VICTIM         PREEMPTOR    NODE' \
        'etl-worker-2   search-0     node-c' \
        'etl-worker-0   checkout-0   node-a' \
        'etl-worker-1   checkout-0   node-a')"
}

@test "explain refuses -o name and --sort-by: a preemption is two pods" {
    run --separate-stderr "$KP" explain -f "$INCIDENT" -o name
    assert_failure 2
    assert_equal "$stderr" "error: explain prints a table (-o table or wide), JSON (-o json) or what kubectl prints from it (-o yaml, jsonpath, custom-columns): -o summary, -o name and --sort-by do not apply"
    run --separate-stderr "$KP" explain -f "$INCIDENT" --sort-by .time
    assert_failure 2
    assert_output ""
}

@test "explain checks a jsonpath template before reading anything" {
    run --separate-stderr "$KP" explain -f /nonexistent -o 'jsonpath={.a'
    assert_failure 1
    [[ "$stderr" == "error: error parsing jsonpath {.a, "* ]]
}
