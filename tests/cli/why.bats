#!/usr/bin/env bats
# why.bats - issue 26: answers honest at a glance (a pod waiting for its
# victims, a sampled nomination, which pod a --fail-on matched, grouped
# --explain-nodes, -o summary totals, progress on a terminal) and the
# numbers behind "why does this pod not fit".
#
# KP_BIN overrides the binary under test (default build/kubectl-preempt).

load '../helpers/common'
load '../helpers/bench_cluster'

# bench/gen.c is deterministic: the same 2,000-node cluster every time
# (8,000 pods, 300 pending, 200 PDBs asked, 157 made)
setup_file() {
    bench_cluster "$BATS_FILE_TMPDIR/g2000.json" 2000 8000 300 200
}

G2000() { echo "$BATS_FILE_TMPDIR/g2000.json"; }

CLUSTER="$ROOT/examples/cluster.json"
NA="$ROOT/tests/fixtures/notanalysed/cluster.json"

@test "a pod waiting for its terminating victims shows waiting(N) under VICTIMS, not 0" {
    run --separate-stderr "$KP" -f "$NA" waiter
    assert_success
    assert_line --index 1 --regexp '^default +waiter +1000 +NotEligible +node1 +waiting\(1\) +0$'
    run --separate-stderr "$KP" -f "$NA" waiter -o wide
    assert_line --index 1 --regexp '^default +waiter +1000 +NotEligible +node1 +waiting\(1\) +0 '
    # preemptionPolicy Never waits for nothing: 0 as before
    run "$KP" -f "$CLUSTER" batch/backfill-0
    assert_line --index 1 --regexp '^batch +backfill-0 +500 +NotEligible +<none> +0 +0$'
}

@test "a sampled nomination is marked in the default table and summarised once under it" {
    run --separate-stderr "$KP" -f "$CLUSTER" \
        --min-candidate-nodes-absolute 1 --min-candidate-nodes-percentage 0
    assert_success
    assert_line --index 1 --regexp '^prod +checkout-0 +1000000 +Preempts +node-a\* +2 +1$'
    assert_line --index 6 '* 2 of 2 preemption(s): the nominated node is the best of 1 candidates DryRunPreemption found among 3 potential nodes before it stopped; kube-scheduler starts at a random offset, so it may nominate another node (--offset, -o wide, JSON "sampled")'
    assert_equal "${#lines[@]}" 7
    # not sampled: no marker, no footnote (the table as before)
    run "$KP" -f "$CLUSTER"
    refute_output --partial '*'
    # --no-headers keeps cells plain for scripts
    run "$KP" -f "$CLUSTER" --no-headers \
        --min-candidate-nodes-absolute 1 --min-candidate-nodes-percentage 0
    refute_output --partial '*'
}

@test "--fail-on names each matching pod and condition on stderr, after the report" {
    run --separate-stderr "$KP" -f "$CLUSTER" --fail-on preemption,pdb-violation,unschedulable
    assert_failure 3
    assert_equal "$stderr" "\
fail-on preemption: pod prod/checkout-0 preempts 2 pod(s) on node node-a
fail-on pdb-violation: pod prod/checkout-0 evicts batch/etl-worker-1 (batch/etl-pdb)
fail-on preemption: pod prod/search-0 preempts 1 pod(s) on node node-c
fail-on pdb-violation: pod prod/search-0 evicts batch/etl-worker-2 (batch/etl-pdb)
fail-on unschedulable: pod ml/train-1 fits nowhere, even after preemption"
    # only the conditions asked for, only the pods reported
    run --separate-stderr "$KP" -f "$CLUSTER" --fail-on unschedulable -n prod
    assert_success
    assert_equal "$stderr" ""
    run --separate-stderr "$KP" -f "$CLUSTER" --fail-on unschedulable -o json
    assert_failure 3
    assert_equal "$stderr" "fail-on unschedulable: pod ml/train-1 fits nowhere, even after preemption"
}

