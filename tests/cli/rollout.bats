#!/usr/bin/env bats
# rollout.bats - --add of a workload that already runs (issue 25, item
# 3): an update, replayed wave by wave as its controller rolls it out
# (core/whatif/rollout.c).  tests/fixtures/rollout/cluster.json
# (make_fixtures.py): three nodes of 4 CPUs, each running one pod of
# Deployment prod/web (1 CPU), StatefulSet prod/db (1 CPU), DaemonSet
# kube-system/agent (250m) and a low-priority batch filler (1 CPU):
# 0.75 CPU free per node.
#
# KP_BIN overrides the binary under test (default build/kubectl-preempt).

load '../helpers/common'

R="$ROOT/tests/fixtures/rollout"

# kp_waves MANIFEST ARGS...: the rollout block after the table (up to
# the comparison with the cluster without the change, before_after.bats)
kp_waves() {
    local m="$1"
    shift
    "$KP" -f "$R/cluster.json" --add "$R/$m" "$@" |
        awk '/^Rollout of/ { p = 1 } /^Compared with/ { exit } p' |
        sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
}

# kp_jq MANIFEST FILTER ARGS...: jq -c FILTER on the -o json report
kp_jq() {
    local m="$1" q="$2"
    shift 2
    "$KP" -f "$R/cluster.json" --add "$R/$m" -o json "$@" | jq -c "$q"
}

@test "Deployment RollingUpdate: surge 1, unavailable 0 (25%/25% of 3), old pods go as new ones run" {
    for mode in queue independent; do
        run --separate-stderr kp_waves deployment.yaml --mode "$mode"
        assert_success
        assert_equal "$stderr" ""
        assert_output "Rollout of Deployment prod/web: RollingUpdate (maxSurge 1, maxUnavailable 0), 3 old pod(s), 3 new pod(s), 3 replicas: 6 wave(s), 3 created, 3 deleted, 1 preempted; complete
  wave 1   created     prod/web-rollout-0 (replaces prod/web-6d4f8-c)
  wave 1   runs        prod/web-rollout-0: Preempts on n1
  wave 1   preempted   batch/filler-1 (by web-rollout-0)
  wave 2   deleted     prod/web-6d4f8-c
  wave 3   created     prod/web-rollout-1 (replaces prod/web-6d4f8-b)
  wave 3   runs        prod/web-rollout-1: Fits on n3
  wave 4   deleted     prod/web-6d4f8-b
  wave 5   created     prod/web-rollout-2 (replaces prod/web-6d4f8-a)
  wave 5   runs        prod/web-rollout-2: Fits on n2
  wave 6   deleted     prod/web-6d4f8-a"
    done
}

@test "the report after a rollout is the cluster's: new pods only, with rollout and replaces" {
    need jq
    for mode in queue independent; do
        run kp_jq deployment.yaml '[.pods[] | [.name, .result, .rollout.wave, .rollout.replaces]]' --mode "$mode"
        assert_success
        assert_output '[["web-rollout-0","Preempts",1,"prod/web-6d4f8-c"],["web-rollout-1","Fits",3,"prod/web-6d4f8-b"],["web-rollout-2","Fits",5,"prod/web-6d4f8-a"]]'
        run kp_jq deployment.yaml '.rollouts[0] | [.kind, .strategy, .maxSurge, .maxUnavailable, .complete, (.waves | length), .waves[0].preempted]' --mode "$mode"
        assert_output '["Deployment","RollingUpdate",1,0,true,6,[{"namespace":"batch","name":"filler-1","by":"web-rollout-0"}]]'
    done
}

