#!/usr/bin/env bats
# whatif.bats - what-if for nodes (issue 19): --cordon, --drain,
# --drain-selector, --force, --remove-node, --remove-nodes-selector,
# --add-node, --add-node-file.  Fixtures in tests/fixtures/whatif
# (make_fixtures.py says what each holds):
#   drain.json       node-a: a DaemonSet pod, a mirror pod, web-1 (emptyDir),
#                    db-0 and db-1 under db-pdb (1 disruption allowed), a
#                    finished Job pod; room on node-b and node-c
#   drain-hang.json  the same node-a plus a pod without a controller; no
#                    room anywhere else
#   drain-api.json   issue 24 items 8-11: a finished mirror pod, not-Ready
#                    pods under AlwaysAllow / IfHealthyBudget PDBs, a pod
#                    in its PDB's disruptedPods; no room anywhere else
#   zone.json        zone z1 (node-a1, node-a2) runs critical api pods;
#                    zone z2 is full of low-priority etl pods
#   grow.json        new-0 must preempt; a copy of node-b has room
#
# KP_BIN overrides the binary under test (default build/kubectl-preempt).

load '../helpers/common'

W="$ROOT/tests/fixtures/whatif"

# kp_rows FIXTURE ARGS...: NAME RESULT NOMINATED-NODE of each reported pod
kp_rows() {
    local f="$1"
    shift
    "$KP" -f "$W/$f" --no-headers "$@" | awk 'NF == 0 {exit} {print $2, $4, $5}'
}

# kp_jq FIXTURE FILTER ARGS...: jq -c FILTER on the -o json report
kp_jq() {
    local f="$1" q="$2"
    shift 2
    "$KP" -f "$W/$f" -o json "$@" | jq -c "$q"
}

# ---- cordon ----

@test "--cordon makes the node unschedulable and moves nothing" {
    for mode in queue independent; do
        run kp_rows grow.json --cordon node-b --mode "$mode"
        assert_success
        assert_output "new-0 Preempts node-a"
    done
    run "$KP" -f "$W/grow.json" --cordon node-a --cordon node-b -o wide
    assert_success
    assert_output --partial "2 node(s) were unschedulable"
}

@test "--cordon lets a pod that tolerates the unschedulable taint through" {
    run kp_rows grow.json --add-node node-b --cordon node-b-copy-1
    assert_success
    assert_output "$(printf '%s\n' 'ds-b-node-b-copy-1 Fits <none>' \
        'new-0 Preempts node-a')"
}

# ---- drain: kubectl's filters ----

@test "--drain keeps DaemonSet and mirror pods, deletes finished pods" {
    need jq
    for mode in queue independent; do
        run kp_jq drain.json '.drains[0] | [.kept[].name, .deleted[].name]' \
            --drain node-a --mode "$mode"
        assert_success
        assert_output '["ds-a","kube-proxy-node-a","done"]'
    done
}

@test "--drain evicts a pod with emptyDir data and says the data is lost" {
    need jq
    run kp_jq drain.json '.drains[0].evicted[] | select(.name == "web-1") |
        .note' --drain node-a
    assert_success
    assert_output '"deleting Pods with local storage: its emptyDir data is lost"'
}

@test "--drain requeues controller-owned pods as displaced pending pods" {
    need jq
    for mode in queue independent; do
        run kp_jq drain.json '[.pods[] | [.queuePosition, .name, .displaced]]' \
            --drain node-a --mode "$mode"
        assert_success
        assert_output '[[1,"db-0-replacement",{"node":"node-a","reason":"Drained","originalPod":"db-0","wave":0}],[2,"web-1-replacement",{"node":"node-a","reason":"Drained","originalPod":"web-1","wave":0}],[3,"db-1-replacement",{"node":"node-a","reason":"Drained","originalPod":"db-1","wave":1}]]'
    done
}