@test "--fail-on drain-blocked names the drain and why" {
    run --separate-stderr "$KP" -f "$ROOT/tests/fixtures/whatif/drain-hang.json" \
        --drain node-a --fail-on drain-blocked
    assert_failure 3
    assert_equal "${stderr_lines[-1]}" "fail-on drain-blocked: the drain of node node-a stops at once, evicting nothing: cannot delete cannot delete Pods that declare no controller (use --force to override): default/bare"
    run --separate-stderr "$KP" -f "$ROOT/tests/fixtures/whatif/drain-hang.json" \
        --drain node-a --force --fail-on drain-blocked
    assert_failure 3
    assert_equal "$stderr" "fail-on drain-blocked: the drain of node node-a would hang: 1 pod(s) cannot be evicted, first prod/db-1 (PodDisruptionBudget prod/db-pdb)"
}

@test "explain --fail-on names each past preemption it matched" {
    run --separate-stderr "$KP" explain -f "$ROOT/examples/incident.json" --fail-on preemption
    assert_failure 3
    assert_equal "$stderr" "\
fail-on preemption: pod batch/etl-worker-2 was preempted by prod/search-0 on node node-c
fail-on preemption: pod batch/etl-worker-0 was preempted by prod/checkout-0 on node node-a
fail-on preemption: pod batch/etl-worker-1 was preempted by prod/checkout-0 on node node-a"
}

@test "-o summary ends with the totals of its rows" {
    run "$KP" -f "$CLUSTER" -o summary
    assert_success
    assert_line --index 5 --regexp '^TOTAL +- +- +5 +1 +2 +1 +1 +3 +2$'
    assert_equal "${#lines[@]}" 6
    # one row: nothing to add up; --no-headers: rows only, for scripts
    run "$KP" -f "$CLUSTER" -o summary -n ml
    refute_output --partial TOTAL
    run "$KP" -f "$CLUSTER" -o summary --no-headers
    refute_output --partial TOTAL
}

@test "--explain-nodes groups the nodes that read the same, with their count; -v one line per node" {
    run --separate-stderr "$KP" -f "$CLUSTER" --explain-nodes ml/train-1 prod/search-0
    assert_success
    assert_output - <<'EOT'
NAMESPACE   NAME       PRIORITY   RESULT          NOMINATED-NODE   VICTIMS   PDB-VIOLATIONS
prod        search-0   100000     Preempts        node-c           1         1
  2 nodes (node-a, node-b)   NodeResourcesFit   Insufficient cpu                   preemption: noVictimsHelp (No preemption victims found for incoming pod)
  node-c                     NodeResourcesFit   Insufficient cpu                   preemption: candidate (1 victim, 1 PDB violation), nominated
  gpu-1                      TaintToleration    node(s) had untolerated taint(s)   preemption: notTried (Preemption is not helpful for scheduling)
ml          train-1    100000     Unschedulable   <none>           0         0
  3 nodes (node-a, node-b, node-c)   NodeAffinity      node(s) didn't match Pod's node affinity/selector   preemption: notTried (Preemption is not helpful for scheduling)
  gpu-1                              TaintToleration   node(s) had untolerated taint(s)                    preemption: notTried (Preemption is not helpful for scheduling)
EOT
    run --separate-stderr "$KP" -f "$CLUSTER" --explain-nodes -v ml/train-1
    assert_equal "$(grep -c '^  node-' <<<"$output")" 3
}

@test "--explain-nodes on 2,000 nodes: five lines whose counts add up to 2,000, not 2,000 lines" {
    local pod=ml-training/serve-ledger-jrrd7gtr25-486xn
    run --separate-stderr "$KP" -f "$(G2000)" --explain-nodes "$pod"
    assert_success
    assert_equal "${#lines[@]}" 7
    assert_equal "$(sed -n '3,$p' <<<"$output" | awk '{s += ($2 == "nodes" ? $1 : 1)} END {print s}')" 2000
    assert_line --index 2 --regexp '^  1122 nodes \(ip-10-0-110-200\.eu-west-1\.compute\.internal, \.\.\.\) +NodeResourcesFit +Insufficient cpu, Insufficient memory, Insufficient nvidia\.com/gpu +preemption: notTried '
    assert_line --index 3 --regexp '^  99 nodes .* preemption: candidate \(1 victim\)$'
    assert_line --index 6 --regexp '^  ip-10-133-237-48\.eu-west-1\.compute\.internal +NodeResourcesFit .* preemption: candidate \(1 victim\), nominated$'
    run --separate-stderr "$KP" -f "$(G2000)" --explain-nodes -v "$pod"
    assert_equal "${#lines[@]}" 2002
}

