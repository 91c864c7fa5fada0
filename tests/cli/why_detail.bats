#!/usr/bin/env bats
# why_detail.bats - issue 26, the specifics behind the Filter reasons that
# the diagnosis once only counted (PodTopologySpread, InterPodAffinity,
# the volume plugins, NodeUnschedulable) and the PDBs a preemption's
# candidates would violate, in -o describe and in JSON "diagnosis".
#
# KP_BIN overrides the binary under test (default build/kubectl-preempt).

load '../helpers/common'

CLUSTER="$ROOT/examples/cluster.json"
DETAIL="$ROOT/tests/fixtures/why/detail.yaml"
BOUND="$ROOT/tests/fixtures/why/bound.yaml"
VOLUMES="$ROOT/tests/fixtures/volumes/cluster.json"

detail() { "$KP" -f "$CLUSTER" -f "$BOUND" --add "$DETAIL" "$@" 2>/dev/null; }

@test "spread: per constraint the domains and their matching pods, the minimum, the domains the pod would push past maxSkew" {
    need jq
    # web-0/1/2 on node-a/b/c, none on gpu-1 (an eligible domain: the
    # taint policy is Ignore): minimum 0, node-a/b/c at 1 + the pod = 2 > 1
    run detail -o json prod/spread-0
    assert_equal "$(jq -c '.pods[0].diagnosis.filters[] | select(.plugin == "PodTopologySpread") | .topologySpread' <<<"$output")" \
        '[{"topologyKey":"kubernetes.io/hostname","maxSkew":1,"minDomains":1,"selector":"app=web","selfMatches":true,"globalMinimum":0,"domainCount":4,"domains":[{"value":"node-a","matchingPods":1,"exceedsSkew":true},{"value":"node-b","matchingPods":1,"exceedsSkew":true},{"value":"node-c","matchingPods":1,"exceedsSkew":true},{"value":"gpu-1","matchingPods":0,"exceedsSkew":false}],"domainsExceedingSkew":3,"nodesWithoutKey":0}]'
    run detail -o describe prod/spread-0
    assert_line '      topologyKey kubernetes.io/hostname, maxSkew 1, selector app=web: 4 domain(s), minimum 0; 3 would exceed maxSkew with the pod (node-a 1, node-b 1, node-c 1); within: gpu-1 0'
}

@test "spread: a topology key no node has: no domain, every node without the key" {
    need jq
    run detail -o json prod/spread-1
    assert_equal "$(jq -c '.pods[0].diagnosis.filters[0] | [.reason, .nodes, (.topologySpread[0] | [.domainCount, .globalMinimum, .nodesWithoutKey])]' <<<"$output")" \
        '["node(s) didn'"'"'t match pod topology spread constraints (missing required label)",3,[0,0,4]]'
    run detail -o describe prod/spread-1
    assert_line '      topologyKey topology.example.com/rack, maxSkew 1, selector app=web: 0 domain(s), minimum 0; 0 would exceed maxSkew with the pod; 4 node(s) without the key'
}

@test "pod affinity: the term no pod matches; anti-affinity: the pods it matches and the zones they hold" {
    need jq
    run detail -o json prod/affinity-0
    assert_equal "$(jq -c '.pods[0].diagnosis.filters[] | select(.plugin == "InterPodAffinity") | .affinityTerms' <<<"$output")" \
        '[{"term":0,"topologyKey":"topology.kubernetes.io/zone","selector":"app=db","matchingPods":0,"domains":[]}]'
    run detail -o json prod/anti-0
    # web-0 in 1a, web-1 and cache-0 in 1b, web-2 in 1c
    assert_equal "$(jq -c '.pods[0].diagnosis.filters[] | select(.plugin == "InterPodAffinity") | .antiAffinityTerms' <<<"$output")" \
        '[{"term":0,"topologyKey":"topology.kubernetes.io/zone","selector":"app in (web,cache)","matchingPods":4,"domains":[{"value":"eu-west-1a","pods":1},{"value":"eu-west-1b","pods":2},{"value":"eu-west-1c","pods":1}]}]'
    run detail -o describe prod/anti-0
    assert_line '      anti-affinity term 0 (topologyKey topology.kubernetes.io/zone, selector app in (web,cache)): 4 matching pod(s), so not in eu-west-1a (1), eu-west-1b (2), eu-west-1c (1)'
}

@test "existing pods' anti-affinity: the running pod that repels the pod, its node and term" {
    need jq
    run detail -o json batch/shy-0
    assert_equal "$(jq -c '.pods[0].diagnosis.filters[] | select(.plugin == "InterPodAffinity") | [.nodes, .existingAntiAffinity, .existingAntiAffinityPods]' <<<"$output")" \
        '[1,[{"pod":"prod/loner-0","node":"node-c","topologyKey":"kubernetes.io/hostname","domain":"node-c","selector":"app=shy"}],1]'
    run detail -o describe batch/shy-0
    assert_line '      pod prod/loner-0 on node-c repels it (topologyKey kubernetes.io/hostname=node-c, selector app=shy)'
    # without the running pod: no such reason, no such detail
    run "$KP" -f "$CLUSTER" --add "$DETAIL" -o json batch/shy-0
    refute_output --partial existingAntiAffinity
}

