#!/usr/bin/env bats
# grow.bats - inputs that grow (issue 27): what used to be quadratic in
# one dimension of the input stays fast, and each shortcut that makes it
# fast has a switch (KP_NO_*) that gives the same report without it.
# Sizes are chosen so that the old code does not finish under the
# `timeout`, the new one does with room to spare (not a benchmark).

load '../helpers/common'
load '../helpers/bench_cluster'

GROW="$ROOT/tests/helpers/grow_cluster.py"

setup() {
    need python3
}

# a time limit, longer under ASan (as hostile_api.bats scales its own)
limit() {
    case "$KP" in *asan*) echo $(($1 * 4)) ;; *) echo "$1" ;; esac
}

# same_without SWITCH FILE [ARG...]: FILE's -o json report with ARGs, in
# queue and independent mode, on 1 and 2 threads, is the same with
# SWITCH=1; the last report (independent, 2 threads) is left in
# $BATS_TEST_TMPDIR/with.
same_without() {
    local sw=$1 f=$2 mode t
    shift 2
    for mode in queue independent; do
        for t in 1 2; do
            KUBECTL_PREEMPT_PARALLELISM=$t "$KP" -f "$f" -o json \
                --mode "$mode" "$@" > "$BATS_TEST_TMPDIR/with"
            env "$sw=1" KUBECTL_PREEMPT_PARALLELISM=$t "$KP" -f "$f" \
                -o json --mode "$mode" "$@" > "$BATS_TEST_TMPDIR/without"
            cmp "$BATS_TEST_TMPDIR/with" "$BATS_TEST_TMPDIR/without" ||
                fail "$(basename "$f") --mode $mode, $t thread(s): differs with $sw"
        done
    done
}

# The four bench shapes (nodes, pods, pending pods, PDBs), the taints
# file and an extended-resources file of xnodes nodes, in the test's
# directory: the inputs of the diagnosis's tests
diag_inputs() {
    local nodes=$1 pods=$2 pending=$3 pdbs=$4 xnodes=$5 shape
    for shape in default nominated pdb affinity; do
        bench_cluster "$BATS_TEST_TMPDIR/$shape.json" "$nodes" "$pods" \
            "$pending" "$pdbs" --shape "$shape"
    done
    python3 "$GROW" taints 40 > "$BATS_TEST_TMPDIR/taints.json"
    python3 "$GROW" extres "$xnodes" 6 1 > "$BATS_TEST_TMPDIR/extres.json"
}

