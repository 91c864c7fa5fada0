#!/usr/bin/env bats
# before_after.bats - issue 25: every run with a change (--add, the node
# what-ifs, --compare-config/--compare-profile) is compared with the
# cluster without it: CHANGE/WAS columns, "change" and "baseline" per pod
# and "changeSummary" in -o json, the comparison block after table, wide
# and summary, --fail-on newly-unschedulable, new-preemption,
# new-pdb-violation and regression, and --only-added reporting the pods
# the change touches.  Fixtures: examples/cluster.json with
# examples/release.yaml (starves prod/search-0 in queue mode) and
# examples/release-safe.yaml (breaks nothing); tests/fixtures/whatif.
#
# KP_BIN overrides the binary under test (default build/kubectl-preempt).

load '../helpers/common'

CLUSTER="$ROOT/examples/cluster.json"
RELEASE="$ROOT/examples/release.yaml"
SAFE="$ROOT/examples/release-safe.yaml"
W="$ROOT/tests/fixtures/whatif"

# ---- the README's rollout gate ----

@test "the README's rollout gate fails on examples/release.yaml naming prod/search-0" {
    run --separate-stderr "$KP" -f "$CLUSTER" --add "$RELEASE" --only-added \
        --fail-on regression
    assert_failure 3
    [[ "$stderr" == *"newly-unschedulable: pod 'prod/search-0' is Unschedulable; without the change: Preempts on node-c (1 victim, 1 PDB violation)"* ]]
    [[ "$stderr" == *"new-preemption: pod 'prod/cache-0' on node-b becomes a victim of prod/payments-added-0; it was safe without the change"* ]]
    assert_line --regexp '^prod +search-0 +100000 +Unschedulable .* worse +Preempts$'
}

@test "the rollout gate passes on a release that breaks nothing, in both modes" {
    for mode in queue independent; do
        run --separate-stderr "$KP" -f "$CLUSTER" --add "$SAFE" \
            --only-added --fail-on regression --mode "$mode"
        assert_success
        assert_equal "$stderr" ""
        assert_line --regexp '^prod +status-page-added-0 +1000 +Fits .* new +<none>$'
    done
}

@test "independent mode: release.yaml starves nobody, the gate passes" {
    run --separate-stderr "$KP" -f "$CLUSTER" --add "$RELEASE" --only-added \
        --fail-on regression --mode independent
    assert_success
    refute_output --partial "search-0"
}

@test "each --fail-on condition on the change matches alone, one stderr line" {
    run --separate-stderr "$KP" -f "$CLUSTER" --add "$RELEASE" \
        --fail-on newly-unschedulable
    assert_failure 3
    assert_equal "${#stderr_lines[@]}" 2     # the no-pods warning + one
    [[ "${stderr_lines[1]}" == "newly-unschedulable: pod 'prod/search-0' "* ]]
    run --separate-stderr "$KP" -f "$CLUSTER" --add "$RELEASE" \
        --fail-on new-preemption
    assert_failure 3
    [[ "${stderr_lines[1]}" == "new-preemption: pod 'prod/cache-0' "* ]]
    # release.yaml evicts etl-worker-2 against etl-pdb, as search-0 did
    run --separate-stderr "$KP" -f "$CLUSTER" --add "$RELEASE" \
        --fail-on new-pdb-violation
    assert_success
    run --separate-stderr "$KP" -f "$CLUSTER" \
        --add "$ROOT/tests/fixtures/add/pod.yaml" --fail-on new-pdb-violation
    assert_failure 3
    assert_equal "$stderr" "new-pdb-violation: evicting pod 'prod/web-1' for prod/api-canary violates PodDisruptionBudget prod/web-pdb; it did not without the change"
}

@test "--fail-on unschedulable without a change still fails on what was broken" {
    run "$KP" -f "$CLUSTER" --fail-on unschedulable
    assert_failure 3
    run "$KP" -f "$CLUSTER" --fail-on regression
    assert_success
}

# ---- the outputs ----

@test "table: CHANGE and WAS only with a change" {
    run "$KP" -f "$CLUSTER"
    assert_line --index 0 --regexp 'PDB-VIOLATIONS$'
    for mode in queue independent; do
        run "$KP" -f "$CLUSTER" --add "$SAFE" --mode "$mode"
        assert_success
        assert_line --index 0 --regexp 'PDB-VIOLATIONS +CHANGE +WAS$'
        assert_line --regexp '^prod +checkout-0 +1000000 +Preempts +node-a .* unchanged +Preempts$'
        assert_line "Compared with the cluster without the change: 0 better, 0 worse, 0 changed, 5 unchanged, 1 new; 0 new victims, 0 new PDB violations"
    done
}

