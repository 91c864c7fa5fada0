#!/usr/bin/env bats
# explain_replay.bats - issue 26: explain re-runs each past preemption as
# it was decided (victims restored, the victims of later preemptions
# running again, pods created or bound after it left out, a PDB status
# written before it read as the scheduler read it) and says why where it
# still differs from the record; and answers "would it still preempt
# today" against the files as they are.
#
# KP_BIN overrides the binary under test (default build/kubectl-preempt).

load '../helpers/common'

INCIDENT="$ROOT/examples/incident.json"

# a pod late-0 on node-a (2 CPU), created and bound at the given times
with_late() {
    jq --arg created "$1" --arg bound "$2" '.items += [{"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "late-0", "namespace": "prod", "uid": "late-0-uid", "creationTimestamp": $created, "labels": {"app": "late"}},
        "spec": {"nodeName": "node-a", "priorityClassName": "prod", "priority": 100000,
                 "containers": [{"name": "late", "image": "late:1", "resources": {"requests": {"cpu": "2", "memory": "1Gi"}}}]},
        "status": {"phase": "Running", "conditions": [{"type": "PodScheduled", "status": "True", "lastTransitionTime": $bound}, {"type": "Ready", "status": "True"}]}}]' \
        "$INCIDENT"
}

@test "the incident's replay picks the recorded node: etl-pdb's status predates the preemption, the scheduler read it" {
    need jq
    run --separate-stderr "$KP" explain -f "$INCIDENT" -o json
    assert_success
    assert_equal "$(jq -c '.replays[1] | [.preemptor.name, .result, .node, .sameNode, .decidedBy, .pdbViolations, .leftOut, .laterVictimsRestored, .pdbStatusAsRead, .why]' <<<"$output")" \
        '["checkout-0","Preempts","node-a",true,"highestVictimPriority",1,{"createdLater":2,"boundLater":0},0,1,null]'
    # search-0 (08:31): etl-worker-0/1, checkout-0's victims at 09:00, ran then
    assert_equal "$(jq -c '.replays[0] | [.result, .node, .missingVictims, .laterVictimsRestored, .leftOut.createdLater, .why]' <<<"$output")" \
        '["Fits","node-c",1,2,3,"1 of its victim(s) are gone from the snapshot and cannot be put back, so the pod fits where they were"]'
    run --separate-stderr "$KP" explain -f "$INCIDENT" -o wide
    assert_line 'Replayed as decided (victims restored, pods that came later left out, the preemptor pending again):'
    assert_line '    why it differs: 1 of its victim(s) are gone from the snapshot and cannot be put back, so the pod fits where they were'
}

@test "a status the disruption controller wrote after the preemption is recounted from the pods, and the replay says why it differs" {
    need jq
    # expectedPods 2: the two etl workers left, written after etl-worker-2 went
    jq '(.items[] | select(.kind == "PodDisruptionBudget" and .metadata.name == "etl-pdb") | .status.expectedPods) = 2' \
        "$INCIDENT" >"$BATS_TEST_TMPDIR/fresh.json"
    run --separate-stderr "$KP" explain -f "$BATS_TEST_TMPDIR/fresh.json" -o json
    assert_equal "$(jq -c '.replays[1] | [.result, .node, .sameNode, .pdbStatusAsRead, .why]' <<<"$output")" \
        '["Preempts","node-b",false,0,"1 PodDisruptionBudget(s) recounted from the pods at the decision (their status was written since) may allow other than what the scheduler read"]'
}

@test "a pod bound to the node after the preemption is left out of its replay; one bound before is not" {
    need jq
    with_late 2026-11-21T08:00:00Z 2026-11-21T09:30:00Z >"$BATS_TEST_TMPDIR/bound-later.json"
    run --separate-stderr "$KP" explain -f "$BATS_TEST_TMPDIR/bound-later.json" -o json
    assert_equal "$(jq -c '.replays[1] | [.result, .node, .sameNode, .leftOut]' <<<"$output")" \
        '["Preempts","node-a",true,{"createdLater":2,"boundLater":1}]'
    with_late 2026-11-21T09:10:00Z 2026-11-21T09:10:02Z >"$BATS_TEST_TMPDIR/created-later.json"
    run --separate-stderr "$KP" explain -f "$BATS_TEST_TMPDIR/created-later.json" -o json
    assert_equal "$(jq -c '.replays[1] | [.result, .node, .leftOut]' <<<"$output")" \
        '["Preempts","node-a",{"createdLater":3,"boundLater":0}]'
    # bound at 08:10, before it: it stays, 2 CPU on node-a, and the
    # replay no longer agrees with the record
    with_late 2026-11-21T08:00:00Z 2026-11-21T08:10:00Z >"$BATS_TEST_TMPDIR/before.json"
    run --separate-stderr "$KP" explain -f "$BATS_TEST_TMPDIR/before.json" -o json
    assert_equal "$(jq -c '.replays[1] | [.result, .node, .sameNode, .leftOut.boundLater, (.why != null)]' <<<"$output")" \
        '["Preempts","node-b",false,0,true]'
}