# diag_inputs of 300 nodes; every file's report with and without switch
# sw, and the nominated file's -o describe; its -o json left in r
same_diagnoses_without() {
    local sw=$1 f
    diag_inputs 300 3000 120 40 300
    for f in "$BATS_TEST_TMPDIR"/*.json; do
        same_without "$sw" "$f"
    done
    "$KP" -f "$BATS_TEST_TMPDIR/nominated.json" -o describe \
        > "$BATS_TEST_TMPDIR/with.txt"
    env "$sw=1" "$KP" -f "$BATS_TEST_TMPDIR/nominated.json" -o describe \
        > "$BATS_TEST_TMPDIR/without.txt"
    cmp "$BATS_TEST_TMPDIR/with.txt" "$BATS_TEST_TMPDIR/without.txt" ||
        fail "nominated.json -o describe differs with $sw"
    "$KP" -f "$BATS_TEST_TMPDIR/nominated.json" -o json > "$BATS_TEST_TMPDIR/r"
}

@test "taints: 100,000 taints against 100,000 tolerations finish in seconds" {
    python3 "$GROW" taints 100000 > "$BATS_TEST_TMPDIR/t.json"
    run timeout "$(limit 15)" "$KP" -f "$BATS_TEST_TMPDIR/t.json" -o wide --explain-nodes
    assert_success
    # n-all: one PreferNoSchedule taint untolerated (Score); n-one-left:
    # a NoSchedule taint no toleration matches (Filter)
    assert_line --regexp '^default +wants-tolerations +0 +Fits .* n-score '
    assert_line --regexp '^  n-one-left +TaintToleration +node\(s\) had untolerated taint\(s\)$'
    assert_line --regexp '^  n-all +- +fits$'
}

@test "taints: KP_NO_TOLERATION_INDEX=1 gives the same report" {
    python3 "$GROW" taints 3000 > "$BATS_TEST_TMPDIR/t.json"
    "$KP" -f "$BATS_TEST_TMPDIR/t.json" -o json --explain-nodes \
        > "$BATS_TEST_TMPDIR/with"
    KP_NO_TOLERATION_INDEX=1 "$KP" -f "$BATS_TEST_TMPDIR/t.json" -o json \
        --explain-nodes > "$BATS_TEST_TMPDIR/without"
    cmp "$BATS_TEST_TMPDIR/with" "$BATS_TEST_TMPDIR/without"
    grep -q '"n-score"' "$BATS_TEST_TMPDIR/with"
}

@test "ports: 65,000 host ports on four pods, on eight nodes, finish in seconds" {
    python3 "$GROW" ports 65000 8 > "$BATS_TEST_TMPDIR/p.json"
    run timeout "$(limit 8)" "$KP" -f "$BATS_TEST_TMPDIR/p.json" -o wide
    assert_success
    # 0.0.0.0 takes the port on every IP (tcp-any, udp-any); 10.0.0.1
    # and 10.0.0.2 are different IPs (tcp-ip1 stays)
    assert_line --regexp '^default +wants-ports +1000 +Preempts +n1 +2 .* default/tcp-any,default/udp-any '
}

@test "ports: KP_NO_PORT_HASH=1 gives the same report" {
    python3 "$GROW" ports 8000 3 > "$BATS_TEST_TMPDIR/p.json"
    "$KP" -f "$BATS_TEST_TMPDIR/p.json" -o json --explain-nodes \
        > "$BATS_TEST_TMPDIR/with"
    KP_NO_PORT_HASH=1 "$KP" -f "$BATS_TEST_TMPDIR/p.json" -o json \
        --explain-nodes > "$BATS_TEST_TMPDIR/without"
    cmp "$BATS_TEST_TMPDIR/with" "$BATS_TEST_TMPDIR/without"
    grep -q '"default/tcp-any"\|"tcp-any"' "$BATS_TEST_TMPDIR/with"
}

@test "extended resources: a name per node does not multiply memory by nodes x pods" {
    case "$KP" in *asan*) skip "an address-space limit does not suit ASan" ;; esac
    # 2,000 nodes, 30 pods each, each node its own resource name: the
    # dense arrays of every resource took about 1 GB here; the resources
    # no pending pod requests are kept sparse (about 75 MB)
    python3 "$GROW" extres 2000 30 1 > "$BATS_TEST_TMPDIR/x.json"
    run prlimit --as=$((500 << 20)) "$KP" -f "$BATS_TEST_TMPDIR/x.json"
    assert_success
    assert_line --regexp '^default +pending-0 +1000 +Preempts +n0 '
    assert_line --regexp '^default +pending-2 +1000 +Preempts +n14 '
}

@test "extended resources: KP_NO_SPARSE_RESOURCES=1 gives the same report" {
    python3 "$GROW" extres 60 12 1 > "$BATS_TEST_TMPDIR/x.json"
    "$KP" -f "$BATS_TEST_TMPDIR/x.json" -o json --explain-nodes \
        > "$BATS_TEST_TMPDIR/with"
    KP_NO_SPARSE_RESOURCES=1 "$KP" -f "$BATS_TEST_TMPDIR/x.json" -o json \
        --explain-nodes > "$BATS_TEST_TMPDIR/without"
    cmp "$BATS_TEST_TMPDIR/with" "$BATS_TEST_TMPDIR/without"
    grep -q '"Preempts"\|Preempts' "$BATS_TEST_TMPDIR/with"
}

@test "every shortcut off (KP_NO_*): the same reports over generated clusters" {
    local shape f mode
    for shape in default affinity nominated pdb; do
        bench_cluster "$BATS_TEST_TMPDIR/$shape.json" 80 1600 100 40 \
            --shape "$shape"
    done
    python3 "$GROW" taints 40 > "$BATS_TEST_TMPDIR/taints.json"
    python3 "$GROW" ports 400 3 > "$BATS_TEST_TMPDIR/ports.json"
    python3 "$GROW" extres 30 6 1 > "$BATS_TEST_TMPDIR/extres.json"
    for f in "$BATS_TEST_TMPDIR"/*.json; do
        for mode in queue independent; do
            "$KP" -f "$f" -o json --explain-nodes --mode "$mode" \
                > "$BATS_TEST_TMPDIR/with"
            KP_NO_TOLERATION_INDEX=1 KP_NO_PORT_HASH=1 \
                KP_NO_SPARSE_RESOURCES=1 KP_NO_LAZY_TABLES=1 \
                KP_NO_PDB_INDEX=1 KP_NO_NOMINATED_COPY=1 \
                KP_NO_NODE_TEMPLATE=1 KP_NO_SELCOUNT=1 \
                KP_NO_FIX_PREFIX=1 KP_NO_LABEL_INDEX=1 KP_NO_NONZERO_SUM=1 \
                KP_NO_SCORE_PASS=1 KP_NO_NOMINATED_SUM=1 KP_NO_DIAG_TERMS=1 \
                KP_NO_ASCII_SKIP=1 KP_NO_IPA_MEMO=1 KP_NO_FIX_RELOAD_SKIP=1 \
                KP_NO_DEFERRED_HOOKS=1 KP_NO_DRY_RUN_CUT=1 KP_NO_FIT_SUMS=1 \
                KP_NO_DIAG_AHEAD=1 KP_NO_TABLE_ONCE=1 KP_NO_KEEP_PARALLEL=1 \
                KP_NO_TABLE_HOOKS=1 KP_NO_PARALLEL_RENDER=1 \
                KP_NO_LARGEST_ALLOC=1 KP_NO_DIAG_PARALLEL=1 \
                KP_NO_TERM_PREFILL=1 KP_NO_TERM_DOMAINS=1 \
                KP_NO_LABEL_HASH=1 KP_NO_TERM_INDEX=1 KP_NO_TERM_MEMO=1 \
                KP_NO_STATE_COW=1 KP_NO_NS_HASH=1 \
                KP_NO_HIST_FROM_GROUPS=1 KP_NO_RES_COLUMN=1 \
                KP_NO_TAINT_MASK=1 KP_NO_ALONE_COPY=1 "$KP" -f "$f" \
                -o json --explain-nodes --mode "$mode" > "$BATS_TEST_TMPDIR/without"
            cmp "$BATS_TEST_TMPDIR/with" "$BATS_TEST_TMPDIR/without" ||
                fail "$(basename "$f") --mode $mode differs"
        done
    done
}

@test "kept across pods (issue 31): KP_NO_SELCOUNT=1, KP_NO_LABEL_INDEX=1, KP_NO_NONZERO_SUM=1, KP_NO_SCORE_PASS=1, KP_NO_NOMINATED_SUM=1, KP_NO_DIAG_TERMS=1, KP_NO_IPA_MEMO=1, KP_NO_TERM_PREFILL=1, KP_NO_TERM_DOMAINS=1, KP_NO_LABEL_HASH=1, KP_NO_TERM_INDEX=1 and KP_NO_TERM_MEMO=1 give the same reports" {
    # selcount.h: matching-pod counts per node and selector, kept while
    # the node's pods do not change (spread, InterPodAffinity, and the
    # diagnosis's affinity terms); label_index.h: a new
    # selector's counts on every node at once, from the pods carrying the
    # label its narrowest requirement needs, each on the node
    # kp_cluster.node_of says (the queue places and preempts pods between
    # the pods that make new selectors, so a pod counted on a node it no
    # longer is on shows here); NodeInfo.NonZeroRequested kept as a sum
    # by the cluster's NodeInfos (node_info.c), which LeastAllocated reads
    # for the pods placed after a preemption took some away; the Score
    # plugins run in one pass over the nodes after every PreScore
    # (score.c) rather than each whole in turn; the diagnosis's free
    # resources from the nominated pods' kept sums, and its node affinity
    # term counts kept for the pods with the same terms; InterPodAffinity
    # PreScore's matches of the existing pods' terms kept for the next
    # pods of the same namespace and labels; a new term's remembered
    # matches filled from the label index's lists (selcount.c); the
    # existing pods' required anti-affinity terms summed per topology
    # domain as the queue places and removes pods (term_domains.h), and
    # the terms PreScore reads of them likewise; the
    # hash of each node label's (key, value) pair kept from when it was
    # read, which the topology counters take (tpcount.h); those terms
    # listed by the values their selectors require, so that a pod is
    # matched only against the terms its labels may match; and each
    # interned term's id found again by its address when a node's victim
    # table is built again
    local shape f mode sw t
    for shape in default affinity fits nominated pdb; do
        bench_cluster "$BATS_TEST_TMPDIR/$shape.json" 60 1500 90 30 \
            --shape "$shape"
    done
    for f in "$BATS_TEST_TMPDIR"/*.json; do
        for mode in queue independent; do
            for t in 1 2; do
                KUBECTL_PREEMPT_PARALLELISM=$t "$KP" -f "$f" -o json \
                    --mode "$mode" > "$BATS_TEST_TMPDIR/with"
                for sw in KP_NO_SELCOUNT KP_NO_LABEL_INDEX \
                          KP_NO_NONZERO_SUM KP_NO_SCORE_PASS \
                          KP_NO_NOMINATED_SUM KP_NO_DIAG_TERMS KP_NO_IPA_MEMO \
                          KP_NO_TERM_PREFILL KP_NO_TERM_DOMAINS \
                          KP_NO_LABEL_HASH KP_NO_TERM_INDEX \
                          KP_NO_TERM_MEMO; do
                    env "$sw=1" KUBECTL_PREEMPT_PARALLELISM=$t "$KP" -f "$f" \
                        -o json --mode "$mode" > "$BATS_TEST_TMPDIR/without"
                    cmp "$BATS_TEST_TMPDIR/with" \
                        "$BATS_TEST_TMPDIR/without" ||
                        fail "$(basename "$f") --mode $mode, $t thread(s): differs with $sw"
                done
            done
        done
    done
}

@test "deferred hooks (issue 31): KP_NO_DEFERRED_HOOKS=1 gives the same reports and node statuses" {
    # default_preemption.c, first_check_deferred: SelectVictimsOnNode's
    # first check runs the RemovePod (and nominated AddPod) hooks only
    # once the Filter plugins before the first plugin with a hook pass;
    # --explain-nodes shows each potential node's status, which is where
    # a check answered with stale InterPodAffinity or PodTopologySpread
    # state would show.  The nominated shape gives the nominated copy.
    local shape f
    for shape in affinity nominated pdb; do
        bench_cluster "$BATS_TEST_TMPDIR/$shape.json" 60 1500 90 30 \
            --shape "$shape"
    done
    for f in "$BATS_TEST_TMPDIR"/*.json; do
        same_without KP_NO_DEFERRED_HOOKS "$f" --explain-nodes
    done
}

@test "fit sums (issue 31): KP_NO_FIT_SUMS=1 gives the same reports and node statuses" {
    # default_preemption.c, empty_on_sums: when NodeResourcesFit is
    # the only Filter plugin that runs on a potential node, its
    # SelectVictimsOnNode works on the node's requested row less the
    # victims' tail row (plus the nominated pods' rows) instead of on a
    # copy of its pods; --explain-nodes shows every potential node's
    # status, and 1 and 2 threads, both modes, are compared.  extres:
    # extended resources; ports: NodePorts runs too (the general path).
    local shape f
    for shape in default fits nominated pdb; do
        bench_cluster "$BATS_TEST_TMPDIR/$shape.json" 60 1500 90 30 \
            --shape "$shape"
    done
    python3 "$GROW" extres 30 6 1 > "$BATS_TEST_TMPDIR/extres.json"
    python3 "$GROW" ports 300 3 > "$BATS_TEST_TMPDIR/ports.json"
    for f in "$BATS_TEST_TMPDIR"/*.json; do
        same_without KP_NO_FIT_SUMS "$f" --explain-nodes
    done
    "$KP" -f "$BATS_TEST_TMPDIR/pdb.json" -o json | grep -q '"Preempts"'
}

@test "diagnosis ahead, tables once, candidates kept in parallel, largest allocatable kept (issue 31): KP_NO_DIAG_AHEAD=1, KP_NO_TABLE_ONCE=1, KP_NO_KEEP_PARALLEL=1 and KP_NO_LARGEST_ALLOC=1 give the same reports and diagnoses" {
    # simulate.c, attempt_pod: the FitError's histogram and the part of
    # the diagnosis that reads only the statuses and the nodes (the
    # groups of reasons, NodeResourcesFit's and TaintToleration's
    # figures) are made by the calling thread while the others start
    # the dry run; cluster_state.c, kp_cluster_remove_all: a preemption's
    # victims leave their node before its victim table is rebuilt, once;
    # simulate.c, keep_candidates: the candidates' victims are copied into
    # the report on the pool's threads; diagnosis.c, largest_alloc: each
    # resource's largest allocatable (first node of ties) kept.
    # Both modes, 1 and 2 threads (the diagnosis is made ahead on 2),
    # -o json (which diagnoses) and -o describe (its text).
    local f t
    diag_inputs 60 1500 90 30 30
    for f in "$BATS_TEST_TMPDIR"/*.json; do
        same_without KP_NO_DIAG_AHEAD "$f"
        same_without KP_NO_TABLE_ONCE "$f"
        same_without KP_NO_KEEP_PARALLEL "$f"
        same_without KP_NO_LARGEST_ALLOC "$f"
        for t in 1 2; do
            KUBECTL_PREEMPT_PARALLELISM=$t "$KP" -f "$f" -o describe \
                > "$BATS_TEST_TMPDIR/with.txt"
            KP_NO_DIAG_AHEAD=1 KUBECTL_PREEMPT_PARALLELISM=$t "$KP" -f "$f" \
                -o describe > "$BATS_TEST_TMPDIR/without.txt"
            cmp "$BATS_TEST_TMPDIR/with.txt" "$BATS_TEST_TMPDIR/without.txt" ||
                fail "$(basename "$f") -o describe, $t thread(s): differs"
        done
    done
    # what is compared has diagnoses with figures made ahead
    "$KP" -f "$BATS_TEST_TMPDIR/default.json" -o json > "$BATS_TEST_TMPDIR/r"
    grep -q '"largestAllocatable"' "$BATS_TEST_TMPDIR/r"
    grep -q '"Preempts"' "$BATS_TEST_TMPDIR/r"
    grep -q '"taints": \[{' "$BATS_TEST_TMPDIR/r"
}

@test "parallel render (issue 31): KP_NO_PARALLEL_RENDER=1 gives the same -o json, -o yaml, --explain-nodes and what-if reports" {
    # render.c, json_pods_parallel: the pods' objects are rendered on the
    # pool's threads, a window of 256 at a time, each into a buffer of
    # its own, and written out in order (a megabyte or more straight to
    # stdout, buf.h kp_buf_add_buf).  700 pending pods: three windows,
    # the last one short; -o yaml renders the JSON into memory first.
    local f="$BATS_TEST_TMPDIR/default.json" t node
    bench_cluster "$f" 40 3000 700 30 --shape default
    node=$(jq -r '[.items[] | select(.kind == "Node")][3].metadata.name' "$f")
    same_without KP_NO_PARALLEL_RENDER "$f"
    same_without KP_NO_PARALLEL_RENDER "$f" --explain-nodes
    for t in 1 2; do
        KUBECTL_PREEMPT_PARALLELISM=$t "$KP" -f "$f" -o yaml \
            --cordon "$node" > "$BATS_TEST_TMPDIR/with.yaml"
        KP_NO_PARALLEL_RENDER=1 KUBECTL_PREEMPT_PARALLELISM=$t "$KP" \
            -f "$f" -o yaml --cordon "$node" > "$BATS_TEST_TMPDIR/without.yaml"
        cmp "$BATS_TEST_TMPDIR/with.yaml" "$BATS_TEST_TMPDIR/without.yaml" ||
            fail "-o yaml --cordon, $t thread(s): differs"
    done
    # more pods than one window, and a what-if that changed something
    [ "$(jq '.pods | length' "$BATS_TEST_TMPDIR/with")" -gt 512 ]
    grep -q '"Preempts"' "$BATS_TEST_TMPDIR/with"
    grep -q 'change: worse' "$BATS_TEST_TMPDIR/with.yaml"
}

@test "diagnosis on the pool (issue 31): KP_NO_DIAG_PARALLEL=1 gives the same reports and diagnoses on 600 nodes" {
    # diagnosis.c, make_filters: with no dry run under way (NotEligible
    # pods, or none found) the groups of reasons, the nodes' masks and
    # NodeResourcesFit's walk over the nodes run by chunks of 256 nodes
    # on the pool's threads, merged in node order.  600 nodes: three
    # chunks, the last one short.  diagnosis_detail.c, pdbBlocks: the
    # candidates by chunks of 16 on the pool's threads, the PDBs they
    # exceed written in candidate order.
    local shape f t
    for shape in nominated default pdb; do
        bench_cluster "$BATS_TEST_TMPDIR/$shape.json" 600 4000 150 40 \
            --shape "$shape"
    done
    python3 "$GROW" extres 600 6 1 > "$BATS_TEST_TMPDIR/extres.json"
    for f in "$BATS_TEST_TMPDIR"/*.json; do
        same_without KP_NO_DIAG_PARALLEL "$f"
        for t in 1 2; do
            KUBECTL_PREEMPT_PARALLELISM=$t "$KP" -f "$f" -o describe \
                > "$BATS_TEST_TMPDIR/with.txt"
            KP_NO_DIAG_PARALLEL=1 KUBECTL_PREEMPT_PARALLELISM=$t "$KP" \
                -f "$f" -o describe > "$BATS_TEST_TMPDIR/without.txt"
            cmp "$BATS_TEST_TMPDIR/with.txt" "$BATS_TEST_TMPDIR/without.txt" ||
                fail "$(basename "$f") -o describe, $t thread(s): differs"
        done
    done
    # NotEligible pods (no dry run) with diagnoses that have figures
    "$KP" -f "$BATS_TEST_TMPDIR/nominated.json" -o json > "$BATS_TEST_TMPDIR/r"
    [ "$(jq '[.pods[] | select(.result == "NotEligible" and
              .diagnosis.requests != null)] | length' "$BATS_TEST_TMPDIR/r")" -gt 0 ]
    # pdbBlocks past the first chunk of candidates (more than 16 of them)
    "$KP" -f "$BATS_TEST_TMPDIR/pdb.json" -o json > "$BATS_TEST_TMPDIR/p"
    [ "$(jq '[.pods[] | .diagnosis.preemption.pdbBlockCount // 0] | max' \
         "$BATS_TEST_TMPDIR/p")" -gt 16 ]
    grep -q '"largestAllocatable"' "$BATS_TEST_TMPDIR/r"
}

@test "table hooks (issue 31): PodTopologySpread's RemovePod of the victims, read from the table, changes no answer" {
    # podtopologyspread/filtering.c, remove_table_pods: the first check's
    # RemovePod of every lower-priority pod is counted per constraint
    # from the node's victim table (each pod's namespace, then its
    # labels) and taken off the node's domain once.  200 nodes of the
    # affinity shape: Deployment pods with DoNotSchedule spread whose
    # victims share their namespace; queue mode at 1 thread finds a
    # different candidate when the namespaces are read in the wrong order.
    bench_cluster "$BATS_TEST_TMPDIR/a.json" 200 6000 400 200 --shape affinity
    same_without KP_NO_TABLE_HOOKS "$BATS_TEST_TMPDIR/a.json"
    "$KP" -f "$BATS_TEST_TMPDIR/a.json" -o json > "$BATS_TEST_TMPDIR/r"
    [ "$(jq '[.pods[] | select(.result == "Preempts")] | length' \
         "$BATS_TEST_TMPDIR/r")" -gt 50 ]
}

@test "table hooks (issue 31): KP_NO_TABLE_HOOKS=1 gives the same reports and node statuses" {
    # cycle_state.c, table_pod_hooks: InterPodAffinity's AddPod/RemovePod
    # of a victim read the node's victim table (each pod's snapshot index,
    # its required anti-affinity terms as interned, matched once per
    # cycle) instead of the pod.  The affinity shape (required
    # anti-affinity, victims of the same workloads) and pdb (existing
    # pods' anti-affinity only), both modes, 1 and 2 threads,
    # --explain-nodes (every potential node's status).
    local shape f
    for shape in affinity pdb default; do
        bench_cluster "$BATS_TEST_TMPDIR/$shape.json" 60 1500 90 30 \
            --shape "$shape"
    done
    for f in "$BATS_TEST_TMPDIR"/*.json; do
        same_without KP_NO_TABLE_HOOKS "$f" --explain-nodes
    done
    "$KP" -f "$BATS_TEST_TMPDIR/affinity.json" -o json > "$BATS_TEST_TMPDIR/r"
    grep -q '"Preempts"' "$BATS_TEST_TMPDIR/r"
}

@test "copy on write (issue 31): KP_NO_STATE_COW=1 gives the same reports and node statuses" {
    # cycle_state.c, kp_cycle_clone_shared: the Filter pass's copy of a
    # node with nominated pods (nominated_copy.c) shares the pod's
    # InterPodAffinity and PodTopologySpread states until a nominated
    # pod's AddPod changes them (kp_cycle_own_state); a hook that wrote
    # into the shared state would change the pod's answers on the nodes
    # filtered after it.  The affinity shape nominates the pods that
    # preempt, of the same workloads as the pods queued after them;
    # nominated starts with nominations; both modes, 1 and 2 threads.
    local shape f
    bench_cluster "$BATS_TEST_TMPDIR/affinity.json" 200 6000 400 200 \
        --shape affinity
    bench_cluster "$BATS_TEST_TMPDIR/nominated.json" 60 1500 90 30 \
        --shape nominated
    for f in "$BATS_TEST_TMPDIR"/*.json; do
        same_without KP_NO_STATE_COW "$f" --explain-nodes
    done
    "$KP" -f "$BATS_TEST_TMPDIR/affinity.json" -o json > "$BATS_TEST_TMPDIR/r"
    [ "$(jq '[.pods[] | select(.nominatedNode != null)] | length' \
         "$BATS_TEST_TMPDIR/r")" -gt 50 ]
}

@test "namespace hashes (issue 31): KP_NO_NS_HASH=1 gives the same reports and node statuses" {
    # victim_table.c: each table keeps its pods' namespaces hashed
    # (kp_ns_hash), and PodTopologySpread's hooks read from the table
    # (filtering.c, table_same_ns) and the spread counts recounted on a
    # node (selcount.c, kp_selcount_recount) pass over a pod of another
    # namespace on its hash before comparing the names.  The affinity
    # shape spreads Deployment pods of many namespaces over the same
    # nodes; the two upstream rows whose preemption resolves a spread
    # failure (tests/cases/podtopologyspread) take the victims' RemovePod
    # from the table in queue mode, where a victim of the pod's own
    # namespace passed over on its hash leaves the node failing.
    local row
    bench_cluster "$BATS_TEST_TMPDIR/a.json" 200 6000 400 200 --shape affinity
    same_without KP_NO_NS_HASH "$BATS_TEST_TMPDIR/a.json" --explain-nodes
    for row in preemption_for_topology_spread_constraints \
               preemption_to_resolve_pod_topology_spread_filter_failure; do
        jq '.snapshot' "$BATS_TEST_DIRNAME/../cases/podtopologyspread/$row.json" \
            > "$BATS_TEST_TMPDIR/$row.json"
        same_without KP_NO_NS_HASH "$BATS_TEST_TMPDIR/$row.json" \
            --explain-nodes
    done
}

@test "FitError histogram from the diagnosis's groups (issue 31): KP_NO_HIST_FROM_GROUPS=1 gives the same messages and reports" {
    # simulate.c, ahead_on: when the pod's diagnosis is made (-o json,
    # yaml, describe), the FitError's "0/N nodes are available: ..." is
    # summed from the diagnosis's groups of reasons (one per plugin and
    # reason, counted over the nodes' statuses) instead of a second walk
    # over the statuses.  Reasons of several plugins, nodes with several
    # reasons (NodeResourcesFit's one per resource) and untolerated
    # taints; 300 nodes take the groups' chunks on the pool too.
    same_diagnoses_without KP_NO_HIST_FROM_GROUPS
    # messages that sum reasons of several plugins, taints among them
    [ "$(jq '[.pods[] | select(.message // "" | test("nodes are available: [0-9]+ .*, [0-9]+ .*untolerated taint"))] | length' \
         "$BATS_TEST_TMPDIR/r")" -gt 0 ]
}

@test "resource rows (issue 31): KP_NO_RES_COLUMN=1 gives the same NodeResourcesFit diagnoses" {
    # diagnosis.c, resource_scan: a resource's allocatable and requested
    # sum on every node are read down the cluster's res_block rows, with
    # the nominated pods' kept sums where they all count, instead of
    # through each NodeInfo.  Nominated pods (some of a lower priority),
    # a resource kept sparse (extended resources no pending pod asks
    # for: the NodeInfo path), 300 nodes so that the chunks run on the
    # pool; -o describe prints the same figures as text.
    same_diagnoses_without KP_NO_RES_COLUMN
    # what is compared has figures of pods that lack resources
    [ "$(jq '[.. | objects | select(has("mostFree"))] | length' \
         "$BATS_TEST_TMPDIR/r")" -gt 0 ]
}

@test "TaintToleration's walk by masks, once per pod (issue 31): KP_NO_TAINT_MASK=1 gives the same diagnoses" {
    # diagnosis.c, taint_scan: the nodes whose status is
    # TaintToleration's are found by their masks' bits (the plugin's
    # groups) instead of by reading every node's status, and one walk
    # serves each of the plugin's groups (before v1.34 a group per
    # untolerated taint: gpu, spot and edge here).  600 nodes: the walk
    # by chunks on the pool too; v1.33 and the default version.
    local v t
    python3 "$GROW" taintmix 600 > "$BATS_TEST_TMPDIR/mix.json"
    same_without KP_NO_TAINT_MASK "$BATS_TEST_TMPDIR/mix.json"
    same_without KP_NO_TAINT_MASK "$BATS_TEST_TMPDIR/mix.json" \
        --kube-version 1.33
    for v in 1.33 1.35; do
        for t in 1 2; do
            KUBECTL_PREEMPT_PARALLELISM=$t "$KP" -f "$BATS_TEST_TMPDIR/mix.json" \
                --kube-version $v -o describe > "$BATS_TEST_TMPDIR/with.txt"
            KP_NO_TAINT_MASK=1 KUBECTL_PREEMPT_PARALLELISM=$t "$KP" \
                -f "$BATS_TEST_TMPDIR/mix.json" --kube-version $v \
                -o describe > "$BATS_TEST_TMPDIR/without.txt"
            cmp "$BATS_TEST_TMPDIR/with.txt" "$BATS_TEST_TMPDIR/without.txt" ||
                fail "v$v -o describe, $t thread(s): differs"
        done
    done
    # several TaintToleration groups, each with the taints of every
    # node the plugin turned down
    "$KP" -f "$BATS_TEST_TMPDIR/mix.json" --kube-version 1.33 -o json \
        > "$BATS_TEST_TMPDIR/r"
    grep -q 'untolerated taint {edge: zone-a}, 150 node(s) had untolerated taint {gpu: present}' \
        "$BATS_TEST_TMPDIR/r"
    [ "$(jq '[.. | objects | select(has("taints")) | select(.taints | length == 3)] | length' \
         "$BATS_TEST_TMPDIR/r")" -gt 1 ]
}

@test "dry run cut (issue 31): KP_NO_DRY_RUN_CUT=1 gives the same reports when PDB-violating candidates are dropped" {
    # default_preemption.c, select_victims: once DryRunPreemption has as
    # many PDB-violating candidates as it keeps, the reprieve loop of a
    # later node stops at its first PDB-violating victim (the candidate
    # is dropped unread); with one candidate of each kind kept, most
    # nodes of the pdb shape are such.  Only on one thread (on several,
    # the nodes done are not those before in the walk): two threads are
    # run too, and must not differ either.
    local f mode t
    bench_cluster "$BATS_TEST_TMPDIR/pdb.json" 60 1500 90 30 --shape pdb
    bench_cluster "$BATS_TEST_TMPDIR/nominated.json" 60 1500 90 30 \
        --shape nominated
    for f in "$BATS_TEST_TMPDIR"/*.json; do
        same_without KP_NO_DRY_RUN_CUT "$f" --min-candidate-nodes-absolute 1 \
            --min-candidate-nodes-percentage 1
    done
    # the candidates kept are there, PDB-violating ones among them
    grep -q '"violatesPDB": true' "$BATS_TEST_TMPDIR/with"
}

@test "fixes' re-runs (issue 31): KP_NO_LAZY_TABLES=1, KP_NO_NODE_TEMPLATE=1, KP_NO_FIX_PREFIX=1 and KP_NO_FIX_RELOAD_SKIP=1 give the same fixes and reports" {
    # The fixes' re-runs (fixes.c) and a run of one pending pod in
    # independent mode build no victim table up front (simulate.c,
    # tables_wanted): the passes read the nodes' pods instead; the
    # re-runs copy their NodeInfos from one cluster made once
    # (kp_cluster_init_from).
    local shape f mode sw fixes=0
    for shape in default affinity fits nominated pdb; do
        bench_cluster "$BATS_TEST_TMPDIR/$shape.json" 60 1200 60 30 \
            --shape "$shape"
    done
    bench_cluster "$BATS_TEST_TMPDIR/one.json" 60 1200 1 30 --shape affinity
    for f in "$BATS_TEST_TMPDIR"/*.json; do
        for mode in queue independent; do
            "$KP" -f "$f" -o json --mode "$mode" > "$BATS_TEST_TMPDIR/with"
            for sw in KP_NO_LAZY_TABLES KP_NO_NODE_TEMPLATE KP_NO_FIX_PREFIX \
                KP_NO_FIX_RELOAD_SKIP; do
                env "$sw=1" "$KP" -f "$f" -o json --mode "$mode" \
                    > "$BATS_TEST_TMPDIR/without"
                cmp "$BATS_TEST_TMPDIR/with" "$BATS_TEST_TMPDIR/without" ||
                    fail "$(basename "$f") --mode $mode differs with $sw"
            done
            fixes=$((fixes + $(jq '[.pods[].fixes // [] | length] | add // 0' \
                "$BATS_TEST_TMPDIR/with")))
        done
    done
    # the re-runs had something to find: verified fixes in the reports
    [ "$fixes" -gt 0 ] || fail "no fix verified"
}

@test "add-node fix without reloading (issue 31): KP_NO_FIX_RELOAD_SKIP=1 gives the same reports from JSON, YAML, a directory, several -f and --add" {
    # fix_add_node.c re-runs with --add-node N on the run's own snapshot,
    # N's copy and its DaemonSet pods appended, then puts it back
    # (snapshot_save.h); the switch reads the -f files again instead.
    # The fits shape at this size has pods no node has room for: the
    # fix is tried, and found, for every way of giving the input.
    need jq
    local d="$BATS_TEST_TMPDIR" mode o n args
    bench_cluster "$d/c.json" 200 6000 400 100 --shape fits
    python3 - "$d" <<'PY'
import json, os, sys
d = sys.argv[1]
items = json.load(open(d + "/c.json"))["items"]
def pending(i):
    return i["kind"] == "Pod" and not i["spec"].get("nodeName")
def write(path, xs):
    json.dump({"apiVersion": "v1", "kind": "List", "items": xs},
              open(path, "w"))
os.mkdir(d + "/dir")
write(d + "/dir/a-rest.json", [i for i in items if not pending(i)])
write(d + "/pending.json", [i for i in items if pending(i)])
write(d + "/first.json", [i for i in items if pending(i)][:-40])
write(d + "/added.json", [i for i in items if pending(i)][-40:])
PY
    python3 "$ROOT/tests/helpers/json2yaml.py" "$d/c.json" > "$d/c.yaml"
    python3 "$ROOT/tests/helpers/json2yaml.py" "$d/pending.json" \
        > "$d/dir/b-pending.yaml"
    for args in "-f $d/c.json" "-f $d/c.yaml" "-f $d/dir" \
        "-f $d/dir/a-rest.json -f $d/dir/b-pending.yaml" \
        "-f $d/dir/a-rest.json -f $d/first.json --add $d/added.json"; do
        n=0
        for mode in queue independent; do
            for o in json describe; do
                # shellcheck disable=SC2086
                "$KP" $args -o "$o" --mode "$mode" > "$d/with" 2>&1
                # shellcheck disable=SC2086
                KP_NO_FIX_RELOAD_SKIP=1 "$KP" $args -o "$o" --mode "$mode" \
                    > "$d/without" 2>&1
                cmp "$d/with" "$d/without" ||
                    fail "$args --mode $mode -o $o differs"
                [ "$o" = json ] || continue
                n=$((n + $(jq '[.pods[].fixes // [] | .[] |
                    select(.change == "addNode")] | length' "$d/with")))
            done
        done
        [ "$n" -gt 0 ] || fail "$args: no add-node fix found"
    done
}

@test "kept nominated copies: KP_NO_NOMINATED_COPY=1 and KP_NO_ALONE_COPY=1 give the same reports" {
    # RunFilterPluginsWithNominatedPods' copy of a node with its nominated
    # pods is kept per node while the node, its nominated pods and the set
    # a pod adds stay the same (nominated_copy.c, run_with_kept_copy); a
    # cycle that runs alone reads it without the busy flag (copy_locks).
    # 300 nodes: the Filter pass runs on the pool's threads in chunks.
    bench_cluster "$BATS_TEST_TMPDIR/nom.json" 80 1600 160 40 \
        --shape nominated
    bench_cluster "$BATS_TEST_TMPDIR/nom300.json" 300 3000 120 40 \
        --shape nominated
    for f in nom nom300; do
        same_without KP_NO_NOMINATED_COPY "$BATS_TEST_TMPDIR/$f.json"
        same_without KP_NO_ALONE_COPY "$BATS_TEST_TMPDIR/$f.json"
    done
}

@test "PDB index (issue 31): KP_NO_PDB_INDEX=1 gives the same victims and PDB violations" {
    # filterPodsWithPDBViolation counts budgets by the node's own PDB
    # numbers (pdb_index.h); the switch counts them in a table per call
    local f mode t
    bench_cluster "$BATS_TEST_TMPDIR/pdb.json" 80 1600 120 40 --shape pdb
    bench_cluster "$BATS_TEST_TMPDIR/nom.json" 80 1600 120 40 \
        --shape nominated
    for f in "$BATS_TEST_TMPDIR"/*.json; do
        same_without KP_NO_PDB_INDEX "$f"
    done
    # the split mattered: preemptions that violate a budget and some that do not
    run jq '[.pods[] | select(.result == "Preempts") | .pdbViolations // 0 | if . > 0 then "v" else "ok" end] | unique | join(",")' \
        "$BATS_TEST_TMPDIR/with"
    assert_output '"ok,v"'
}

@test "YAML: a List is read item by item, not as one tree" {
    case "$KP" in *asan*) skip "an address-space limit does not suit ASan" ;; esac
    # 43 MB of `kubectl get -o yaml`: read as one tree it took 263 MB,
    # item by item 58 MB
    bench_cluster "$BATS_TEST_TMPDIR/m.json" 150 4500 300 150
    python3 "$ROOT/bench/list2yaml.py" "$BATS_TEST_TMPDIR/m.json" \
        "$BATS_TEST_TMPDIR/m.yaml"
    "$KP" -f "$BATS_TEST_TMPDIR/m.json" -o json > "$BATS_TEST_TMPDIR/want"
    # peak RSS (not an address-space limit: glibc's per-thread malloc
    # arenas reserve 64 MB each when threads contend, so the address
    # space used moves run to run by more than the margin)
    run python3 -c '
import resource, subprocess, sys
with open(sys.argv[1], "wb") as out:
    r = subprocess.run(sys.argv[2:], stdout=out)
print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)
' "$BATS_TEST_TMPDIR/got" "$KP" -f "$BATS_TEST_TMPDIR/m.yaml" -o json
    assert_success
    local rc mb
    read -r rc mb <<<"$output"
    [ "$rc" = 0 ] || fail "exit $rc"
    [ "$mb" -lt 160 ] || fail "peak RSS $mb MB, want under 160 (as one tree: about 300)"
    cmp "$BATS_TEST_TMPDIR/got" "$BATS_TEST_TMPDIR/want"
}

@test "YAML: KP_NO_YAML_STREAM=1 gives the same reports, warnings and errors" {
    local f y want got n=0
    y="$BATS_TEST_TMPDIR/t.yaml"
    for f in "$ROOT"/tests/bad/*.json "$ROOT"/tests/ok-with-warnings/*.json \
             "$ROOT"/examples/cluster.json; do
        # as document 2 after a good List (some bad inputs are not JSON
        # at all: not for this test)
        python3 "$ROOT/tests/helpers/json2yaml.py" \
            "$ROOT/examples/cluster.json" "$f" > "$y" 2>/dev/null || continue
        got=$("$KP" -f "$y" -o json 2>&1; echo "exit $?")
        want=$(KP_NO_YAML_STREAM=1 "$KP" -f "$y" -o json 2>&1; echo "exit $?")
        [ "$got" = "$want" ] || fail "$(basename "$f"): $got"
        n=$((n + 1))
    done
    [ "$n" -gt 50 ]
    # a duplicate key inside an item, a syntax error in a later document
    printf 'apiVersion: v1\nitems:\n- kind: Node\n  metadata: {name: x, name: y}\nkind: List\n' > "$y"
    run -1 "$KP" -f "$y"
    assert_output "error: $y: line 4, column 23: duplicate key 'name'"
    printf 'kind: List\nitems:\n- kind: Pod\n  metadata: {name: a}\n  spec: {containers: [{name: c, resources: {requests: {cpu: 1.5.0}}}]}\n---\nfoo: [\n' > "$y"
    run -1 "$KP" -f "$y"
    assert_output --partial "error: $y: invalid YAML at line 8, column 1"
}