@test "on 2,000 nodes a sampled nomination is marked and counted once" {
    run --separate-stderr "$KP" -f "$(G2000)" \
        --min-candidate-nodes-percentage 1 --min-candidate-nodes-absolute 5
    assert_success
    assert_equal "$(grep -c 'Preempts .*\* ' <<<"$output")" 10
    assert_equal "${lines[-1]}" '* 10 of 10 preemption(s): the nominated node is the best of 5 candidates DryRunPreemption found among 100 potential nodes before it stopped; kube-scheduler starts at a random offset, so it may nominate another node (--offset, -o wide, JSON "sampled")'
}

@test "on a terminal a run shows its phases and counts on stderr, erased at the end; not with -o json, not in a pipe" {
    need script
    # script(1) gives the command a terminal; stdout goes to a file
    run script -qec "\"$KP\" -f \"$(G2000)\" -o summary >\"$BATS_TEST_TMPDIR/out\"" /dev/null
    assert_success
    assert_output --partial $'\r\e[Kkubectl-preempt: reading the cluster'
    assert_output --partial $'\r\e[Kkubectl-preempt: analysing pending pods'
    assert_output --regexp 'analysing pending pods [0-9]+/300'
    assert_output --partial $'\r\e[Kkubectl-preempt: rendering'
    # the last thing written erases the line
    [[ "$output" == *$'\r\e[K' ]]
    # the report itself is unchanged
    run "$KP" -f "$(G2000)" -o summary
    assert_equal "$output" "$(cat "$BATS_TEST_TMPDIR/out")"
    run script -qec "\"$KP\" -f \"$(G2000)\" -o json >/dev/null" /dev/null
    assert_output ""
    run --separate-stderr "$KP" -f "$(G2000)" -o summary
    assert_equal "$stderr" ""
}

# ---- item 1: the numbers behind a pod that does not fit ----

PODS="$ROOT/tests/fixtures/why/pods.yaml"

diag() { "$KP" -f "$CLUSTER" --add "$PODS" -o json "$@" 2>/dev/null; }

@test "diagnosis: an 8-CPU pod on 3900m nodes is larger than any node, which is why preemption is not tried" {
    need jq
    run diag prod/big-0
    assert_equal "$(jq -c '.pods[0].diagnosis | [.requests, .nodes, (.filters[0] | [.plugin, .reason, .nodes, .requested, .largestAllocatable, .largerThanAnyNode, .fragmented]), .preemption.notTried]' <<<"$output")" \
        '[{"cpu":"8","memory":"4Gi"},4,["NodeResourcesFit","Insufficient cpu",3,"8","3900m",true,false],4]'
    run "$KP" -f "$CLUSTER" --add "$PODS" -o describe prod/big-0
    assert_line '      requests 8 cpu; largest allocatable 3900m (node-a), most free 800m (node-b), 1500m free in all: larger than any node'
    assert_line 'Preemption:  no candidate; 4 node(s) not tried (evicting pods cannot change what rejects the pod there)'
}

@test "diagnosis: fragmentation, the free CPU counted with the nominated pods the Filter adds" {
    need jq
    # checkout-0 is nominated to node-a before search-0's turn: node-b has
    # the most free (800m), 1600m in all, search-0 wants 1500m
    run "$KP" -f "$CLUSTER" -o json prod/search-0
    assert_equal "$(jq -c '.pods[0].diagnosis.filters[0] | [.mostFree, .mostFreeNode, .totalFree, .fragmented]' <<<"$output")" \
        '["800m","node-b","1600m",true]'
    assert_equal "$(jq -c '.pods[0].diagnosis.preemption' <<<"$output")" \
        '{"eligible":true,"potentialNodes":3,"candidates":1,"notTried":1,"noLowerPriorityPods":2,"stillDoesNotFit":0,"notEvaluated":0,"pdbBlocks":[{"node":"node-c","podDisruptionBudget":"batch/etl-pdb","disruptionsAllowed":0,"coveredPods":1,"victims":["etl-worker-2"],"violations":1}],"pdbBlockCount":1}'
}