@test "a PDB-refused eviction goes through once an earlier replacement runs" {
    need jq
    run kp_jq drain.json '.drains[0] | [.evicted[] | [.name, .wave, .result]]
        + [.blockedBy]' --drain node-a
    assert_success
    assert_output '[["db-0",0,"Fits"],["db-1",1,"Fits"],["web-1",0,"Fits"],[]]'
    run "$KP" -f "$W/drain.json" --drain node-a --fail-on drain-blocked
    assert_success
    assert_output --partial "prod/db-1 -> db-1-replacement (after 1 wait for the PDB): Fits on node-c"
}

@test "a pod without a controller stops the drain unless --force" {
    need jq
    for mode in queue independent; do
        run --separate-stderr "$KP" -f "$W/drain-hang.json" --drain node-a \
            --mode "$mode" --fail-on drain-blocked
        assert_failure 3
        assert_output --partial "Drain of node node-a: 0 evicted, 0 blocked, 0 lost, 0 deleted, 2 kept; stopped: cannot delete cannot delete Pods that declare no controller (use --force to override): default/bare"
        assert_output --partial "  not-evicted prod/web-1: the drain stopped before evicting"
    done
    run kp_jq drain-hang.json '.drains[0].stopped, [.pods[].name]' \
        --drain node-a
    assert_output "$(printf '%s\n' '"cannot delete cannot delete Pods that declare no controller (use --force to override): default/bare"' '[]')"
}

@test "--force deletes a pod without a controller and does not recreate it" {
    need jq
    run kp_jq drain-hang.json '.drains[0].lost | map(del(.metadata))' --drain node-a --force
    assert_success
    assert_output '[{"namespace":"default","name":"bare","reason":"deleting Pods that declare no controller (--force): not recreated"}]'
}

@test "a drain hangs when no replacement under the PDB can run" {
    need jq
    for mode in queue independent; do
        run kp_jq drain-hang.json '.drains[0].blockedBy[] |
            [.name, .podDisruptionBudget]' --drain node-a --force \
            --mode "$mode"
        assert_success
        assert_output '["db-1","prod/db-pdb"]'
        run "$KP" -f "$W/drain-hang.json" --drain node-a --force \
            --mode "$mode" --fail-on drain-blocked
        assert_failure 3
        assert_output --partial "blocked     prod/db-1: the Eviction API refuses it (429: Cannot evict pod as it would violate the pod's disruption budget.); PDB prod/db-pdb allows no more disruption and 1 replacement(s) it covers stay pending"
        assert_output --partial "the drain would hang"
    done
}

# ---- drain: the Eviction API's unhealthy-pod and disruptedPods rules ----
# (issue 24; pkg/registry/core/pod/storage/eviction.go EvictionREST.Create,
# k8s.io/kubectl/pkg/drain/filters.go makeFilters)

@test "a finished mirror pod is kept: mirrorPodFilter runs before any phase test" {
    need jq
    for mode in queue independent; do
        run kp_jq drain-api.json '.drains[0] | [.kept[].name, .deleted[].name]' \
            --drain node-a --mode "$mode"
        assert_success
        assert_output '["static-done","ds-done"]'
    done
}

@test "AlwaysAllow: a not-Ready pod is evicted although its PDB allows none" {
    need jq
    for mode in queue independent; do
        run kp_jq drain-api.json '.drains[0].evicted[] | select(.name == "aa-0")
            | [.wave, .note]' --drain node-a --mode "$mode"
        assert_success
        assert_output '[0,"not Ready: the Eviction API deletes it without using the budget (unhealthyPodEvictionPolicy AlwaysAllow)"]'
    done
}

@test "IfHealthyBudget: a not-Ready pod goes when currentHealthy >= desiredHealthy > 0" {
    need jq
    for mode in queue independent; do
        # ih-pdb (policy unset) has 2 of 2 healthy: evicted with 0 allowed;
        # ix-pdb (IfHealthyBudget) has 1 of 2: refused, the drain hangs
        run kp_jq drain-api.json '.drains[0] | [[.evicted[].name],
            [.blockedBy[] | [.name, .podDisruptionBudget]]]' \
            --drain node-a --mode "$mode"
        assert_success
        assert_output '[["aa-0","dp-0","dp-1","ih-0"],[["ix-0","prod/ix-pdb"]]]'
        run "$KP" -f "$W/drain-api.json" --drain node-a --mode "$mode" \
            --fail-on drain-blocked
        assert_failure 3
        assert_output --partial "Drain of node node-a: 4 evicted, 1 blocked, 0 lost, 1 deleted, 1 kept"
        assert_output --partial "  evicted     prod/ih-0 -> ih-0-replacement: Unschedulable"
    done
}