@test "a Deployment whose new pod can never run: the rollout is blocked, --fail-on rollout-blocked exits 3" {
    need jq
    for mode in queue independent; do
        run --separate-stderr "$KP" -f "$R/cluster.json" --add "$R/deployment-too-big.yaml" --mode "$mode" -o summary
        assert_success
        assert_line --partial "Rollout of Deployment prod/web: RollingUpdate (maxSurge 1, maxUnavailable 0), 3 old pod(s), 3 new pod(s), 3 replicas: 1 wave(s), 1 created, 0 deleted, 0 preempted; the rollout would never finish: new pod prod/web-rollout-0 stays Unschedulable (0/3 nodes are available: 3 Insufficient cpu."
        assert_line --partial "; maxUnavailable 0: no old pod goes before a new one runs"
        run --separate-stderr "$KP" -f "$R/cluster.json" --add "$R/deployment-too-big.yaml" --mode "$mode" --fail-on rollout-blocked
        assert_failure 3
        # one stderr line says which rollout and why
        assert_equal "${#stderr_lines[@]}" 1
        [[ "$stderr" == "fail-on rollout-blocked: the rollout of Deployment prod/web never finishes: new pod prod/web-rollout-0 stays Unschedulable "* ]]
        run kp_jq deployment-too-big.yaml '.rollouts[0] | [.complete, .blocked.pod.name, (.waves | length), .waves[0].pending[0].name]' --mode "$mode"
        assert_output '[false,"web-rollout-0",1,"web-rollout-0"]'
        # the pods that never were created are not reported
        run kp_jq deployment-too-big.yaml '[.pods[].name]' --mode "$mode"
        assert_output '["web-rollout-0"]'
    done
    # a rollout that finishes does not trip the gate
    run "$KP" -f "$R/cluster.json" --add "$R/deployment.yaml" --fail-on rollout-blocked
    assert_success
}

@test "StatefulSet RollingUpdate: highest ordinal first, each pod deleted then recreated under its name" {
    for mode in queue independent; do
        run --separate-stderr kp_waves statefulset.yaml --mode "$mode"
        assert_success
        # no more "pod 'prod/db-0' already exists: not added"
        assert_equal "$stderr" ""
        assert_output "Rollout of StatefulSet prod/db: RollingUpdate (partition 0), 3 old pod(s), 3 new pod(s), 3 replicas: 3 wave(s), 3 created, 3 deleted, 0 preempted; complete
  wave 1   created     prod/db-2 (replaces prod/db-2)
  wave 1   deleted     prod/db-2
  wave 1   runs        prod/db-2: Fits on n3
  wave 2   created     prod/db-1 (replaces prod/db-1)
  wave 2   deleted     prod/db-1
  wave 2   runs        prod/db-1: Fits on n2
  wave 3   created     prod/db-0 (replaces prod/db-0)
  wave 3   deleted     prod/db-0
  wave 3   runs        prod/db-0: Fits on n1"
    done
}

@test "DaemonSet RollingUpdate: maxUnavailable 1, one node at a time" {
    for mode in queue independent; do
        run --separate-stderr kp_waves daemonset.yaml --mode "$mode"
        assert_success
        assert_equal "$stderr" ""
        assert_output "Rollout of DaemonSet kube-system/agent: RollingUpdate (maxSurge 0, maxUnavailable 1), 3 old pod(s), 3 new pod(s), 3 replicas: 3 wave(s), 3 created, 3 deleted, 0 preempted; complete
  wave 1   created     kube-system/agent-n1 (replaces kube-system/agent-x1)
  wave 1   deleted     kube-system/agent-x1
  wave 1   runs        kube-system/agent-n1: Fits on n1
  wave 2   created     kube-system/agent-n2 (replaces kube-system/agent-x2)
  wave 2   deleted     kube-system/agent-x2
  wave 2   runs        kube-system/agent-n2: Fits on n2
  wave 3   created     kube-system/agent-n3 (replaces kube-system/agent-x3)
  wave 3   deleted     kube-system/agent-x3
  wave 3   runs        kube-system/agent-n3: Fits on n3"
    done
}

