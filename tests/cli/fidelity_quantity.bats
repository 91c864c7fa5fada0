#!/usr/bin/env bats
# fidelity_quantity.bats - issue 24, item 7: quantities past int64 read
# as the release replayed reads them (docs/versions.md, #141305), in both
# modes and on both sides of v1.38, on tests/fixtures/fidelity-quantity.
#
# Up to 1.37 (apimachinery v0.31-v0.37 ScaledValue, its ok dropped):
# memory "10E" is an int64Amount {10, 18}; Value() scales it by 10^18,
# past int64, and positiveScaleInt64's loop gives 0, so the pod requests
# no memory (NodeResourcesFit skips a zero request).  Allocatable cpu
# "9223372036854775807" has 19 digits: an inf.Dec, MilliValue() the low
# 64 bits of (2^63-1) * 1000, -1000m, so no cpu fits that node.  From
# 1.38 both saturate at 2^63-1: the pod's memory fits no node (above
# allocatable: UnschedulableAndUnresolvable), the node's cpu fits all.
#
# KP_BIN overrides the binary under test (default build/kubectl-preempt).

load '../helpers/common'

FIX="$ROOT/tests/fixtures/fidelity-quantity"

# decisions FILE MODE [ARGS...]: one line per pod: name result node
decisions() {
    local f=$1 m=$2
    shift 2
    timeout -k 5 20 "$KP" -f "$FIX/$f" --mode "$m" "$@" -o json 2>/dev/null |
        jq -r '.pods[] | [.name, .result, (.node // .nominatedNode // "-")]
               | join(" ")'
}

# requests.json: n1 (4 cpu, 8Gi); huge (priority 10: 1 cpu, memory 10E)
# then later (priority 0: 3500m cpu, 1Gi).

@test "memory 10E, 1.37, queue: reads 0 bytes, fits n1; later then finds n1 short of cpu" {
    need jq
    run decisions requests.json queue --kube-version 1.37
    assert_success
    assert_output - <<'OUT'
huge Fits n1
later Unschedulable -
OUT
}

@test "memory 10E, 1.38, queue: saturates, fits nowhere; later fits n1" {
    need jq
    run decisions requests.json queue --kube-version 1.38
    assert_success
    assert_output - <<'OUT'
huge Unschedulable -
later Fits n1
OUT
}

@test "memory 10E, independent: fits in 1.37, not in 1.38; later fits in both" {
    need jq
    run decisions requests.json independent --kube-version 1.37
    assert_success
    assert_output - <<'OUT'
huge Fits n1
later Fits n1
OUT
    run decisions requests.json independent --kube-version 1.38
    assert_success
    assert_output - <<'OUT'
huge Unschedulable -
later Fits n1
OUT
}

@test "memory 10E, 1.38: the reason is Insufficient memory, preemption not helpful" {
    need jq
    run bash -c "'$KP' -f '$FIX/requests.json' --kube-version 1.38 -o json |
        jq -r '.pods[] | select(.name == \"huge\") | .message'"
    assert_success
    assert_output "0/1 nodes are available: 1 Insufficient memory. no new claims to deallocate, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."
}

@test "memory 10E: without --kube-version 1.37 is replayed, with a warning naming both readings" {
    need jq
    run decisions requests.json queue
    assert_success
    assert_output - <<'OUT'
huge Fits n1
later Unschedulable -
OUT
    run --separate-stderr "$KP" -f "$FIX/requests.json"
    assert_success
    assert_equal "$stderr" "warning: pod 'q/huge': requests past int64: kube-scheduler 1.37 reads memory 0 where 1.38 reads 9223372036854775807 (Quantity.Value/MilliValue overflow before 1.38, kubernetes/kubernetes#141305)"
    run --separate-stderr "$KP" -f "$FIX/requests.json" --kube-version 1.38
    assert_success
    assert_equal "$stderr" ""
}

# allocatable.json: big (cpu 9223372036854775807, memory 8Ei), small (4
# cpu); p requests 5 cpu.