@test "diagnosis: a nodeSelector no node matches names the values the nodes have" {
    need jq
    run "$KP" -f "$CLUSTER" -o json ml/train-1
    assert_equal "$(jq -c '.pods[0].diagnosis.filters[0] | [.plugin, .nodes, .nodeSelector]' <<<"$output")" \
        '["NodeAffinity",3,[{"key":"node.kubernetes.io/instance-type","value":"p4d.24xlarge","matchingNodes":0,"nodeValues":[{"value":"m6i.xlarge","nodes":3},{"value":"g5.xlarge","nodes":1}]}]]'
    run "$KP" -f "$CLUSTER" -o describe ml/train-1
    assert_line '      nodeSelector node.kubernetes.io/instance-type=p4d.24xlarge matches 0 node(s) (the nodes have m6i.xlarge on 3, g5.xlarge on 1)'
}

@test "diagnosis: the untolerated taint by key, value and effect; the host port in use" {
    need jq
    run diag ml/gpu-job-0
    assert_equal "$(jq -c '.pods[0].diagnosis.filters[] | select(.plugin == "TaintToleration") | .taints' <<<"$output")" \
        '[{"key":"nvidia.com/gpu","value":"present","effect":"NoSchedule","nodes":1}]'
    run diag prod/proxy-1
    assert_equal "$(jq -c '.pods[0].diagnosis.filters[0] | [.plugin, .nodes, .hostPorts]' <<<"$output")" \
        '["NodePorts",1,[{"port":8080,"protocol":"TCP","hostIP":"0.0.0.0","nodesUsing":1}]]'
}

@test "diagnosis: only for pods that do not fit; not eligible says why" {
    need jq
    run "$KP" -f "$CLUSTER" -o json
    assert_equal "$(jq -c '[.pods[] | [.name, (.diagnosis != null)]]' <<<"$output")" \
        '[["checkout-0",true],["search-0",true],["sidecar-light",false],["train-1",true],["backfill-0",true]]'
    assert_equal "$(jq -c '.pods[4].diagnosis.preemption' <<<"$output")" \
        '{"eligible":false,"reason":"not eligible due to preemptionPolicy=Never."}'
}

@test "diagnosis on 2,000 nodes: the reasons' node counts, the largest node, every node accounted for" {
    need jq
    run --separate-stderr "$KP" -f "$(G2000)" -o json team-117/graphql-server-dj2nshs4p4-8mx57
    assert_success
    assert_equal "$(jq -c '.pods[0].diagnosis | [.nodes, [.filters[] | [.reason, .nodes]], .filters[0].largestAllocatable, .filters[0].largerThanAnyNode, .preemption.notTried]' <<<"$output")" \
        '[2000,[["Insufficient cpu",1900],["Insufficient memory",1900],["node(s) had untolerated taint(s)",100]],"15890m",true,2000]'
}

# ---- item 3: explain, the why ----

INCIDENT="$ROOT/examples/incident.json"

@test "explain -o wide prints each preemptor's FailedScheduling message once; JSON carries it" {
    need jq
    run --separate-stderr "$KP" explain -f "$INCIDENT" -o wide
    assert_success
    assert_line --index 4 "Why (each preemptor's FailedScheduling event):"
    assert_line --index 5 "  prod/checkout-0 on node-a: FailedScheduling: 0/4 nodes are available: 1 node(s) had untolerated taint(s), 3 Insufficient cpu. preemption: found a potential placement for pod on node node-a, preempting 2 victims."
    assert_equal "$(grep -c 'FailedScheduling: ' <<<"$output")" 1
    run "$KP" explain -f "$INCIDENT" -o json
    assert_equal "$(jq -c '[.preemptions[] | .preemptor.failedScheduling != null]' <<<"$output")" '[false,true,true]'
}