@test "StatefulSet partition 2: only the ordinals from the partition up are updated" {
    for mode in queue independent; do
        run --separate-stderr kp_waves statefulset-partition.yaml --mode "$mode"
        assert_success
        assert_output "Rollout of StatefulSet prod/db: RollingUpdate (partition 2), 3 old pod(s), 1 new pod(s), 3 replicas: 1 wave(s), 1 created, 1 deleted, 0 preempted; complete
  wave 1   created     prod/db-2 (replaces prod/db-2)
  wave 1   deleted     prod/db-2
  wave 1   runs        prod/db-2: Fits on n3"
    done
}

@test "StatefulSet OnDelete: nothing is replaced, a scale up gets the new template" {
    for mode in queue independent; do
        run --separate-stderr kp_waves statefulset-ondelete.yaml --mode "$mode"
        assert_success
        assert_output "Rollout of StatefulSet prod/db: OnDelete, 3 old pod(s), 1 new pod(s), 4 replicas: 1 wave(s), 1 created, 0 deleted, 1 preempted; complete (OnDelete: the old pods stay until deleted)
  wave 1   created     prod/db-3
  wave 1   runs        prod/db-3: Preempts on n1
  wave 1   preempted   batch/filler-1 (by db-3)"
    done
}

@test "Deployment Recreate: every old pod goes before the new ones come" {
    for mode in queue independent; do
        run --separate-stderr kp_waves deployment-recreate.yaml --mode "$mode"
        assert_success
        assert_output "Rollout of Deployment prod/web: Recreate, 3 old pod(s), 2 new pod(s), 2 replicas: 2 wave(s), 2 created, 3 deleted, 0 preempted; complete
  wave 1   deleted     prod/web-6d4f8-c
  wave 1   deleted     prod/web-6d4f8-b
  wave 1   deleted     prod/web-6d4f8-a
  wave 2   created     prod/web-rollout-0 (replaces prod/web-6d4f8-c)
  wave 2   created     prod/web-rollout-1 (replaces prod/web-6d4f8-b)
  wave 2   runs        prod/web-rollout-0: Fits on n1
  wave 2   runs        prod/web-rollout-1: Fits on n2"
    done
}

@test "ReplicaSet: a scale change only, the pods it keeps are not replaced" {
    run --separate-stderr kp_waves replicaset-scale.yaml
    assert_success
    assert_output "Rollout of ReplicaSet prod/web-6d4f8: Scale, 3 old pod(s), 1 new pod(s), 4 replicas: 1 wave(s), 1 created, 0 deleted, 1 preempted; complete (a ReplicaSet does not replace the pods it keeps)
  wave 1   created     prod/web-6d4f8-rollout-0
  wave 1   runs        prod/web-6d4f8-rollout-0: Preempts on n1
  wave 1   preempted   batch/filler-1 (by web-6d4f8-rollout-0)"
    run --separate-stderr kp_waves replicaset-down.yaml
    assert_success
    assert_output "Rollout of ReplicaSet prod/web-6d4f8: Scale, 3 old pod(s), 0 new pod(s), 1 replicas: 1 wave(s), 0 created, 2 deleted, 0 preempted; complete (a ReplicaSet does not replace the pods it keeps)
  wave 1   deleted     prod/web-6d4f8-c
  wave 1   deleted     prod/web-6d4f8-b"
}

@test "DaemonSet whose new pod fits no node: blocked after the first node, in both modes" {
    need jq
    for mode in queue independent; do
        run --separate-stderr kp_waves daemonset-too-big.yaml --mode "$mode"
        assert_success
        assert_line --index 0 --partial "Rollout of DaemonSet kube-system/agent: RollingUpdate (maxSurge 0, maxUnavailable 1), 3 old pod(s), 3 new pod(s), 3 replicas: 1 wave(s), 1 created, 1 deleted, 0 preempted; the rollout would never finish: new pod kube-system/agent-n1 stays Unschedulable (0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't satisfy plugin(s) [NodeAffinity]."
        assert_line --index 3 "  wave 1   pending     kube-system/agent-n1: Unschedulable"
        run "$KP" -f "$R/cluster.json" --add "$R/daemonset-too-big.yaml" --mode "$mode" --fail-on rollout-blocked -o json
        assert_failure 3
        run kp_jq daemonset-too-big.yaml '.rollouts[0] | [.complete, .blocked.pod.name]' --mode "$mode"
        assert_output '[false,"agent-n1"]'
    done
}