@test "allocatable cpu past int64 milli-units: -1000m in 1.37 (nothing fits), saturated in 1.38 (p fits big)" {
    need jq
    local m
    for m in queue independent; do
        run decisions allocatable.json "$m" --kube-version 1.37
        assert_success
        assert_output "p Unschedulable -"
        run decisions allocatable.json "$m" --kube-version 1.38
        assert_success
        assert_output "p Fits big"
    done
    run bash -c "'$KP' -f '$FIX/allocatable.json' -o json 2>/dev/null |
        jq -r '.warnings[]'"
    assert_output "node 'big': status.allocatable past int64: kube-scheduler 1.37 reads cpu -1000m where 1.38 reads 9223372036854775807m (Quantity.Value/MilliValue overflow before 1.38, kubernetes/kubernetes#141305)"
}

@test "the version detected from the kubelets decides the reading (1.38 saturates)" {
    need jq
    jq '(.items[] | select(.kind == "Node") | .status.nodeInfo) =
        {"kubeletVersion": "v1.38.1"}' "$FIX/allocatable.json" \
        >"$BATS_TEST_TMPDIR/k138.json"
    run bash -c "'$KP' -f '$BATS_TEST_TMPDIR/k138.json' -o json |
        jq -r '.scheduler.version, (.pods[] | .result)'"
    assert_success
    assert_output - <<'OUT'
1.38
Fits
OUT
}

@test "--kube-version 1.37 --compare-kube-version 1.38: the nodes are read again for 1.38 (p better)" {
    need jq
    run bash -c "'$KP' -f '$FIX/allocatable.json' --kube-version 1.37 \
        --compare-kube-version 1.38 -o json 2>/dev/null |
        jq -c '.pods[] | [.name, .baseline.result, .result, .change]'"
    assert_success
    assert_output '["p","Unschedulable","Fits","better"]'
    run bash -c "'$KP' -f '$FIX/requests.json' --kube-version 1.38 \
        --compare-kube-version 1.37 -o json 2>/dev/null |
        jq -c '.pods[] | [.name, .baseline.result, .result, .change]'"
    assert_success
    assert_output - <<'OUT'
["huge","Unschedulable","Fits","better"]
["later","Fits","Unschedulable","worse"]
OUT
}

# sums.json: n1 (cpu 1m, 8Gi).  PodRequests sums and maxes quantities,
# the scheduler reads the total once: two-halves (500u + 500u) requests
# 1m exactly; two-5e (5E + 5E of memory) is the int64Amount {10, 18},
# which 1.37 reads as 0; init-10e's init container (10E) beats its app
# container (10^18, an inf.Dec): Cmp turns 10E into an inf.Dec of scale
# -18 and 1.37 reads 10 * 10^18 wrapped, negative, which
# NodeResourcesFit's SetMaxResource makes 0.  1.38 saturates both.

@test "pod sums, independent: 500u + 500u is 1m in every release; 5E + 5E and a 10E init container fit in 1.37 only" {
    need jq
    run decisions sums.json independent --kube-version 1.37
    assert_success
    assert_output - <<'OUT'
two-halves Fits n1
two-5e Fits n1
init-10e Fits n1
OUT
    run decisions sums.json independent --kube-version 1.38
    assert_success
    assert_output - <<'OUT'
two-halves Fits n1
two-5e Unschedulable -
init-10e Unschedulable -
OUT
}

@test "pod sums, queue: two-halves takes n1's 1m, the others then find no cpu" {
    need jq
    run decisions sums.json queue --kube-version 1.37
    assert_success
    assert_output - <<'OUT'
two-halves Fits n1
two-5e Unschedulable -
init-10e Unschedulable -
OUT
    run --separate-stderr "$KP" -f "$FIX/sums.json" --kube-version 1.37
    assert_line --index 0 --partial "NAME"
    assert_equal "$stderr" "warning: pod 'q/two-5e': requests past int64: kube-scheduler 1.37 reads memory 0 where 1.38 reads 9223372036854775807 (Quantity.Value/MilliValue overflow before 1.38, kubernetes/kubernetes#141305)
warning: pod 'q/init-10e': requests past int64: kube-scheduler 1.37 reads memory -8446744073709551616 where 1.38 reads 9223372036854775807 (Quantity.Value/MilliValue overflow before 1.38, kubernetes/kubernetes#141305)"
}