@test "cordoned nodes: named, and the toleration the pod lacks" {
    need jq
    run "$KP" -f "$CLUSTER" --add "$DETAIL" --cordon node-a --cordon gpu-1 -o json prod/pinned-0
    assert_equal "$(jq -c '.pods[0].diagnosis.filters[] | select(.plugin == "NodeUnschedulable") | [.nodes, .cordonedNodes, .tolerationMissing]' <<<"$output")" \
        '[2,["node-a","gpu-1"],"node.kubernetes.io/unschedulable:NoSchedule"]'
    run "$KP" -f "$CLUSTER" --add "$DETAIL" --cordon node-a --cordon gpu-1 -o describe prod/pinned-0
    assert_line '      cordoned (spec.unschedulable): node-a, gpu-1; the pod does not tolerate node.kubernetes.io/unschedulable:NoSchedule'
}

@test "volumes: the claim, its class, its PV's node affinity and the pod holding a ReadWriteOncePod claim" {
    need jq
    run "$KP" -f "$VOLUMES" -o json prod/ledger-writer
    assert_equal "$(jq -c '.pods[0].diagnosis.filters[0] | [.plugin, .claims]' <<<"$output")" \
        '["VolumeRestrictions",[{"claim":"ledger","found":true,"phase":"Bound","storageClass":"gp3","volumeBindingMode":"WaitForFirstConsumer","volume":"pv-ledger","volumeZone":null,"volumeNodeAffinity":true,"volumeNodes":["node-b"],"nodesMatchingVolume":1,"usedBy":[{"pod":"report-0","node":"node-b"}]}]]'
    run "$KP" -f "$VOLUMES" -o describe prod/db-0
    assert_line '      claim data-db-0: Bound, StorageClass gp3 (WaitForFirstConsumer), bound to PV pv-db-0, whose node affinity admits 1 node(s) (node-a)'
}

@test "volume limits: the CSI driver over its CSINode allocatable.count, with the counts" {
    need jq
    jq '(.items[] | select(.kind == "CSINode") | .spec.drivers[0].allocatable.count) = 0' \
        "$VOLUMES" >"$BATS_TEST_TMPDIR/limits.json"
    run "$KP" -f "$BATS_TEST_TMPDIR/limits.json" -o json prod/db-0
    assert_equal "$(jq -c '.pods[0].diagnosis.filters[] | select(.plugin == "NodeVolumeLimits") | [.nodes, .attachLimits]' <<<"$output")" \
        '[1,[{"node":"node-c","driver":"ebs.csi.aws.com","attached":0,"adding":1,"limit":0}]]'
    run "$KP" -f "$BATS_TEST_TMPDIR/limits.json" -o describe prod/db-0
    assert_line '      node-c: ebs.csi.aws.com 0 attached + 1 > limit 0'
}

@test "preemption: per candidate the PDB its victims would violate, what it allows and covers" {
    need jq
    run "$KP" -f "$CLUSTER" -o json prod/checkout-0
    assert_equal "$(jq -c '.pods[0].diagnosis.preemption.pdbBlocks' <<<"$output")" \
        '[{"node":"node-a","podDisruptionBudget":"batch/etl-pdb","disruptionsAllowed":1,"coveredPods":3,"victims":["etl-worker-0","etl-worker-1"],"violations":1},{"node":"node-b","podDisruptionBudget":"prod/web-pdb","disruptionsAllowed":0,"coveredPods":3,"victims":["web-1"],"violations":1},{"node":"node-c","podDisruptionBudget":"prod/web-pdb","disruptionsAllowed":0,"coveredPods":3,"victims":["web-2"],"violations":1}]'
    run "$KP" -f "$CLUSTER" -o describe prod/checkout-0
    assert_line '  candidate node-a: 2 victim(s) under PDB batch/etl-pdb (etl-worker-0, etl-worker-1), which allows 1 disruption(s) and covers 3 pod(s): 1 violation(s)'
    # queue mode: checkout-0 took etl-pdb's one disruption and two of its pods
    run "$KP" -f "$CLUSTER" -o json prod/search-0
    assert_equal "$(jq -c '.pods[0].diagnosis.preemption.pdbBlocks' <<<"$output")" \
        '[{"node":"node-c","podDisruptionBudget":"batch/etl-pdb","disruptionsAllowed":0,"coveredPods":1,"victims":["etl-worker-2"],"violations":1}]'
    # a budget large enough: no block, no member
    jq '(.items[] | select(.kind == "PodDisruptionBudget") | .status.disruptionsAllowed) = 5' \
        "$CLUSTER" >"$BATS_TEST_TMPDIR/loose.json"
    run "$KP" -f "$BATS_TEST_TMPDIR/loose.json" -o json prod/checkout-0
    assert_equal "$(jq -c '.pods[0].diagnosis.preemption | has("pdbBlocks")' <<<"$output")" false
}

