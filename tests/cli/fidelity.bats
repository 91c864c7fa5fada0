#!/usr/bin/env bats
# fidelity.bats - four rules where the tool once disagreed with
# kube-scheduler v1.35-v1.37 (issue 13), each through the command line in
# both modes, on the fixtures of tests/fixtures/fidelity (written by its
# make_fixtures.py).  Each expected answer is worked out from the cited
# upstream source in the test's comment.
#
# KP_BIN overrides the binary under test (default build/kubectl-preempt).

load '../helpers/common'

FIX="$ROOT/tests/fixtures/fidelity"

# decisions FILE MODE: one line per pod: name result node victims pdbViolations
decisions() {
    timeout -k 5 20 "$KP" -f "$FIX/$1" --mode "$2" -o json |
        jq -r '.pods[] | [.name, .result, (.nominatedNode // "-"),
               ([.victims[].name] | join(",") | if . == "" then "-" else . end),
               (.pdbViolations | tostring)] | join(" ")'
}

# NodePorts (node_ports.go, HostPortInfo.Remove in types.go): two running
# pods hold hostPort 8080 on n1; removing the lower-priority one in the
# dry run deletes the (0.0.0.0, TCP, 8080) entry although holder-high
# still declares it, so web fits there; putting holder-low back adds the
# entry again and fails: holder-low is the one victim.
@test "NodePorts: a port shared by two running pods is freed by removing the lower one (independent)" {
    need jq
    run decisions node_ports_shared.json independent
    assert_success
    assert_output "web Preempts n1 holder-low 0"
}

@test "NodePorts: a port shared by two running pods is freed by removing the lower one (queue)" {
    need jq
    run decisions node_ports_shared.json queue
    assert_success
    assert_output "web Preempts n1 holder-low 0"
}

# disruption.go countHealthyPods/updatePdbStatus: first evicts
# db-notready (Ready False); the controller never counted it healthy, so
# db-pdb keeps disruptionsAllowed 1 and second evicts db-ready within it.
@test "PDB budget: evicting a not-Ready pod leaves the budget (queue)" {
    need jq
    run decisions pdb_unhealthy_victims.json queue
    assert_success
    assert_output - <<'OUT'
first Preempts n2 db-notready 0
second Preempts n1 db-ready 0
OUT
}

@test "PDB budget: evicting a terminating pod leaves the budget (queue)" {
    need jq
    run decisions pdb_terminating_victim.json queue
    assert_success
    assert_output - <<'OUT'
first Preempts n2 db-terminating 0
second Preempts n1 db-ready 0
OUT
}

@test "PDB budget: evicting a pod already in disruptedPods leaves the budget (queue)" {
    need jq
    run decisions pdb_disrupted_victim.json queue
    assert_success
    assert_output - <<'OUT'
first Preempts n2 db-disrupted 0
second Preempts n1 db-ready 0
OUT
}

@test "PDB budget: independent mode never spends it" {
    need jq
    run decisions pdb_unhealthy_victims.json independent
    assert_success
    assert_output - <<'OUT'
first Preempts n2 db-notready 0
second Preempts n2 db-notready 0
OUT
}

# PodTopologySpread updateWithPod inside SelectVictimsOnNode: nominee
# (priority = preemptor's, nominated to n1) is added by
# addGENominatedPods; it does not match app=web, so n1's count stays 1
# once web-low is put back: skew 1+1-1 = 1 <= maxSkew, web-low is
# reprieved and big-low is the only victim.
@test "PodTopologySpread: a nominated pod outside the selector counts for nothing in the dry run" {
    need jq
    for mode in independent queue; do
        run decisions spread_nominated.json $mode
        assert_success
        assert_line --index 0 "preemptor Preempts n1 big-low 0"
    done
}

# The same with a matching nominee: n1 counts web-low + nominee = 2 once
# web-low is back, exactly once each; min over n1..n3 is 2, skew 1.
@test "PodTopologySpread: a matching nominated pod counts once in the dry run" {
    need jq
    for mode in independent queue; do
        run decisions spread_nominated_matching.json $mode
        assert_success
        assert_line --index 0 "preemptor Preempts n1 big-low 0"
    done
}

# InterPodAffinity satisfyPodAffinity / topologyToMatchedTermCount.update:
# db-low matches the preemptor's affinity term; put back it does not fit
# (cpu) and is removed again, its count returns to 0 and the entry is
# deleted, so "no pod matches anywhere and the pod matches its own terms"
# lets small-low stay although nominee is nominated to n1.
@test "InterPodAffinity: the first pod of a series still passes after a failed reprieve with a nominated pod" {
    need jq
    for mode in independent queue; do
        run decisions affinity_nominated.json $mode
        assert_success
        assert_line --index 0 "preemptor Preempts n1 db-low 0"
    done
}

# Every host port counts, however many a pod declares: with 300 others
# before it, web's 8080 still meets the shared one on n1 (they were cut
# at 256 once, silently, and web fitted).
@test "NodePorts: a pod's 301st host port still counts" {
    need jq
    jq '(.items[] | select(.kind == "Pod" and .metadata.name == "web")
         | .spec.containers[0].ports) =
        ([range(7000; 7300) | {containerPort: ., hostPort: .}] +
         [{containerPort: 8080, hostPort: 8080}])' \
        "$FIX/node_ports_shared.json" > "$BATS_TEST_TMPDIR/many.json"
    run timeout -k 5 20 "$KP" -f "$BATS_TEST_TMPDIR/many.json" -o json
    assert_success
    run jq -r '.pods[] | [.name, .result, ([.victims[].name] | join(","))] | join(" ")' <<<"$output"
    assert_output "web Preempts holder-low"
}