@test "DaemonSet maxSurge 1: the new pod first, the old one once it runs" {
    run --separate-stderr kp_waves daemonset-surge.yaml
    assert_success
    assert_output "Rollout of DaemonSet kube-system/agent: RollingUpdate (maxSurge 1, maxUnavailable 0), 3 old pod(s), 3 new pod(s), 3 replicas: 4 wave(s), 3 created, 3 deleted, 0 preempted; complete
  wave 1   created     kube-system/agent-n1 (replaces kube-system/agent-x1)
  wave 1   runs        kube-system/agent-n1: Fits on n1
  wave 2   created     kube-system/agent-n2 (replaces kube-system/agent-x2)
  wave 2   deleted     kube-system/agent-x1
  wave 2   runs        kube-system/agent-n2: Fits on n2
  wave 3   created     kube-system/agent-n3 (replaces kube-system/agent-x3)
  wave 3   deleted     kube-system/agent-x2
  wave 3   runs        kube-system/agent-n3: Fits on n3
  wave 4   deleted     kube-system/agent-x3"
}

@test "queue mode places the pods pending before the rollout first; independent mode does not" {
    need jq
    jq '.items += [{"apiVersion": "v1", "kind": "Pod",
                    "metadata": {"name": "api-0", "namespace": "prod",
                                 "creationTimestamp": "2026-01-01T00:00:00Z"},
                    "spec": {"priorityClassName": "high",
                             "containers": [{"name": "c", "image": "i",
                                 "resources": {"requests": {"cpu": "700m",
                                                            "memory": "256Mi"}}}]}}]' \
        "$R/cluster.json" > "$BATS_TEST_TMPDIR/c.json"
    # api-0 takes n1's room first: web-rollout-0 preempts on n2 instead
    run "$KP" -f "$BATS_TEST_TMPDIR/c.json" --add "$R/deployment.yaml" -o json
    assert_success
    assert_equal "$(jq -c '[.rollouts[0].waves[0].running[0].node, [.rollouts[0].waves[].preempted[].name]]' <<< "$output")" '["n2",["filler-2","agent-x2"]]'
    run "$KP" -f "$BATS_TEST_TMPDIR/c.json" --add "$R/deployment.yaml" -o json --mode independent
    assert_success
    assert_equal "$(jq -c '[.rollouts[0].waves[0].running[0].node, [.rollouts[0].waves[].preempted[].name]]' <<< "$output")" '["n1",["filler-1"]]'
}

@test "DaemonSet maxSurge 1 whose new pod never runs: the old pod stays, the rollout is blocked" {
    sed 's/^  template:$/  updateStrategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}\n  template:/' \
        "$R/daemonset-too-big.yaml" > "$BATS_TEST_TMPDIR/ds.yaml"
    run --separate-stderr "$KP" -f "$R/cluster.json" --add "$BATS_TEST_TMPDIR/ds.yaml"
    assert_success
    assert_line --partial "Rollout of DaemonSet kube-system/agent: RollingUpdate (maxSurge 1, maxUnavailable 0), 3 old pod(s), 3 new pod(s), 3 replicas: 1 wave(s), 1 created, 0 deleted, 0 preempted; the rollout would never finish: new pod kube-system/agent-n1 stays Unschedulable"
    refute_line --partial "deleted     kube-system/agent-x1"
}

