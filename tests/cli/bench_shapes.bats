#!/usr/bin/env bats
# bench_shapes.bats - bench/gen.c's shapes (--shape) are deterministic and
# each has the property it is named for, seen through kubectl-preempt's
# report: fits (most pending pods fit, placed by scoring with the system
# default spreading), affinity (required anti-affinity and DoNotSchedule
# spread decide filters and victims), nominated (pods with
# nominatedNodeName waiting for terminating victims), pdb (pods matched by
# several PDBs, violations).  `make bench` measures these shapes; a shape
# that lost its property would measure the wrong thing.

load '../helpers/common'
load '../helpers/bench_cluster'

setup_file() {
    local shape
    for shape in default fits affinity nominated pdb; do
        bench_cluster "$BATS_FILE_TMPDIR/$shape.json" 120 2400 150 60 \
            --shape "$shape"
    done
}

snap() { echo "$BATS_FILE_TMPDIR/$1.json"; }

# pending pods of a snapshot matching a jq condition
pending_with() {
    jq "[.items[] | select(.kind == \"Pod\" and .spec.nodeName == null)
         | select($2)] | length" "$(snap "$1")"
}

@test "gen: the same bytes for the same arguments, in every shape" {
    local shape
    for shape in default fits affinity nominated pdb; do
        "$BATS_FILE_TMPDIR/gen" 120 2400 150 60 --shape "$shape" \
            2>/dev/null | cmp - "$(snap "$shape")"
    done
    # no --shape is the default shape
    "$BATS_FILE_TMPDIR/gen" 120 2400 150 60 2>/dev/null |
        cmp - "$(snap default)"
    # and the shapes are different clusters
    ! cmp -s "$(snap default)" "$(snap fits)"
    ! cmp -s "$(snap fits)" "$(snap affinity)"
    ! cmp -s "$(snap nominated)" "$(snap pdb)"
}

@test "gen: the default shape is byte for byte what gen printed before shapes" {
    # checksum of the output of gen before --shape existed (commit 4604d34)
    # with one change since: the nodes' kubelets say v1.37.0 (were v1.36.0,
    # which is now replayed as 1.36; same length, so the sizes hold)
    run bash -c "'$BATS_FILE_TMPDIR/gen' 20 400 30 10 2>/dev/null | sha256sum"
    assert_output --partial \
        920585f1b9b8ff395dac5d7e3ba3570edaacbc92bd3e9f77355669b675704e7c
}

@test "gen: an unknown shape is refused" {
    run "$BATS_FILE_TMPDIR/gen" small --shape round
    assert_failure 2
    assert_output --partial "unknown shape round"
}

@test "fits shape: most pending pods fit, placed with the system default spreading" {
    need jq
    "$KP" -f "$(snap fits)" -o json >"$BATS_TEST_TMPDIR/r.json"
    run jq '[.pods[] | select(.result == "Fits")] | length' \
        "$BATS_TEST_TMPDIR/r.json"
    assert [ "$output" -gt 75 ]
    # none of them spreads itself: the defaults apply (owned by a
    # ReplicaSet or StatefulSet), and some prefer another workload's zone
    run pending_with fits '.spec.topologySpreadConstraints'
    assert_output 0
    run pending_with fits \
        '.metadata.ownerReferences[0].kind | IN("ReplicaSet", "StatefulSet")'
    assert_output 150
    run pending_with fits '.spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution'
    assert [ "$output" -gt 20 ]
    # the system default constraints decide where most of them go
    cat >"$BATS_TEST_TMPDIR/nodefault.yaml" <<'EOF'
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
  - schedulerName: default-scheduler
    pluginConfig:
      - name: PodTopologySpread
        args:
          defaultingType: List
          defaultConstraints: []
EOF
    "$KP" -f "$(snap fits)" -o json --config "$BATS_TEST_TMPDIR/nodefault.yaml" \
        >"$BATS_TEST_TMPDIR/nodefault.json"
    run bash -c "diff <(jq -r '.pods[] | .node' '$BATS_TEST_TMPDIR/r.json') \
                      <(jq -r '.pods[] | .node' '$BATS_TEST_TMPDIR/nodefault.json') |
                 grep -c '^<'"
    assert [ "$output" -gt 75 ]
}

