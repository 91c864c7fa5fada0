#!/usr/bin/env bats
# fidelity_versions.bats - issue 24, the version table: CHANGELOG entries
# of 1.36 and 1.37 that change a replayed decision, each on both sides of
# its release and in both modes, on tests/fixtures/fidelity-versions.
#
# ImageLocality (image_locality.go sumImageScores, calculatePriority):
# image volumes (spec.volumes[].image) are scored from v1.36
# (kubernetes/kubernetes#130231, CHANGELOG-1.36 v1.36.0-alpha.1) and
# counted in the max threshold from v1.37 (#138951, v1.37.0-alpha.1).
# Node a holds web's image volume's image, node b its container's; a
# also runs a small pod, so the resource scorers favour b by a point or
# two.  Scaled scores (size * nodes with it / 2 nodes), thresholds 23 MiB
# and 1000 MiB per image:
#
# image_volumes.json (a 3 GB, b 2.4 GB: 1430 and 1144 MiB scaled):
#   1.35 a 0, b 100 -> b; 1.36 both clamp at 100 -> b (resources);
#   1.37 threshold 2000 MiB: a 71, b 56 -> a.
# image_volumes_small.json (a 1.2 GB, b 0.6 GB: 572 and 286 MiB):
#   1.35 a 0, b 26 -> b; 1.36 a 56, b 26 -> a; 1.37 a 27, b 13 -> a.
#
# KP_BIN overrides the binary under test (default build/kubectl-preempt).

load '../helpers/common'

FIX="$ROOT/tests/fixtures/fidelity-versions"

# placed FILE VERSION: web's node in queue mode, then independently
placed() {
    local m
    for m in queue independent; do
        timeout -k 5 20 "$KP" -f "$FIX/$1" --mode "$m" --kube-version "$2" \
            -o json | jq -r '.pods[] | select(.name == "web") | .node'
    done
}

@test "ImageLocality image volume: threshold counts it from 1.37 (#138951): b up to 1.36, a from 1.37" {
    need jq
    local v want
    for v in 1.35:b 1.36:b 1.37:a 1.38:a; do
        want=${v#*:}
        run placed image_volumes.json "${v%:*}"
        assert_success
        assert_output "$want
$want"
    done
}

@test "ImageLocality image volume: scored from 1.36 (#130231): b up to 1.35, a from 1.36" {
    need jq
    local v want
    for v in 1.34:b 1.35:b 1.36:a 1.37:a; do
        want=${v#*:}
        run placed image_volumes_small.json "${v%:*}"
        assert_success
        assert_output "$want
$want"
    done
}

@test "ImageLocality image volume: a volume without image.reference is an error naming the field" {
    run "$KP" -f <(jq '(.items[] | select(.metadata.name == "web")
                        | .spec.volumes[0].image.reference) = 5' \
                    "$FIX/image_volumes.json")
    assert_failure 1
    assert_output --partial "volumes[0].image.reference"
}

# NodePorts (node_ports.go getContainerPorts, NodeInfo's used ports):
# sidecars' (restartable init containers') host ports count from
# kubernetes/kubernetes#132040 (v1.34.0-alpha.1), cherry-picked into
# 1.33 as #133390; 1.31 and 1.32 read app containers only.
# sidecar_ports.json: n1 runs agent (a sidecar on host port 9100) and
# holder (an app container on 9200), both of priority 100; web wants
# 9100 in an app container, side 9200 in a sidecar.
@test "NodePorts sidecar host ports: ignored up to 1.32, a conflict from 1.33 (#132040, #133390), both modes" {
    need jq
    local m v
    for m in queue independent; do
        for v in 1.31 1.32; do
            run bash -c "'$KP' -f '$FIX/sidecar_ports.json' --mode $m \
                --kube-version $v -o json | jq -r '.pods[] | .name + \" \" + .result + \" \" + (.node // \"-\")'"
            assert_success
            assert_output - <<'OUT'
web Fits n1
side Fits n1
OUT
        done
        for v in 1.33 1.37; do
            run bash -c "'$KP' -f '$FIX/sidecar_ports.json' --mode $m \
                --kube-version $v -o json | jq -r '.pods[] | .name + \" \" + .result + \" \" + (.node // \"-\")'"
            assert_success
            assert_output - <<'OUT'
web Unschedulable -
side Unschedulable -
OUT
        done
    done
}

@test "NodePorts sidecar host ports: --kube-version 1.32 --compare-kube-version 1.33 reads the ports again" {
    need jq
    run bash -c "'$KP' -f '$FIX/sidecar_ports.json' --kube-version 1.32 \
        --compare-kube-version 1.33 -o json 2>/dev/null |
        jq -c '.pods[] | [.name, .baseline.result, .result]'"
    assert_success
    assert_output - <<'OUT'
["web","Fits","Unschedulable"]
["side","Fits","Unschedulable"]
OUT
    run bash -c "'$KP' -f '$FIX/sidecar_ports.json' --kube-version 1.33 \
        --compare-kube-version 1.32 -o json 2>/dev/null |
        jq -c '.pods[] | [.name, .baseline.result, .result]'"
    assert_success
    assert_output - <<'OUT'
["web","Unschedulable","Fits"]
["side","Unschedulable","Fits"]
OUT
}

# NonZeroRequested (framework/types.go calculateResource): from v1.32
# (kubernetes/kubernetes#127878, v1.32.0-alpha.2, no cherry-pick found) a
# pod's share sums its sidecars with its app containers, as PodRequests
# does; 1.31 took max(app containers, largest init container with the
# sidecars before it).  sidecar_nonzero.json: a runs mesh (sidecar 2 cpu
# / 1Gi, app 500m / 512Mi), b runs plain (2200m / 1Gi); web wants 1 cpu
# / 1Gi.  LeastAllocated: 1.32 a 2500m+1 -> 12, 2.5Gi -> 68: 40; b 20,
# 75: 47.  1.31 a counts mesh as 2 cpu / 1Gi: 25, 75: 50.
# BalancedAllocation (real requests, the same in both): a 71, b 72.
# 1.31: a 121 > b 119; 1.32: a 111 < b 119.
@test "non-zero requests of sidecars on a node: left out of the sum in 1.31, summed from 1.32 (#127878), both modes" {
    need jq
    local m v want
    for m in queue independent; do
        for v in 1.31:a 1.32:b 1.37:b; do
            want=${v#*:}
            run bash -c "'$KP' -f '$FIX/sidecar_nonzero.json' --mode $m \
                --kube-version ${v%:*} -o json | jq -r '.pods[] | .name + \" \" + .node'"
            assert_success
            assert_output "web $want"
        done
    done
}