@test "-o wide: WAS names the node and WAS-VICTIM-PODS the victims" {
    run --separate-stderr "$KP" -f "$CLUSTER" --add "$RELEASE" -o wide
    assert_success
    assert_line --index 0 --regexp 'VICTIM-PODS +ADDED +CHANGE +WAS +WAS-VICTIM-PODS +MESSAGE$'
    assert_line --regexp '^prod +search-0 .* worse +Preempts on node-c \(1 victim, 1 PDB violation\) +batch/etl-worker-2\(pdb\) +0/4 nodes'
    assert_line "  worse             prod/search-0: Preempts on node-c (1 victim, 1 PDB violation) -> Unschedulable"
    run "$KP" -f "$CLUSTER" --add "$RELEASE" -o wide --mode independent
    assert_success
    assert_line --regexp '^prod +search-0 .* unchanged +Preempts on node-c \(1 victim\) +batch/etl-worker-2 +0/4 nodes'
}

@test "-o json: change and baseline per pod, changeSummary after pods" {
    need jq
    run bash -c "'$KP' -f '$CLUSTER' --add '$RELEASE' -o json 2>/dev/null |
        jq -c '[.pods[] | select(.name == \"search-0\") | .change,
                .baseline], (keys_unsorted | index(\"changeSummary\") >
                index(\"pods\")), (.changeSummary | [.worse, .new,
                .newVictims, .worsePods[0].name,
                .newVictimPods[0].preemptor.name])'"
    assert_success
    assert_output "$(printf '%s\n' '["worse",{"namespace":"prod","name":"search-0","result":"Preempts","node":null,"nominatedNode":"node-c","victims":[{"namespace":"batch","name":"etl-worker-2","violatesPDB":true}],"pdbViolations":1}]' \
        'true' '[1,3,1,"search-0","payments-added-0"]')"
    run bash -c "'$KP' -f '$CLUSTER' --add '$RELEASE' -o json \
        --mode independent 2>/dev/null | jq -c '[.pods[] |
        select(.added) | .baseline], .changeSummary.unchanged'"
    assert_output "$(printf '%s\n' '[null,null,null]' 5)"
}

@test "-o json without a change has no change, baseline or changeSummary" {
    need jq
    run bash -c "'$KP' -f '$CLUSTER' -o json | jq -c '[has(\"changeSummary\"),
        (.pods | map(has(\"baseline\") or has(\"change\")) | any)]'"
    assert_output '[false,false]'
}

@test "-o yaml carries the baseline and the changeSummary" {
    for mode in queue independent; do
        run --separate-stderr "$KP" -f "$CLUSTER" --add "$RELEASE" -o yaml \
            --mode "$mode"
        assert_success
        assert_line "changeSummary:"
        assert_line "  against: the cluster without the change"
        assert_line "  change: new"
        assert_line "  baseline: null"
    done
}

@test "-o summary ends with the comparison, pods named" {
    for mode in queue independent; do
        run "$KP" -f "$CLUSTER" --add "$RELEASE" -o summary --mode "$mode"
        assert_success
        assert_line --regexp '^Compared with the cluster without the change: '
    done
    run "$KP" -f "$CLUSTER" --add "$RELEASE" -o summary
    assert_line "  worse             prod/search-0: Preempts on node-c (1 victim, 1 PDB violation) -> Unschedulable"
    assert_line "  new victim        prod/cache-0 on node-b, by prod/payments-added-0"
}

# ---- node what-ifs: identity and --only-added ----

@test "a drain's replacement is compared with the pod it replaces, Running" {
    need jq
    for mode in queue independent; do
        run bash -c "'$KP' -f '$W/drain.json' --drain node-a -o json \
            --mode $mode | jq -c '[.pods[] | [.name, .change,
            .baseline.name, .baseline.result, .baseline.node]][0]'"
        assert_output '["db-0-replacement","changed","db-0","Running","node-a"]'
    done
    run "$KP" -f "$W/drain.json" --drain node-a
    assert_line "  changed           prod/db-0-replacement: prod/db-0 Running on node-a -> Fits on node-b"
}

@test "a drain that leaves its pods pending is newly-unschedulable" {
    run --separate-stderr "$KP" -f "$W/drain-hang.json" --drain node-a \
        --force --fail-on newly-unschedulable
    assert_failure 3
    assert_equal "${stderr_lines[0]}" "newly-unschedulable: pod 'prod/db-0-replacement' is Unschedulable; without the change prod/db-0: Running on node-a"
}

@test "--only-added with --add-node shows the pods the new capacity lets run" {
    for mode in queue independent; do
        run "$KP" -f "$W/grow.json" --add-node node-b --only-added \
            --no-headers --mode "$mode"
        assert_success
        assert_line --regexp '^prod +new-0 +100000 +Fits .* better +Preempts$'
    done
}

@test "--only-added drops the pods the change does not touch" {
    run "$KP" -f "$CLUSTER" --add "$RELEASE" --only-added --no-headers
    refute_output --partial "checkout-0"
    refute_output --partial "train-1"
    assert_output --partial "search-0"
}

# ---- the scheduler as the change ----

@test "--compare-profile compares the cluster under another profile" {
    need jq
    run "$KP" -f "$CLUSTER" --compare-profile HighNodeUtilization
    assert_success
    assert_line --regexp '^prod +sidecar-light +100000 +Fits .* changed +Fits$'
    assert_line "  changed           prod/sidecar-light: Fits on node-a -> Fits on node-b"
    # LowNodeUtilization scores as the default profile: nothing changes
    run "$KP" -f "$CLUSTER" --compare-profile LowNodeUtilization \
        --mode independent
    assert_success
    assert_line "Compared with the current scheduler configuration: 0 better, 0 worse, 0 changed, 5 unchanged, 0 new; 0 new victims, 0 new PDB violations"
    run bash -c "'$KP' -f '$CLUSTER' --compare-profile HighNodeUtilization \
        -o json | jq -c '[.scheduler.profile, .changeSummary.against,
        .changeSummary.changed]'"
    assert_output '["HighNodeUtilization","the current scheduler configuration",1]'
}