@test "today: a preemptor waiting for its victims would not preempt again; one running now would fit" {
    need jq
    run --separate-stderr "$KP" explain -f "$INCIDENT" -o json
    assert_equal "$(jq -c '[.replays[] | .today | [.result, .node, .victims]]' <<<"$output")" \
        '[["Fits","node-c",0],["NotEligible","node-a",0]]'
    run --separate-stderr "$KP" explain -f "$INCIDENT" -o wide
    assert_line '    today: NotEligible, nominated to node-a: it waits for its victims to terminate and would not preempt again'
    assert_line '    today: Fits on node node-c: it would not preempt'
}

@test "today: with the victims running again and no nomination, it would preempt the same two pods" {
    need jq
    jq '(.items[] | select(.kind == "Pod" and (.metadata.name == "etl-worker-0" or .metadata.name == "etl-worker-1")))
          |= (del(.metadata.deletionTimestamp) | .status.conditions |= map(select(.type != "DisruptionTarget")))
        | (.items[] | select(.kind == "Pod" and .metadata.name == "checkout-0") | .status) |= del(.nominatedNodeName)' \
        "$INCIDENT" >"$BATS_TEST_TMPDIR/again.json"
    run --separate-stderr "$KP" explain -f "$BATS_TEST_TMPDIR/again.json" -o json
    assert_equal "$(jq -c '.replays[1].today | [.result, .node, .victims]' <<<"$output")" '["Preempts","node-a",2]'
    run --separate-stderr "$KP" explain -f "$BATS_TEST_TMPDIR/again.json" -o wide
    assert_line '    today: Preempts on node node-a with 2 victim(s)'
}

@test "without a PodScheduled condition, the pod's Scheduled Event tells when it was bound (the same pod: its UID)" {
    need jq
    jq '.items += [{"apiVersion": "v1", "kind": "Pod",
          "metadata": {"name": "late-0", "namespace": "prod", "uid": "late-0-uid", "creationTimestamp": "2026-11-21T08:00:00Z"},
          "spec": {"nodeName": "node-a", "priority": 100000, "containers": [{"name": "late", "image": "late:1", "resources": {"requests": {"cpu": "2"}}}]},
          "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]}},
        {"apiVersion": "v1", "kind": "Event", "metadata": {"name": "late-0.1", "namespace": "prod"},
          "involvedObject": {"kind": "Pod", "namespace": "prod", "name": "late-0", "uid": "late-0-uid"},
          "reason": "Scheduled", "message": "Successfully assigned prod/late-0 to node-a", "lastTimestamp": "2026-11-21T09:30:00Z"}]' \
        "$INCIDENT" >"$BATS_TEST_TMPDIR/event.json"
    run --separate-stderr "$KP" explain -f "$BATS_TEST_TMPDIR/event.json" -o json
    assert_equal "$(jq -c '.replays[1] | [.result, .node, .leftOut.boundLater]' <<<"$output")" '["Preempts","node-a",1]'
    # an Event of another pod of that name says nothing about this one
    jq '(.items[] | select(.kind == "Event" and .metadata.name == "late-0.1") | .involvedObject.uid) = "other-uid"' \
        "$BATS_TEST_TMPDIR/event.json" >"$BATS_TEST_TMPDIR/other.json"
    run --separate-stderr "$KP" explain -f "$BATS_TEST_TMPDIR/other.json" -o json
    assert_equal "$(jq -c '.replays[1] | [.result, .node, .leftOut.boundLater]' <<<"$output")" '["Preempts","node-b",0]'
    # the Scheduled Event is no preemption: the table is as without it
    run --separate-stderr "$KP" explain -f "$BATS_TEST_TMPDIR/event.json"
    assert_equal "$output" "$("$KP" explain -f "$INCIDENT")"
}
