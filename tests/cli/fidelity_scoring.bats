#!/usr/bin/env bats
# fidelity_scoring.bats - issue 24, "Scheduling and scoring": rules where
# the tool disagreed with kube-scheduler, each through the command line
# in both modes (and, where the rule is keyed on a release, on both sides
# of it), on the fixtures of tests/fixtures/fidelity-scoring (written by
# its make_fixtures.py).  Each expected answer is worked out from the
# cited upstream source in the test's comment.
#
# KP_BIN overrides the binary under test (default build/kubectl-preempt).

load '../helpers/common'

FIX="$ROOT/tests/fixtures/fidelity-scoring"

# decisions FILE MODE [ARGS...]: one line per pod: name result node
decisions() {
    local f=$1 m=$2
    shift 2
    timeout -k 5 20 "$KP" -f "$FIX/$f" --mode "$m" "$@" -o json |
        jq -r '.pods[] | [.name, .result, (.node // .nominatedNode // "-")]
               | join(" ")'
}

# Item 1.  balanced_allocation.go balancedResourceScorer since
# kubernetes/kubernetes#135573 (v1.36): 50 + (50 + withPod - withoutPod)/2.
# web (1 CPU / 1Gi): a (4/8Gi, base 1/2Gi) 25%/25% -> 50%/37.5%: 100 -> 93,
# BA 71, LeastAllocated 56; c (2/4Gi, empty) 0/0 -> 50%/25%: 100 -> 87,
# BA 68, LeastAllocated 62; b is tainted PreferNoSchedule.  1.37: a 127 <
# c 130, web lands on c; up to 1.35 BA is 93 and 87: a and c tie at 149
# and the tie goes to a.  In queue mode batch (1.5 CPU, only c) then
# finds c full and cannot preempt web; independently it fits c.
@test "BalancedAllocation 1.37: web lands on c, batch then finds c full (queue)" {
    need jq
    run decisions balanced_allocation.json queue
    assert_success
    assert_output - <<'OUT'
web Fits c
batch Unschedulable -
OUT
}

@test "BalancedAllocation 1.36: the change of balance scores (independent)" {
    need jq
    run decisions balanced_allocation.json independent --kube-version 1.36
    assert_success
    assert_output - <<'OUT'
web Fits c
batch Fits c
OUT
}

@test "BalancedAllocation 1.35: the balance with the pod scores, web lands on a (queue)" {
    need jq
    run decisions balanced_allocation.json queue --kube-version 1.35
    assert_success
    assert_output - <<'OUT'
web Fits a
batch Fits c
OUT
}

@test "BalancedAllocation 1.35: the balance with the pod scores (independent)" {
    need jq
    run decisions balanced_allocation.json independent --kube-version 1.35
    assert_success
    assert_output - <<'OUT'
web Fits a
batch Fits c
OUT
}

# Item 4.  schedule_one.go findNodesThatPassFilters: a Filter Error on
# any node cancels the search and schedulePod returns the error, which is
# no FitError: no node is chosen, no PostFilter runs, and the pod's
# condition carries RunFilterPlugins' wrapped text.  On node a the
# running pod old mounts an ephemeral volume whose PVC it does not own:
# NodeVolumeLimits (csi.go filterAttachableVolumes, ephemeral.VolumeIsForPod)
# errs there while b would fit.  In queue mode web does not take b, so
# batch (only b) fits.
@test "Filter Error: web is not placed on b when NodeVolumeLimits errs on a (queue)" {
    need jq
    run decisions filter_error.json queue
    assert_success
    assert_output - <<'OUT'
web Unschedulable -
batch Fits b
OUT
    run sh -c "'$KP' -f '$FIX/filter_error.json' -o json |
               jq -r '.pods[0].message, (.pods[0].candidates | length)'"
    assert_output - <<'OUT'
running "NodeVolumeLimits" filter plugin: PVC default/old-scratch was not created for pod default/old (pod is not owner)
0
OUT
}

@test "Filter Error: no node and no preemption (independent)" {
    need jq
    run decisions filter_error.json independent
    assert_success
    assert_output - <<'OUT'
web Unschedulable -
batch Fits b
OUT
}