@test "--compare-config takes a KubeSchedulerConfiguration file" {
    run "$KP" -f "$CLUSTER" --compare-config "$ROOT/tests/fixtures/config/most.yaml" \
        --only-added --no-headers
    assert_success
    assert_output --partial "sidecar-light"
    run "$KP" -f "$CLUSTER" --compare-config x --compare-profile NoScoring
    assert_failure 2
    # a file that cannot be read: one line, before the cluster is read
    run --separate-stderr "$KP" -f /nonexistent/cluster.json \
        --compare-config "$BATS_TEST_TMPDIR/missing.yaml"
    assert_failure 1
    assert_output ''
    assert_equal "$stderr" "error: open $BATS_TEST_TMPDIR/missing.yaml: No such file or directory"
}

@test "--only-added with a scheduler that changes nothing says so" {
    run --separate-stderr "$KP" -f "$CLUSTER" --compare-profile \
        LowNodeUtilization --mode independent --only-added
    assert_success
    assert_output ''
    assert_equal "${stderr_lines[0]}" "warning: --only-added: no pod to report: the scheduler compared with gives every pending pod the same answer"
}

@test "a lost zone: its pods' replacements are worse, their victims new, PDBs named" {
    need jq
    run bash -c "'$KP' -f '$W/zone.json' -o json \
        --remove-nodes-selector topology.kubernetes.io/zone=z1 |
        jq -c '.changeSummary | [.worse, .newVictims, .newPDBViolations,
        .newVictimPods[0].podDisruptionBudgets,
        .newPDBViolationPods[0].name]'"
    assert_success
    assert_output '[2,2,1,["batch/etl-pdb"],"etl-1"]'
    run "$KP" -f "$W/zone.json" --mode independent \
        --remove-nodes-selector topology.kubernetes.io/zone=z1 \
        --fail-on new-preemption
    assert_failure 3
}

@test "--compare-kube-version: each side is what a run of that version says" {
    need jq
    # pod-level requests count from 1.34 (PodLevelResources): web-0 fits
    # under 1.33 and preempts under 1.37; both directions, both modes
    local f="$ROOT/tests/fixtures/config/pod-level.json" a b mode
    local p='[.pods[] | [.name, .result, .node, .nominatedNode, (.victims | length)]]'
    local pb='[.pods[] | .baseline | [.name, .result, .node, .nominatedNode, (.victims | length)]]'
    for mode in queue independent; do
        for ab in "1.33 1.37" "1.37 1.33"; do
            read -r a b <<<"$ab"
            run bash -c "'$KP' -f '$f' --mode $mode --kube-version $a \
                --compare-kube-version $b -o json | jq -c '$p, $pb'"
            assert_success
            assert_output "$("$KP" -f "$f" --mode $mode --kube-version "$b" -o json | jq -c "$p")
$("$KP" -f "$f" --mode $mode --kube-version "$a" -o json | jq -c "$p")"
        done
    done
    run "$KP" -f "$f" --kube-version 1.33 --compare-kube-version 1.37 \
        --fail-on new-preemption
    assert_failure 3
    run "$KP" -f "$f" --compare-kube-version 1.30
    assert_failure 2
}