@test "explain recomputes the PDB violation from the pods, where status.disruptionsAllowed is stale" {
    need jq
    run "$KP" explain -f "$INCIDENT" -o json
    # etl-worker-2 is gone (unknown); etl-pdb's status still says 1 allowed
    assert_equal "$(jq -c '[.preemptions[] | [.victim.name, .violatesPDB]]' <<<"$output")" \
        '[["etl-worker-2",null],["etl-worker-0",true],["etl-worker-1",true]]'
    run --separate-stderr "$KP" explain -f "$INCIDENT" --fail-on pdb-violation
    assert_failure 3
    assert_equal "$stderr" "\
fail-on pdb-violation: evicting pod batch/etl-worker-0 violated a PodDisruptionBudget
fail-on pdb-violation: evicting pod batch/etl-worker-1 violated a PodDisruptionBudget"
    # a budget of 1 (minAvailable 1): the first victim uses it, the second violates
    jq '(.items[] | select(.kind == "PodDisruptionBudget" and .metadata.name == "etl-pdb")
         | .spec.minAvailable) = 1' "$INCIDENT" >"$BATS_TEST_TMPDIR/one.json"
    run "$KP" explain -f "$BATS_TEST_TMPDIR/one.json" -o json
    assert_equal "$(jq -c '[.preemptions[] | .violatesPDB]' <<<"$output")" '[null,false,true]'
    # maxUnavailable 50% of the 2 pods: 1 allowed, the same
    jq '(.items[] | select(.kind == "PodDisruptionBudget" and .metadata.name == "etl-pdb")
         | .spec) |= (del(.minAvailable) | .maxUnavailable = "50%")' "$INCIDENT" >"$BATS_TEST_TMPDIR/pct.json"
    run "$KP" explain -f "$BATS_TEST_TMPDIR/pct.json" -o json
    assert_equal "$(jq -c '[.preemptions[] | .violatesPDB]' <<<"$output")" '[null,false,true]'
}

@test "explain without events infers the preemptor from its nomination and says so" {
    need jq
    jq '.items |= map(select(.kind != "Event"))' "$INCIDENT" >"$BATS_TEST_TMPDIR/noev.json"
    run --separate-stderr "$KP" explain -f "$BATS_TEST_TMPDIR/noev.json"
    assert_success
    assert_line --index 1 --regexp '^2026-11-21T09:00:01Z +node-a +batch/etl-worker-0 +Terminating +prod/checkout-0\(inferred\) +Nominated +batch/etl-pdb\(violated\)$'
    assert_line --index 3 'Preemptors waiting for their victims (nominated, still pending):'
    run "$KP" explain -f "$BATS_TEST_TMPDIR/noev.json" -o json
    assert_equal "$(jq -c '[.preemptions[] | [.preemptor.name, .preemptor.inferred]]' <<<"$output")" \
        '[["checkout-0",true],["checkout-0",true]]'
    # with the events, nothing is inferred
    run "$KP" explain -f "$INCIDENT" -o json
    assert_equal "$(jq -c '[.preemptions[] | .preemptor.inferred]' <<<"$output")" '[null,null,null]'
}

@test "a PDB budget the disruption controller could not read leaves explain to its status, the run unchanged" {
    need jq
    jq '(.items[] | select(.kind == "PodDisruptionBudget" and .metadata.name == "etl-pdb")
         | .spec.minAvailable) = "lots"' "$INCIDENT" >"$BATS_TEST_TMPDIR/bad.json"
    run --separate-stderr "$KP" explain -f "$BATS_TEST_TMPDIR/bad.json" -o json
    assert_success
    # status.disruptionsAllowed (1) left: no violation known from the pods
    assert_equal "$(jq -c '[.preemptions[] | .violatesPDB]' <<<"$output")" '[null,null,null]'
    run --separate-stderr "$KP" explain -f "$BATS_TEST_TMPDIR/bad.json" --fail-on pdb-violation
    assert_success
}

# ---- item 2: fixes, each checked by the tool and re-run here by hand ----