@test "a pod already in its PDB's disruptedPods uses no disruption" {
    need jq
    for mode in queue independent; do
        # dp-pdb allows 1: dp-0 (disrupted) and dp-1 both go at once
        run kp_jq drain-api.json '[.drains[0].evicted[] |
            select(.name | startswith("dp-")) | [.name, .wave]]' \
            --drain node-a --mode "$mode"
        assert_success
        assert_output '[["dp-0",0],["dp-1",0]]'
    done
}

@test "an unknown unhealthyPodEvictionPolicy reads as IfHealthyBudget, with a warning" {
    need jq
    jq '(.items[] | select(.metadata.name == "ih-pdb") | .spec)
        .unhealthyPodEvictionPolicy = "Sometimes"' "$W/drain-api.json" \
        > "$BATS_TEST_TMPDIR/c.json"
    run --separate-stderr "$KP" -f "$BATS_TEST_TMPDIR/c.json" --drain node-a \
        -o json
    assert_success
    assert_equal "$(printf '%s' "$output" | jq -c '([.warnings[] |
        select(test("Sometimes"))] | length), [.drains[0].evicted[].name]')" \
        "$(printf '%s\n' 1 '["aa-0","dp-0","dp-1","ih-0"]')"
    assert_equal "$stderr" "warning: PodDisruptionBudget 'prod/ih-pdb': spec.unhealthyPodEvictionPolicy: unsupported value 'Sometimes': read as IfHealthyBudget, as the Eviction API reads it"
}

@test "--drain-selector drains every matching node" {
    need jq
    run kp_jq drain.json '[.drains[].node]' \
        --drain-selector topology.kubernetes.io/zone=z1
    assert_success
    assert_output '["node-a","node-b"]'
}

@test "-o summary counts what each drain did" {
    run "$KP" -f "$W/drain.json" --drain node-a -o summary
    assert_success
    assert_line "Drain of node node-a: 3 evicted, 0 blocked, 0 lost, 1 deleted, 2 kept; replacements: 3 Fits, 0 Preempts, 0 Unschedulable, 0 NotEligible"
    refute_output --partial "  evicted "
}

@test "-o wide marks displaced pods in the message" {
    run "$KP" -f "$W/drain.json" --drain node-a -o wide
    assert_success
    assert_output --partial "displaced from node-a (drained): fits on node node-b without preemption"
}

# ---- a node or a zone lost ----

@test "a lost zone's critical pods come back and preempt in the other zone" {
    run kp_rows zone.json --remove-nodes-selector topology.kubernetes.io/zone=z1
    assert_success
    assert_output "$(printf '%s\n' 'api-0-replacement Preempts node-b1' \
        'api-1-replacement Preempts node-b2')"
    run kp_rows zone.json --remove-nodes-selector topology.kubernetes.io/zone=z1 \
        --mode independent
    assert_success
    assert_output "$(printf '%s\n' 'api-0-replacement Preempts node-b1' \
        'api-1-replacement Preempts node-b1')"
}

@test "a lost node's DaemonSet and bare pods are lost, not recreated" {
    need jq
    for mode in queue independent; do
        run kp_jq zone.json '[.removedNodes[] | [.node, [.lost[].name],
            [.evicted[] | .replacement]]], .drains' --remove-node node-a1 \
            --remove-node node-a2 --mode "$mode"
        assert_success
        assert_output "$(printf '%s\n' '[["node-a1",["ds-a1"],["api-0-replacement"]],["node-a2",["bare-a2"],["api-1-replacement"]]]' '[]')"
    done
}