@test "preemption: pdbBlocks is capped at 20 in JSON and 5 in words, with its count" {
    need jq
    # 25 one-CPU nodes, each full with a pod of one PDB that allows no
    # disruption: each candidate node's victim exceeds it
    local f="$BATS_TEST_TMPDIR/blocks.json" i items=""
    for i in $(seq 1 25); do
        items="$items{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n$i\",\"labels\":{\"kubernetes.io/hostname\":\"n$i\"}},\"status\":{\"allocatable\":{\"cpu\":\"1\",\"memory\":\"1Gi\",\"pods\":\"10\"}}},"
        items="$items{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"v$i\",\"namespace\":\"a\",\"uid\":\"u$i\",\"labels\":{\"app\":\"v\"}},\"spec\":{\"nodeName\":\"n$i\",\"priority\":0,\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}]},\"status\":{\"phase\":\"Running\",\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}},"
    done
    items="$items{\"apiVersion\":\"policy/v1\",\"kind\":\"PodDisruptionBudget\",\"metadata\":{\"name\":\"v\",\"namespace\":\"a\"},\"spec\":{\"minAvailable\":25,\"selector\":{\"matchLabels\":{\"app\":\"v\"}}},\"status\":{\"disruptionsAllowed\":0,\"currentHealthy\":25,\"desiredHealthy\":25,\"expectedPods\":25}},"
    items="$items{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"big\",\"namespace\":\"a\",\"uid\":\"ub\"},\"spec\":{\"priority\":1000,\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}]},\"status\":{\"phase\":\"Pending\"}}"
    printf '{"apiVersion":"v1","kind":"List","items":[%s]}\n' "$items" >"$f"
    run "$KP" -f "$f" -o json a/big
    assert_success
    assert_equal "$(jq -c '.pods[0].result' <<<"$output")" '"Preempts"'
    assert_equal "$(jq -c '.pods[0].diagnosis.preemption | [(.pdbBlocks | length), .pdbBlockCount, .candidates]' <<<"$output")" \
        '[20,25,25]'
    run "$KP" -f "$f" -o describe a/big
    assert_success
    assert_equal "$(grep -c '^  candidate n[0-9]*: 1 victim(s) under PDB a/v' <<<"$output")" 5
    assert_line '  20 more candidate PDB(s) exceeded'
}

@test "resources: most free counts the nominated pods of the same or a higher priority, not the lower ones" {
    need jq
    # node-a: 4 cpu, bound-0 1 cpu, same-0 (priority 100, 2 cpu) and
    # low-0 (priority 10) nominated there; want-0 (priority 100, 2 cpu)
    # sees 4 - 1 - 2 = 1 free, as the Filter counts it
    # (addGENominatedPods); low-0 is not counted
    run "$KP" -f "$ROOT/tests/fixtures/why/nominated-free.json" \
        --mode independent -o json default/want-0
    assert_equal "$(jq -c '.pods[0] | [.result, (.diagnosis.filters[] | select(.plugin == "NodeResourcesFit") | [.mostFree, .totalFree])]' <<<"$output")" \
        '["Unschedulable",["1","1"]]'
    run "$KP" -f "$ROOT/tests/fixtures/why/nominated-free.json" \
        --mode independent -o describe default/want-0
    assert_line --partial 'most free 1 (node-a), 1 free in all'
}

@test "resources: most free leaves out the pod's own nomination, as the Filter does" {
    need jq
    # want-0 nominated to node-a itself, low-0 gone: every pod nominated
    # there is of want-0's priority or higher, and the Filter adds them
    # all but want-0 (addGENominatedPods skips the pod by UID):
    # 4 - 1 - 2 = 1 free, not 4 - 1 - 2 - 2
    jq '.items |= map(select(.metadata.name != "low-0")
                      | if .metadata.name == "want-0"
                        then .status.nominatedNodeName = "node-a" else . end)' \
        "$ROOT/tests/fixtures/why/nominated-free.json" >"$BATS_TEST_TMPDIR/own.json"
    run "$KP" -f "$BATS_TEST_TMPDIR/own.json" --mode independent -o json default/want-0
    assert_equal "$(jq -c '.pods[0] | [.result, (.diagnosis.filters[] | select(.plugin == "NodeResourcesFit") | [.mostFree, .totalFree])]' <<<"$output")" \
        '["Unschedulable",["1","1"]]'
}

@test "node affinity: each pod's required terms counted against the nodes, two pods with different terms in one run" {
    need jq
    # one-zone's term matches node-a; two-zones' matches node-a and
    # node-b; both are too large for any node and are diagnosed in turn
    run "$KP" -f "$ROOT/tests/fixtures/why/affinity-terms.json" -o json
    assert_equal "$(jq -c '[.pods[] | [.name, (.diagnosis.filters[] | select(.plugin == "NodeAffinity") | .requiredTerms[0].matchingNodes)]]' <<<"$output")" \
        '[["one-zone",1],["two-zones",2]]'
    run "$KP" -f "$ROOT/tests/fixtures/why/affinity-terms.json" -o describe
    assert_line '      required node affinity term 0 matches 1 node(s)'
    assert_line '      required node affinity term 0 matches 2 node(s)'
}