# Item 5.  preemption.go prepareCandidate: the preemptor's
# getLowerPriorityNominatedPods on n1 lose their nomination
# (ClearNominatedNodeName), so when never (preemptionPolicy: Never,
# nominated to n1 in the snapshot) has its turn after high preempted
# there, its status.nominatedNodeName is empty: NotEligible with no
# nomination.  Independently every pod sees the snapshot, and never keeps
# n1.
@test "Nomination cleared by an earlier preemption: NotEligible shows none (queue)" {
    need jq
    run sh -c "'$KP' -f '$FIX/nomination_cleared.json' -o json |
               jq -r '.pods[] | [.name, .result, (.nominatedNode // \"-\")] | join(\" \")'"
    assert_success
    assert_output - <<'OUT'
high Preempts n1
never NotEligible -
OUT
}

@test "Nomination cleared by an earlier preemption: the snapshot's stays (independent)" {
    need jq
    run sh -c "'$KP' -f '$FIX/nomination_cleared.json' --mode independent -o json |
               jq -r '.pods[] | [.name, .result, (.nominatedNode // \"-\")] | join(\" \")'"
    assert_success
    assert_output - <<'OUT'
high Preempts n1
never NotEligible n1
OUT
}

# Item 5, eligibility (default_preemption.go PodEligibleToPreemptOthers):
# waiter is nominated to n1 where old, a lower-priority victim, is
# terminating (DisruptionTarget PreemptionByScheduler): NotEligible.  In
# queue mode high preempts low on n1 first and clears waiter's
# nomination; waiter then has none and may preempt: low3 on n3.
@test "Nomination cleared: the eligibility test reads it as it is then (queue)" {
    need jq
    run sh -c "'$KP' -f '$FIX/nomination_cleared_eligible.json' -o json |
               jq -r '.pods[] | [.name, .result, (.nominatedNode // \"-\"),
                      ([.victims[].name] | join(\",\"))] | join(\" \")'"
    assert_success
    assert_output - <<'OUT'
high Preempts n1 low
waiter Preempts n3 low3
OUT
}

@test "Nomination cleared: waiter waits for the terminating victim (independent)" {
    need jq
    run sh -c "'$KP' -f '$FIX/nomination_cleared_eligible.json' --mode independent -o json |
               jq -r '.pods[] | [.name, .result, (.nominatedNode // \"-\")] | join(\" \")'"
    assert_success
    assert_output - <<'OUT'
high Preempts n1
waiter NotEligible n1
OUT
}

# Item 6.  fit.go fitsRequest returns one InsufficientResource per
# resource the node lacks, and the FitError counts each: web asks for 14
# extended resources n1 does not have, and all 14 are reasons (a node
# kept 12 before).
@test "Filter reasons: all 14 Insufficient reasons of one node are kept (queue)" {
    need jq
    run sh -c "'$KP' -f '$FIX/many_reasons.json' --explain-nodes -o json |
               jq -r '(.pods[0].nodes[0].reasons | length),
                      (.pods[0].message | [scan(\"Insufficient example.com/r[0-9]+\")] | length)'"
    assert_success
    assert_output - <<'OUT'
14
14
OUT
}

@test "Filter reasons: all 14 in the message (independent)" {
    need jq
    run sh -c "'$KP' -f '$FIX/many_reasons.json' --mode independent -o json |
               jq -r '.pods[0].message'"
    assert_success
    assert_output --partial "1 Insufficient example.com/r13, 1 Insufficient example.com/r14."
}

# labels.Parse (apimachinery selector.go) takes any number of values and
# requirements: none is dropped, none refused.
@test "-l: a set of 300 values matches its last one" {
    need jq
    vals=$(seq -f 'v%03g' 1 300 | paste -sd, -)
    jq '.items[1].metadata.labels = {"app": "v300"}' "$FIX/many_reasons.json" \
        > "$BATS_TEST_TMPDIR/c.json"
    run "$KP" -f "$BATS_TEST_TMPDIR/c.json" -l "app in ($vals)" -o name
    assert_success
    assert_output "pod/web"
}

@test "-l: a selector of 71 requirements is read whole" {
    need jq
    reqs=$(seq -f '!k%02g' 0 69 | paste -sd, -)
    jq '.items[1].metadata.labels = {"app": "v300"}' "$FIX/many_reasons.json" \
        > "$BATS_TEST_TMPDIR/c.json"
    run "$KP" -f "$BATS_TEST_TMPDIR/c.json" -l "$reqs,app" -o name
    assert_success
    assert_output "pod/web"
    run sh -c "'$KP' -f '$BATS_TEST_TMPDIR/c.json' -l '$reqs,app,!app' \
               -o name 2>/dev/null"
    assert_success
    assert_output ""
}

# Item 6.  default_preemption.go filterPodsWithPDBViolation walks every
# PDB that matches the victim: db is selected by 300 PDBs and only
# db-pdb-300 has no budget left, so evicting db violates it.
@test "PDBs: all 300 PDBs of a victim count, the last one violated (queue)" {
    need jq
    run sh -c "'$KP' -f '$FIX/many_pdbs.json' -o json |
               jq -r '.pods[0] | [.result, .pdbViolations,
                      (.victims[0].podDisruptionBudgets | length)] | join(\" \")'"
    assert_success
    assert_output "Preempts 1 300"
}

@test "PDBs: all 300 PDBs of a victim count (independent)" {
    need jq
    run sh -c "'$KP' -f '$FIX/many_pdbs.json' --mode independent -o json |
               jq -r '.pods[0] | [.result, .pdbViolations,
                      (.victims[0].podDisruptionBudgets | length)] | join(\" \")'"
    assert_success
    assert_output "Preempts 1 300"
}

# Item 3.  podtopologyspread/common.go buildDefaultConstraints with
# helper.DefaultSelector (helper/spread.go): the system defaults
# (hostname maxSkew 3, zone maxSkew 5, ScheduleAnyway) use the merged
# selectors of the Services selecting the pod and of its controller.
# n1 holds web-1 and web-2 (app=web) and is the emptier node; with the
# spread web-3 goes to n2.
@test "Default spreading: a Service selects web-3, which has no owner (queue)" {
    need jq
    run decisions default_spread_service.json queue
    assert_success
    assert_output "web-3 Fits n2"
}

@test "Default spreading: a Service selects web-3 (independent)" {
    need jq
    run decisions default_spread_service.json independent
    assert_success
    assert_output "web-3 Fits n2"
    # without the Service: no default spreading, n1
    jq 'del(.items[] | select(.kind == "Service"))' \
        "$FIX/default_spread_service.json" > "$BATS_TEST_TMPDIR/c.json"
    run sh -c "'$KP' -f '$BATS_TEST_TMPDIR/c.json' -o json | jq -r '.pods[0].node'"
    assert_output "n1"
}

# The ReplicaSet's selector (app=web) is added, not web-3's own labels
# (app=web, track=canary): web-1 and web-2 count, web-3 goes to n2.
@test "Default spreading: the owning ReplicaSet's selector (queue)" {
    need jq
    run decisions default_spread_replicaset.json queue
    assert_success
    assert_output "web-3 Fits n2"
}

@test "Default spreading: the owning ReplicaSet's selector (independent)" {
    need jq
    run decisions default_spread_replicaset.json independent
    assert_success
    assert_output "web-3 Fits n2"
}

# The input has ReplicaSets but not web-3's (the lister's Get fails) and
# no Service selects web-3: the selector is empty, no default constraint.
@test "Default spreading: an owner that is not in the input adds nothing (both modes)" {
    need jq
    run decisions default_spread_owner_missing.json queue
    assert_output "web-3 Fits n1"
    run decisions default_spread_owner_missing.json independent
    assert_output "web-3 Fits n1"
}

# Item 2.  podtopologyspread/common.go countPodsMatchSelector: up to 1.37
# `if selector.Empty() { return 0 }` (#116607, v1.27) makes a
# labelSelector {} count no pod, so web's hard hostname constraint is a
# no-op and web lands on n1 (emptier, its namespace's a1 and a2 aside);
# from 1.38 (#141340; no cherry-pick into 1.35-1.37 found) it counts a1
# and a2: n1 would have skew 3 > 1, web goes to n2.
@test "labelSelector {}: counts no pod up to 1.37 (both modes)" {
    need jq
    run decisions spread_empty_selector.json queue --kube-version 1.37
    assert_output "web Fits n1"
    run decisions spread_empty_selector.json independent --kube-version 1.35.2
    assert_output "web Fits n1"
}

@test "labelSelector {}: counts every pod of the namespace from 1.38 (both modes)" {
    need jq
    run decisions spread_empty_selector.json queue --kube-version 1.38
    assert_output "web Fits n2"
    run decisions spread_empty_selector.json independent --kube-version 1.38
    assert_output "web Fits n2"
}

# An input with Services but no StatefulSet at all (kubectl cluster-info
# dump lists none) cannot build the StatefulSet's selector: web-3's own
# labels, less statefulset.kubernetes.io/pod-name, stand in (app=web),
# so web-1 and web-2 count and web-3 goes to n2.
@test "Default spreading: a controller kind missing from the input: own labels (both modes)" {
    need jq
    run decisions default_spread_kind_missing.json queue
    assert_output "web-3 Fits n2"
    run decisions default_spread_kind_missing.json independent
    assert_output "web-3 Fits n2"
}

# Item 1 through a profile's resources (resource_allocation.go score with
# NodeResourcesBalancedAllocationArgs cpu, memory, example.com/gpu: not
# the default set, so the profile's scorer runs): web requests no GPU,
# which is skipped, and the same change of balance decides as above.
@test "BalancedAllocation over a profile's resources: 1.37 vs 1.35 (queue)" {
    need jq
    run decisions balanced_allocation.json queue \
        --config "$FIX/ba_profile.yaml"
    assert_output - <<'OUT'
web Fits c
batch Unschedulable -
OUT
    run decisions balanced_allocation.json queue \
        --config "$FIX/ba_profile.yaml" --kube-version 1.35
    assert_output - <<'OUT'
web Fits a
batch Fits c
OUT
}

@test "BalancedAllocation over a profile's resources: 1.36 (independent)" {
    need jq
    run decisions balanced_allocation.json independent \
        --config "$FIX/ba_profile.yaml" --kube-version 1.36
    assert_output - <<'OUT'
web Fits c
batch Fits c
OUT
}

# interpodaffinity/scoring.go processExistingPod: each existing pod whose
# preferred affinity term matches the incoming pod adds the term's weight
# at its node's value of the term's key, once per pod.  z1 (node-a): one
# pod with weight 10 -> 10; z2 (node-c): three pods with weight 5 -> 15.
# Both nodes carry three pods of equal requests, so only the affinity
# score differs: web lands on node-c.  Kept per topology domain (the term
# domains, term_domains.h) or walked node by node (KP_NO_TERM_DOMAINS=1),
# the same answer; a weight added once per domain would give z2 5 and
# node-a.
@test "InterPodAffinity PreScore: an existing pods' preferred term adds its weight once per pod in the domain" {
    need jq
    local f="$BATS_TEST_TMPDIR/pref.json" i
    pod() { # name node weight (0: no affinity)
        local aff=''
        [ "$3" -gt 0 ] && aff='"affinity":{"podAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":'$3',"podAffinityTerm":{"labelSelector":{"matchLabels":{"app":"web"}},"topologyKey":"zone"}}]}},'
        printf '{"kind":"Pod","apiVersion":"v1","metadata":{"name":"%s","namespace":"default","uid":"u-%s","labels":{"app":"db"}},"spec":{%s"nodeName":"%s","containers":[{"name":"c","resources":{"requests":{"cpu":"100m","memory":"100Mi"}}}]},"status":{"phase":"Running"}},\n' "$1" "$1" "$aff" "$2"
    }
    {
        printf '{"kind":"List","apiVersion":"v1","items":[\n'
        for n in a:z1 c:z2; do
            printf '{"kind":"Node","apiVersion":"v1","metadata":{"name":"node-%s","labels":{"kubernetes.io/hostname":"node-%s","zone":"%s"}},"status":{"allocatable":{"cpu":"4","memory":"8Gi","pods":"20"}}},\n' "${n%%:*}" "${n%%:*}" "${n#*:}"
        done
        pod a-aff node-a 10
        pod a-1 node-a 0
        pod a-2 node-a 0
        for i in 1 2 3; do pod "c-aff-$i" node-c 5; done
        printf '{"kind":"Pod","apiVersion":"v1","metadata":{"name":"web","namespace":"default","uid":"u-web","labels":{"app":"web"}},"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"100m","memory":"100Mi"}}}]},"status":{"phase":"Pending"}}\n]}\n'
    } >"$f"
    for sw in 0 1; do
        for m in queue independent; do
            run env KP_NO_TERM_DOMAINS=$sw "$KP" -f "$f" --mode "$m" -o json
            assert_success
            run jq -r '.pods[] | [.name, .result, .node] | join(" ")' <<<"$output"
            assert_output "web Fits node-c"
        done
    done
}