@test "a rollout's strategy that cannot be read is one error naming file, object and field" {
    sed 's/^  replicas: 3$/  replicas: 3\n  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: "ten"}}/' \
        "$R/deployment.yaml" > "$BATS_TEST_TMPDIR/bad.yaml"
    run --separate-stderr "$KP" -f "$R/cluster.json" --add "$BATS_TEST_TMPDIR/bad.yaml"
    assert_failure 1
    assert_output ""
    assert_equal "$stderr" "error: $BATS_TEST_TMPDIR/bad.yaml: document 1: deployment 'prod/web': spec.strategy.rollingUpdate.maxSurge: expected a non-negative integer or a percentage"
    sed 's/^  serviceName: db$/  serviceName: db\n  updateStrategy: {type: Rolling}/' \
        "$R/statefulset.yaml" > "$BATS_TEST_TMPDIR/bad2.yaml"
    run --separate-stderr "$KP" -f "$R/cluster.json" --add "$BATS_TEST_TMPDIR/bad2.yaml"
    assert_failure 1
    assert_equal "$stderr" "error: $BATS_TEST_TMPDIR/bad2.yaml: document 1: statefulset 'prod/db': spec.updateStrategy.type: unsupported value 'Rolling'"
}

@test "explain refuses --fail-on rollout-blocked" {
    run --separate-stderr "$KP" explain -f "$ROOT/examples/incident.json" --fail-on rollout-blocked
    assert_failure 2
    assert_equal "$stderr" "error: explain looks at the past: --fail-on rollout-blocked does not apply (preemption and pdb-violation do)"
}

@test "an old pod that was pending and the rollout deletes leaves the report" {
    need jq
    # web-6d4f8-d: a fourth old pod, pending (unavailable): deleted first
    jq '.items += [(.items[] | select(.metadata.name == "web-6d4f8-a")
                    | .metadata.name = "web-6d4f8-d" | del(.spec.nodeName)
                    | .status = {"phase": "Pending"})]' \
        "$R/cluster.json" > "$BATS_TEST_TMPDIR/c.json"
    run "$KP" -f "$BATS_TEST_TMPDIR/c.json" --add "$R/deployment.yaml" -o json
    assert_success
    assert_equal "$(jq -c '[.pods[].name]' <<< "$output")" '["web-rollout-0","web-rollout-1","web-rollout-2"]'
    assert_equal "$(jq -c '.rollouts[0].waves[0].deleted' <<< "$output")" '[{"namespace":"prod","name":"web-6d4f8-d"}]'
    # without the rollout it is reported pending
    run "$KP" -f "$BATS_TEST_TMPDIR/c.json" -o json
    assert_equal "$(jq -c '[.pods[].name]' <<< "$output")" '["web-6d4f8-d"]'
}

@test "-o wide says which rollout made each pod, -o yaml carries the rollouts" {
    run "$KP" -f "$R/cluster.json" --add "$R/statefulset.yaml" -o wide --no-headers
    assert_success
    assert_line --index 0 --regexp "^prod +db-0 +1000 +Fits .* yes +changed +Running on n1 +<none> +rolled out by StatefulSet prod/db in wave 3 \(replaces prod/db-0\): fits on node n1 without preemption$"
    run "$KP" -f "$R/cluster.json" --add "$R/statefulset.yaml" -o yaml
    assert_success
    assert_line "rollouts:"
    assert_line "- kind: StatefulSet"
    assert_line "  podManagementPolicy: OrderedReady"
    assert_line "    replaces: prod/db-2"
}

@test "StatefulSet spec.ordinals.start: the ordinals from start are rolled, scaled to 2" {
    sed 's/^  serviceName: db$/  serviceName: db\n  ordinals: {start: 1}/; s/^  replicas: 3$/  replicas: 2/' \
        "$R/statefulset.yaml" > "$BATS_TEST_TMPDIR/sts.yaml"
    run --separate-stderr "$KP" -f "$R/cluster.json" --add "$BATS_TEST_TMPDIR/sts.yaml"
    assert_success
    assert_line "Rollout of StatefulSet prod/db: RollingUpdate (partition 0), 3 old pod(s), 2 new pod(s), 2 replicas: 2 wave(s), 2 created, 2 deleted, 0 preempted; complete"
    assert_line "  wave 1   created     prod/db-2 (replaces prod/db-2)"
    assert_line "  wave 2   created     prod/db-1 (replaces prod/db-1)"
    refute_line --partial "db-0"
}