@test "a lost node spends the budget of its healthy pods without asking" {
    need jq
    run kp_jq zone.json '[.pods[] | [.name, .displaced.reason, .pdbViolations]]' \
        --remove-nodes-selector topology.kubernetes.io/zone=z1
    assert_success
    assert_output '[["api-0-replacement","NodeRemoved",0],["api-1-replacement","NodeRemoved",1]]'
}

# ---- added capacity ----

@test "--add-node turns a Preempts into Fits and queues the DaemonSet pods" {
    need jq
    for mode in queue independent; do
        run kp_rows grow.json --add-node node-b --mode "$mode"
        assert_success
        assert_output "$(printf '%s\n' 'ds-b-node-b-copy-1 Fits <none>' \
            'new-0 Fits <none>')"
    done
    run kp_jq grow.json '[.pods[] | [.name, .node]]' --add-node node-b=2
    assert_output '[["ds-b-node-b-copy-1","node-b-copy-1"],["ds-b-node-b-copy-2","node-b-copy-2"],["new-0","node-b-copy-1"]]'
}

@test "--add-node: the copy's hostname is its own to pod anti-affinity (its kept label hash renamed too)" {
    # x-2 may not share a host with an app=x pod (its own required
    # anti-affinity on kubernetes.io/hostname); node-a is full.  x-1
    # takes node-a-copy-1, so x-2 has no node: had the copy kept node-a's
    # hostname hash (labels.h kp_label.h), its label would miss the count
    # of x-2's term there (summed by domain, hashed from the strings).
    need jq
    local anti='"affinity":{"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"labelSelector":{"matchLabels":{"app":"x"}},"topologyKey":"kubernetes.io/hostname"}]}}'
    local res='"resources":{"requests":{"cpu":"1"}}'
    cat >"$BATS_TEST_TMPDIR/anti.json" <<EOF
{"kind":"List","apiVersion":"v1","items":[
{"kind":"Node","apiVersion":"v1","metadata":{"name":"node-a","labels":{"kubernetes.io/hostname":"node-a","zone":"z1"}},"status":{"allocatable":{"cpu":"4","memory":"8Gi","pods":"10"}}},
{"kind":"Pod","apiVersion":"v1","metadata":{"name":"old","namespace":"default","uid":"u0"},"spec":{"nodeName":"node-a","containers":[{"name":"c","resources":{"requests":{"cpu":"3500m"}}}]},"status":{"phase":"Running"}},
{"kind":"Pod","apiVersion":"v1","metadata":{"name":"x-1","namespace":"default","uid":"u1","labels":{"app":"x"}},"spec":{"containers":[{"name":"c",$res}]},"status":{"phase":"Pending"}},
{"kind":"Pod","apiVersion":"v1","metadata":{"name":"x-2","namespace":"default","uid":"u2","labels":{"app":"x"}},"spec":{$anti,"containers":[{"name":"c",$res}]},"status":{"phase":"Pending"}}
]}
EOF
    for t in 1 2; do
        run env KUBECTL_PREEMPT_PARALLELISM=$t "$KP" -f "$BATS_TEST_TMPDIR/anti.json" \
            --add-node node-a -o json
        assert_success
        run jq -c '[.pods[] | [.name, .result, .node]]' <<<"$output"
        assert_output '[["x-1","Fits","node-a-copy-1"],["x-2","Unschedulable",null]]'
    done
}

@test "--add-node-file adds the Node objects of a YAML file" {
    need jq
    for mode in queue independent; do
        run kp_jq grow.json '[.snapshot.nodes, (.pods[] | .node)]' \
            --add-node-file "$W/extra-nodes.yaml" --mode "$mode"
        assert_success
        assert_output '[3,"node-x"]'
    done
}

@test "--add-node-file reads JSON Nodes too" {
    need jq
    printf '%s' '{"kind":"Node","metadata":{"name":"node-j"},"status":{"allocatable":{"cpu":"8","memory":"8Gi","pods":"10"}}}' \
        >"$BATS_TEST_TMPDIR/n.json"
    run kp_jq grow.json '[.pods[] | .node]' \
        --add-node-file "$BATS_TEST_TMPDIR/n.json"
    assert_success
    assert_output '["node-j"]'
}