@test "affinity shape: required anti-affinity and spread filter nodes and choose victims" {
    need jq
    # many bound and pending pods carry them
    run jq '[.items[] | select(.kind == "Pod" and .spec.nodeName != null and
             .spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution)] | length' \
        "$(snap affinity)"
    assert [ "$output" -gt 200 ]
    run jq '[.items[] | select(.kind == "Pod" and .spec.nodeName != null and
             .spec.topologySpreadConstraints[0].whenUnsatisfiable == "DoNotSchedule")] | length' \
        "$(snap affinity)"
    assert [ "$output" -gt 500 ]
    run pending_with affinity '.spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution'
    assert [ "$output" -gt 30 ]
    run pending_with affinity '.spec.topologySpreadConstraints[0].whenUnsatisfiable == "DoNotSchedule"'
    assert [ "$output" -gt 30 ]
    # both reject nodes, before and after victims are removed
    "$KP" -f "$(snap affinity)" -o json --explain-nodes >"$BATS_TEST_TMPDIR/x.json"
    run grep -c "didn't match pod anti-affinity rules" "$BATS_TEST_TMPDIR/x.json"
    assert [ "$output" -gt 10 ]
    run grep -c "didn't match pod topology spread constraints" "$BATS_TEST_TMPDIR/x.json"
    assert [ "$output" -gt 10 ]
    # a preemptor's victims include pods its own anti-affinity term
    # selects: evicting them is what makes the node fit
    "$KP" -f "$(snap affinity)" -o json >"$BATS_TEST_TMPDIR/r.json"
    run jq --slurpfile snap "$(snap affinity)" '
        ($snap[0].items | map(select(.kind == "Pod"))
         | map({key: "\(.metadata.namespace)/\(.metadata.name)", value: .})
         | from_entries) as $pods
        | [.pods[] | select(.result == "Preempts") | . as $r
           | ($pods["\(.namespace)/\(.name)"].spec.affinity.podAntiAffinity
              .requiredDuringSchedulingIgnoredDuringExecution // [])[0]
              .labelSelector.matchLabels as $sel
           | select($sel != null)
           | select(any($r.victims[];
                 $pods["\(.namespace)/\(.name)"].metadata.labels as $l
                 | all($sel | to_entries[]; $l[.key] == .value)))]
        | length' "$BATS_TEST_TMPDIR/r.json"
    assert [ "$output" -gt 5 ]
    run jq '[.pods[] | select(.result == "Unschedulable")] | length' \
        "$BATS_TEST_TMPDIR/r.json"
    assert [ "$output" -gt 5 ]
}

@test "nominated shape: pending pods nominated, many waiting for terminating victims" {
    need jq
    run pending_with nominated '.status.nominatedNodeName'
    assert [ "$output" -gt 100 ]
    run jq '[.items[] | select(.kind == "Pod" and .metadata.deletionTimestamp and
             (.status.conditions[] | select(.type == "DisruptionTarget")
              | .reason == "PreemptionByScheduler"))] | length' \
        "$(snap nominated)"
    assert [ "$output" -gt 100 ]
    "$KP" -f "$(snap nominated)" -o json >"$BATS_TEST_TMPDIR/r.json"
    run jq '[.pods[] | select(.result == "NotEligible" and
             (.message | test("terminating pod on the nominated node")))] | length' \
        "$BATS_TEST_TMPDIR/r.json"
    assert [ "$output" -gt 30 ]
    # the others are analysed, many of them preempting
    run jq '[.pods[] | select(.result == "Preempts")] | length' \
        "$BATS_TEST_TMPDIR/r.json"
    assert [ "$output" -gt 30 ]
}

@test "pdb shape: pods matched by several PDBs, victims violating them" {
    need jq
    run jq '[.items[] | select(.kind == "PodDisruptionBudget")] | length' \
        "$(snap pdb)"
    assert [ "$output" -gt 120 ]
    "$KP" -f "$(snap pdb)" -o json >"$BATS_TEST_TMPDIR/r.json"
    run jq '[.pods[].victims[] | select((.podDisruptionBudgets | length) >= 2)]
            | length' "$BATS_TEST_TMPDIR/r.json"
    assert [ "$output" -gt 20 ]
    run jq '[.pods[] | select(.pdbViolations > 0)] | length' \
        "$BATS_TEST_TMPDIR/r.json"
    assert [ "$output" -gt 10 ]
    # and the PDBs decide between candidates
    run jq '[.pods[] | select(.decidedBy == "pdbViolations")] | length' \
        "$BATS_TEST_TMPDIR/r.json"
    assert [ "$output" -gt 0 ]
}