@test "StatefulSet whose recreated pod can never run: db-2 is deleted and stays pending, the rollout is blocked" {
    sed 's/cpu: 1500m/cpu: "5"/' "$R/statefulset.yaml" > "$BATS_TEST_TMPDIR/sts.yaml"
    for mode in queue independent; do
        run --separate-stderr "$KP" -f "$R/cluster.json" --add "$BATS_TEST_TMPDIR/sts.yaml" --mode "$mode" --fail-on rollout-blocked
        assert_failure 3
        assert_line --index 0 --regexp "^NAMESPACE +NAME "
        assert_line --index 1 --regexp "^prod +db-2 +1000 +Unschedulable "
        assert_line --partial "Rollout of StatefulSet prod/db: RollingUpdate (partition 0), 3 old pod(s), 3 new pod(s), 3 replicas: 1 wave(s), 1 created, 1 deleted, 0 preempted; the rollout would never finish: new pod prod/db-2 stays Unschedulable"
        assert_line "  wave 1   deleted     prod/db-2"
        assert_line "  wave 1   pending     prod/db-2: Unschedulable"
    done
}

@test "an old pod a new pod preempts is gone for the rollout too (not recreated by its old ReplicaSet)" {
    need jq
    # the old web pods at low priority, no filler: each new 2500m pod
    # preempts the old pod of its node
    jq '(.items[] | select(.kind == "Pod" and (.metadata.name | startswith("web-"))) | .spec.priorityClassName) = "low"
        | del(.items[] | select(.kind == "Pod" and (.metadata.name | startswith("filler"))))' \
        "$R/cluster.json" > "$BATS_TEST_TMPDIR/c.json"
    sed 's/cpu: 1500m/cpu: 2500m/' "$R/deployment.yaml" > "$BATS_TEST_TMPDIR/d.yaml"
    run --separate-stderr "$KP" -f "$BATS_TEST_TMPDIR/c.json" --add "$BATS_TEST_TMPDIR/d.yaml"
    assert_success
    assert_line "Rollout of Deployment prod/web: RollingUpdate (maxSurge 1, maxUnavailable 0), 3 old pod(s), 3 new pod(s), 3 replicas: 3 wave(s), 3 created, 0 deleted, 3 preempted; complete"
    assert_line "  wave 2   created     prod/web-rollout-1 (replaces prod/web-6d4f8-b)"
    assert_line "  wave 2   preempted   prod/web-6d4f8-b (by web-rollout-1)"
}

@test "StatefulSet scaled from 3 to 5: new ordinals first (one per wave, all at once with Parallel), then the update" {
    sed 's/^  replicas: 3$/  replicas: 5/; s/cpu: 1500m/cpu: 500m/' \
        "$R/statefulset.yaml" > "$BATS_TEST_TMPDIR/ordered.yaml"
    sed 's/^  serviceName: db$/  serviceName: db\n  podManagementPolicy: Parallel/' \
        "$BATS_TEST_TMPDIR/ordered.yaml" > "$BATS_TEST_TMPDIR/parallel.yaml"
    run --separate-stderr "$KP" -f "$R/cluster.json" --add "$BATS_TEST_TMPDIR/ordered.yaml"
    assert_success
    assert_line "Rollout of StatefulSet prod/db: RollingUpdate (partition 0), 3 old pod(s), 5 new pod(s), 5 replicas: 5 wave(s), 5 created, 3 deleted, 0 preempted; complete"
    assert_line "  wave 1   created     prod/db-3"
    assert_line "  wave 2   created     prod/db-4"
    assert_line "  wave 3   deleted     prod/db-2"
    run --separate-stderr "$KP" -f "$R/cluster.json" --add "$BATS_TEST_TMPDIR/parallel.yaml"
    assert_success
    assert_line "Rollout of StatefulSet prod/db: RollingUpdate (partition 0, Parallel), 3 old pod(s), 5 new pod(s), 5 replicas: 4 wave(s), 5 created, 3 deleted, 0 preempted; complete"
    assert_line "  wave 1   created     prod/db-3"
    assert_line "  wave 1   created     prod/db-4"
    assert_line "  wave 2   deleted     prod/db-2"
}