@test "a lost node's pending nominees are nominated nowhere" {
    need jq
    jq '(.items[] | select(.metadata.name == "new-0") |
        .status.nominatedNodeName) = "node-a"' "$W/grow.json" \
        >"$BATS_TEST_TMPDIR/nominated.json"
    for mode in queue independent; do
        run "$KP" -f "$BATS_TEST_TMPDIR/nominated.json" -o json \
            --remove-node node-a --mode "$mode"
        assert_success
        run jq -c '[.pods[] | [.name, .result, .nominatedNode]]' <<<"$output"
        assert_output '[["new-0","Preempts","node-b"],["fill-a-replacement","Unschedulable",null]]'
    done
}

@test "--only-added reports displaced pods and pods of added nodes" {
    # and, issue 25, the pending pods whose answer the change touches:
    # new-0 preempted on node-a, the copy of node-b gives it room
    run kp_rows grow.json --add-node node-b --only-added
    assert_success
    assert_output "$(printf '%s\n' 'ds-b-node-b-copy-1 Fits <none>' \
        'new-0 Fits <none>')"
    run kp_rows drain.json --drain node-a --only-added
    assert_success
    assert_output --partial "db-0-replacement Fits"
}

@test "--fail-on unschedulable matches displaced pods" {
    run "$KP" -f "$W/drain-hang.json" --drain node-a --force \
        --fail-on unschedulable
    assert_failure 3
}

# ---- bad input: one stderr line naming the flag, nothing on stdout ----

bad() {
    local code="$1" msg="$2"
    shift 2
    run --separate-stderr "$KP" "$@"
    assert_failure "$code"
    assert_output ""
    assert_equal "$stderr" "$msg"
}

@test "a node that does not exist is an error naming the flag" {
    bad 1 "error: --drain 'nope': no node named 'nope' in the snapshot" \
        -f "$W/drain.json" --drain nope
    bad 1 "error: --cordon 'nope': no node named 'nope' in the snapshot" \
        -f "$W/drain.json" --cordon nope
    bad 1 "error: --remove-node 'nope': no node named 'nope' in the snapshot" \
        -f "$W/drain.json" --remove-node nope
    bad 1 "error: --add-node 'nope=2': no node named 'nope' in the snapshot" \
        -f "$W/drain.json" --add-node nope=2
}

@test "a selector that matches no node is an error naming the flag" {
    bad 1 "error: --drain-selector 'zone=none': no node matches the selector" \
        -f "$W/drain.json" --drain-selector zone=none
    bad 1 "error: --remove-nodes-selector 'zone=none': no node matches the selector" \
        -f "$W/drain.json" --remove-nodes-selector zone=none
    bad 2 "error: --drain-selector 'a in (': invalid label selector 'a in ('" \
        -f "$W/drain.json" --drain-selector 'a in ('
}

@test "bad values of the node what-if flags are usage errors" {
    bad 2 "error: --add-node 'node-a=0': COUNT must be an integer from 1 to 1000" \
        -f "$W/drain.json" --add-node node-a=0
    bad 2 "error: --drain 'node-a': the node is also removed (--remove-node or --remove-nodes-selector)" \
        -f "$W/drain.json" --drain node-a --remove-node node-a
    run --separate-stderr "$KP" -f "$W/drain.json" --force
    assert_failure 2
    assert_output ""
}

@test "--add-node-file refuses other kinds and missing files" {
    bad 1 "error: --add-node-file '$W/not-a-node.yaml': only Node objects are read, found a Pod" \
        -f "$W/grow.json" --add-node-file "$W/not-a-node.yaml"
    bad 1 "error: --add-node-file '$W/missing.yaml': No such file or directory" \
        -f "$W/grow.json" --add-node-file "$W/missing.yaml"
}

@test "explain refuses the node what-ifs" {
    run --separate-stderr "$KP" explain -f "$W/drain.json" --drain node-a
    assert_failure 2
    assert_output ""
    assert_equal "$stderr" "error: explain looks at the past: the node what-ifs (--cordon, --drain, --remove-node, --add-node, ...) and --fail-on drain-blocked do not apply"
}