@test "fixes: a nodeSelector no node matches is corrected or dropped; the change, applied by hand, gives the claimed outcome" {
    need jq
    # alone against the snapshot (queue mode: fix_queue.bats)
    run "$KP" -f "$CLUSTER" --mode independent -o json ml/train-1
    assert_equal "$(jq -c '.pods[0].fixes' <<<"$output")" \
        '[{"change":"nodeSelector","key":"node.kubernetes.io/instance-type","value":"m6i.xlarge","was":"p4d.24xlarge","result":"Preempts","node":"node-c","victims":2,"pdbViolations":0},{"change":"dropNodeSelector","key":"node.kubernetes.io/instance-type","value":"p4d.24xlarge","result":"Preempts","node":"node-c","victims":2,"pdbViolations":0}]'
    # apply the first fix to the snapshot and run the pod alone
    jq '(.items[] | select(.kind == "Pod" and .metadata.name == "train-1")
         | .spec.nodeSelector["node.kubernetes.io/instance-type"]) = "m6i.xlarge"' \
        "$CLUSTER" >"$BATS_TEST_TMPDIR/fixed.json"
    run "$KP" -f "$BATS_TEST_TMPDIR/fixed.json" --mode independent -o json ml/train-1
    assert_equal "$(jq -c '.pods[0] | [.result, .nominatedNode, (.victims | length), .pdbViolations]' <<<"$output")" \
        '["Preempts","node-c",2,0]'
    jq '(.items[] | select(.kind == "Pod" and .metadata.name == "train-1")
         | .spec) |= del(.nodeSelector)' "$CLUSTER" >"$BATS_TEST_TMPDIR/dropped.json"
    run "$KP" -f "$BATS_TEST_TMPDIR/dropped.json" --mode independent -o json ml/train-1
    assert_equal "$(jq -c '.pods[0] | [.result, .nominatedNode]' <<<"$output")" '["Preempts","node-c"]'
}