@test "Deployment scaled from 3 to 5 with a new template: maxSurge 2, maxUnavailable 1" {
    sed 's/^  replicas: 3$/  replicas: 5/; s/cpu: 1500m/cpu: 500m/' \
        "$R/deployment.yaml" > "$BATS_TEST_TMPDIR/d.yaml"
    run --separate-stderr "$KP" -f "$R/cluster.json" --add "$BATS_TEST_TMPDIR/d.yaml"
    assert_success
    assert_line "Rollout of Deployment prod/web: RollingUpdate (maxSurge 2, maxUnavailable 1), 3 old pod(s), 5 new pod(s), 5 replicas: 3 wave(s), 5 created, 3 deleted, 1 preempted; complete"
    # wave 1: the new ReplicaSet to 4 (3 + 4 <= 5 + 2), no old pod goes
    # (7 pods - 4 to keep available - 4 new not running yet < 0); wave 2:
    # the 4 run, 3 old go (7 available - 4); wave 3: the fifth
    assert_line "  wave 1   created     prod/web-rollout-3"
    refute_line --partial "wave 1   deleted"
    assert_line "  wave 2   deleted     prod/web-6d4f8-a"
    assert_line "  wave 3   created     prod/web-rollout-4"
}

@test "DaemonSet OnDelete: the old pods stay, a node without one gets the new template" {
    need jq
    sed 's/^  template:$/  updateStrategy: {type: OnDelete}\n  template:/' \
        "$R/daemonset.yaml" > "$BATS_TEST_TMPDIR/ds.yaml"
    run --separate-stderr "$KP" -f "$R/cluster.json" --add "$BATS_TEST_TMPDIR/ds.yaml" --fail-on rollout-blocked
    assert_success
    assert_output "Rollout of DaemonSet kube-system/agent: OnDelete, 3 old pod(s), 3 new pod(s), 3 replicas: 0 wave(s), 0 created, 0 deleted, 0 preempted; complete (OnDelete: the old pods stay until deleted)"
    jq '.items += [{"apiVersion": "v1", "kind": "Node",
                    "metadata": {"name": "n4", "labels": {"kubernetes.io/hostname": "n4"}},
                    "status": {"allocatable": {"cpu": "4", "memory": "16Gi", "pods": "110"}}}]' \
        "$R/cluster.json" > "$BATS_TEST_TMPDIR/c.json"
    run --separate-stderr "$KP" -f "$BATS_TEST_TMPDIR/c.json" --add "$BATS_TEST_TMPDIR/ds.yaml"
    assert_success
    assert_line "  wave 1   created     kube-system/agent-n4"
    assert_line "  wave 1   runs        kube-system/agent-n4: Fits on n4"
    refute_line --partial "deleted     "
}

@test "with --remove-node, the old pods the node took are gone before the first wave" {
    run --separate-stderr "$KP" -f "$R/cluster.json" --add "$R/deployment.yaml" --remove-node n3
    assert_success
    # web-6d4f8-c went with n3: two old pods left, room for two surge pods
    assert_line --partial "Rollout of Deployment prod/web: RollingUpdate (maxSurge 1, maxUnavailable 0), 3 old pod(s), 3 new pod(s), 3 replicas: 1 wave(s), 2 created, 0 deleted, 0 preempted; the rollout would never finish"
    assert_line "  wave 1   created     prod/web-rollout-1"
}
