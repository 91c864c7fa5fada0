#!/usr/bin/env bats
# completion_kubectl.bats - issue 29: what a kubectl user TABs for.  With
# -f files typed, -n completes their namespaces and --drain, --cordon,
# --remove-node, --add-node their nodes (without -f, kubectl get nodes);
# --kube-version its releases; -o=j the formats; explain -f FILE the pods
# of its preemptions.  Each in the bash script and in
# kubectl_complete-preempt (kubectl preempt <TAB>); make demo builds the
# latter.  A fake kubectl answers for the cluster.
#
# KP_BIN overrides the binary under test (default build/kubectl-preempt).

load '../helpers/common'

KP="$(cd "$(dirname "$KP")" && pwd)/$(basename "$KP")"
COMP="$ROOT/completions"
CLUSTER="$ROOT/examples/cluster.json"
INCIDENT="$ROOT/examples/incident.json"

setup() {
    BIN="$BATS_TEST_TMPDIR/bin"
    mkdir -p "$BIN"
    ln -sf "$KP" "$BIN/kubectl-preempt"
    cat >"$BIN/kubectl" <<'KEOF'
#!/bin/sh
case "$*" in
*"get nodes"*) printf 'live-1\nlive-2\n' ;;
*"get namespaces"*) printf 'default\nlive-ns\n' ;;
esac
KEOF
    chmod +x "$BIN/kubectl"
    export PATH="$BIN:$PATH"
    cd "$ROOT"
}

# bash_complete LINE: the bash script's candidates, one per line
bash_complete() {
    bash -c 'source "$2" || exit 1
        COMP_LINE=$1
        COMP_POINT=${#1}
        read -ra COMP_WORDS <<<"$1"
        [[ $1 == *" " ]] && COMP_WORDS+=("")
        COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
        _kubectl_preempt
        printf "%s\n" "${COMPREPLY[@]}"' _ "$1" "$COMP/kubectl-preempt.bash"
}

# plugin WORD...: what kubectl_complete-preempt answers, directive dropped
plugin() {
    sh "$COMP/kubectl_complete-preempt" "$@" | grep -v '^:'
}

@test "-n with -f: the files' namespaces; without -f: kubectl's" {
    run bash_complete "kubectl-preempt -f $CLUSTER -n "
    assert_output $'batch\nprod\nkube-system\nml'
    run plugin -f "$CLUSTER" -n p
    assert_output 'prod'
    run bash_complete "kubectl-preempt -n "
    assert_output $'default\nlive-ns'
}

@test "--drain, --cordon, --remove-node, --add-node: node names" {
    local f
    for f in --drain --cordon --remove-node --add-node; do
        run bash_complete "kubectl-preempt -f $CLUSTER $f node-"
        assert_output $'node-a\nnode-b\nnode-c'
        run plugin -f "$CLUSTER" "$f" g
        assert_output 'gpu-1'
    done
    run bash_complete "kubectl-preempt --drain=node-"
    assert_output ''
    run bash_complete "kubectl-preempt --drain "
    assert_output $'live-1\nlive-2'
}

@test "--kube-version: the releases replayed" {
    run bash_complete "kubectl-preempt --kube-version 1.3"
    assert_output "$(printf '1.%s\n' 31 32 33 34 35 36 37 38)"
    run plugin --kube-version 1.38
    assert_output '1.38'
}

@test "-o=j: the formats after a shorthand's =" {
    run bash_complete "kubectl-preempt -o=j"
    assert_output $'json\njsonpath=\njsonpath-file='
    run plugin -o=w
    assert_output 'wide'
    # a value written -o=json earlier is read as json
    run plugin -o=json -f "$CLUSTER" -n m
    assert_output 'ml'
}

@test "explain -f FILE: the victims and preemptors of its preemptions" {
    run bash_complete "kubectl-preempt explain -f $INCIDENT "
    assert_output $'batch/etl-worker-2\nprod/search-0\nbatch/etl-worker-0\nprod/checkout-0\nbatch/etl-worker-1'
    run bash_complete "kubectl-preempt explain -f $INCIDENT -n prod "
    assert_output $'search-0\ncheckout-0'
    run plugin explain -f "$INCIDENT" batch/
    assert_output $'batch/etl-worker-2\nbatch/etl-worker-0\nbatch/etl-worker-1'
}

@test "make demo builds kubectl_complete-preempt too" {
    # -B: whether or not bin/ is up to date, say what demo would make
    run make -n -B -C "$ROOT" demo
    assert_success
    assert_output --partial 'bin/kubectl_complete-preempt'
}