@test "fixes: tolerate the taint; lower a request larger than any node; each re-run by hand" {
    need jq
    run diag ml/gpu-job-0
    assert_equal "$(jq -c '.pods[0].fixes' <<<"$output")" \
        '[{"change":"tolerate","key":"nvidia.com/gpu","value":"present","effect":"NoSchedule","result":"Fits","node":"gpu-1"}]'
    run diag --mode independent prod/big-0
    assert_equal "$(jq -c '.pods[0].fixes' <<<"$output")" \
        '[{"change":"lowerRequest","resource":"cpu","request":"1900m","result":"Preempts","node":"node-c","victims":1,"pdbViolations":0}]'
    cat >"$BATS_TEST_TMPDIR/fixed.yaml" <<'YAML'
apiVersion: v1
kind: Pod
metadata: {name: gpu-job-0, namespace: ml}
spec:
  priorityClassName: prod
  nodeSelector: {node.kubernetes.io/instance-type: g5.xlarge}
  tolerations: [{key: nvidia.com/gpu, operator: Equal, value: present, effect: NoSchedule}]
  containers: [{name: train, image: "train:1", resources: {requests: {cpu: "1", memory: 1Gi}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: big-0, namespace: prod}
spec:
  priorityClassName: prod
  containers: [{name: app, image: "app:1", resources: {requests: {cpu: 1900m, memory: 4Gi}}}]
YAML
    run "$KP" -f "$CLUSTER" --add "$BATS_TEST_TMPDIR/fixed.yaml" --mode independent -o json ml/gpu-job-0 prod/big-0
    assert_equal "$(jq -c '[.pods[] | [.name, .result, .node // .nominatedNode, (.victims | length)]]' <<<"$output")" \
        '[["gpu-job-0","Fits","gpu-1",0],["big-0","Preempts","node-c",1]]'
    run "$KP" -f "$CLUSTER" --add "$PODS" --mode independent -o describe prod/big-0
    assert_line 'Fixes:       each re-run alone against the snapshot'
    assert_line '  lower the cpu request to 1900m (from 8): Preempts on node node-c (1 victim(s), 0 PDB violation(s)) (verified)'
}

@test "fixes: the smallest PriorityClass that makes it preempt, re-run by hand; none for a pod that fits" {
    need jq
    run diag prod/proxy-1
    # a copy of node-a takes proxy-0 (queued before it), freeing port 8080 on node-a
    assert_equal "$(jq -c '[.pods[0].fixes[] | [.change, .priorityClassName // .key // .like, .result, .node]]' <<<"$output")" \
        '[["tolerate","nvidia.com/gpu","Fits","gpu-1"],["priorityClass","prod-critical","Fits","node-a"],["addNode","node-a","Fits","node-a"]]'
    cat >"$BATS_TEST_TMPDIR/prio.yaml" <<'YAML'
apiVersion: v1
kind: Pod
metadata: {name: proxy-1, namespace: prod}
spec:
  priorityClassName: prod-critical
  nodeSelector: {topology.kubernetes.io/zone: eu-west-1a}
  containers: [{name: proxy, image: "proxy:1", ports: [{containerPort: 8080, hostPort: 8080}], resources: {requests: {cpu: 100m}}}]
YAML
    run "$KP" -f "$CLUSTER" --add "$BATS_TEST_TMPDIR/prio.yaml" --mode independent -o json prod/proxy-1
    assert_equal "$(jq -c '.pods[0] | [.result, .node]' <<<"$output")" '["Fits","node-a"]'
    run diag prod/proxy-0
    assert_equal "$(jq -c '.pods[0] | [.result, .fixes]' <<<"$output")" '["Fits",null]'
}

@test "fixes on 2,000 nodes: a 64-CPU pod fits after lowering both requests, bounded to the first 10 Unschedulable pods" {
    need jq
    run --separate-stderr "$KP" -f "$(G2000)" -o json
    assert_success
    assert_equal "$(jq '[.pods[] | select(.fixes)] | length' <<<"$output")" 10
    assert_equal "$(jq '[.pods[] | select(.result == "Unschedulable")] | length' <<<"$output")" 18
    assert_equal "$(jq -c '.pods[] | select(.name == "graphql-server-dj2nshs4p4-8mx57") | .fixes' <<<"$output")" \
        '[{"change":"lowerRequests","requests":[{"resource":"cpu","request":"7735m"},{"resource":"memory","request":"42365Mi"}],"result":"Preempts","node":"ip-10-151-111-156.eu-west-1.compute.internal","victims":1,"pdbViolations":0}]'
}

@test "explain replays each preemption as decided: victims restored, the preemptor pending again; same node or not" {
    need jq
    run --separate-stderr "$KP" explain -f "$INCIDENT" -o json
    assert_success
    # etl-worker-2 is gone: search-0 now fits where it preempted
    assert_equal "$(jq -c '.replays[0] | [.preemptor.name, .recordedNode, .restoredVictims, .missingVictims, .result, .node, .sameNode]' <<<"$output")" \
        '["search-0","node-c",0,1,"Fits","node-c",true]'
    # etl-pdb's status (1 allowed, expectedPods 3: written before
    # etl-worker-2 went) is what the scheduler read at 09:00:01; with it
    # the replay picks node-a as recorded (explain_replay.bats)
    assert_equal "$(jq -c '.replays[1] | [.preemptor.name, .restoredVictims, .result, .node, .sameNode, .candidates, .decidedBy, .victims, .pdbViolations]' <<<"$output")" \
        '["checkout-0",2,"Preempts","node-a",true,3,"highestVictimPriority",["etl-worker-0","etl-worker-1"],1]'
    # a budget of 1 (minAvailable 1): node-a again, one violation, decided by priority
    jq '(.items[] | select(.kind == "PodDisruptionBudget" and .metadata.name == "etl-pdb")
         | .spec.minAvailable) = 1' "$INCIDENT" >"$BATS_TEST_TMPDIR/one.json"
    run "$KP" explain -f "$BATS_TEST_TMPDIR/one.json" -o json
    assert_equal "$(jq -c '.replays[1] | [.result, .node, .sameNode, .decidedBy, .victims, .pdbViolations]' <<<"$output")" \
        '["Preempts","node-a",true,"highestVictimPriority",["etl-worker-0","etl-worker-1"],1]'
    run "$KP" explain -f "$BATS_TEST_TMPDIR/one.json" -o wide
    assert_line '  prod/checkout-0 on node-a: Preempts on node-a (2 victim(s): etl-worker-0, etl-worker-1; 1 PDB violation(s); 3 candidate(s), decided by highestVictimPriority); the same node as recorded; left out 2 pod(s) created and 0 bound after it; 1 PDB status(es) as the scheduler read them (written before it)'
    # the default table does not replay (it reads the files once)
    run "$KP" explain -f "$INCIDENT"
    refute_output --partial Replayed
}
