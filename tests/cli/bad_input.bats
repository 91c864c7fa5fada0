#!/usr/bin/env bats
# bad_input.bats - input that cannot be analysed, and input kube-scheduler
# tolerates.
#
# tests/bad/expected.tsv has one line per file of tests/bad/:
#     FILE <TAB> EXIT STATUS <TAB> THE ONE LINE EXPECTED ON STDERR
# Each file is run as `kubectl-preempt -f FILE -o json` from tests/bad/ (so
# the message names the file as given) and must give exactly that status,
# exactly that one line on stderr and nothing at all on stdout.  To add a
# case: add the file, run the binary on it, read the message critically
# (does it name the file, the object and the field?), add its line.
#
# tests/ok-with-warnings/NAME.json is analysed with `-v --mode queue
# -o json`; stdout must be NAME.stdout and stderr NAME.stderr, exactly,
# and the exit status 0.
#
# KP_BIN overrides the binary under test (default build/kubectl-preempt).

load '../helpers/common'

BAD="$ROOT/tests/bad"
OKW="$ROOT/tests/ok-with-warnings"
# a run that takes longer than this is a hang
LIMIT=20

setup() {
    OUT="$BATS_TEST_TMPDIR/stdout"
    ERR="$BATS_TEST_TMPDIR/stderr"
}

# run_kp ARGS...: the binary with stdout in $OUT, stderr in $ERR, exit
# status in $status (124: it hung, 128+N: killed by signal N).
run_kp() {
    status=0
    timeout -k 5 "$LIMIT" "$KP" "$@" >"$OUT" 2>"$ERR" || status=$?
}

# test_cmp EXPECTED ACTUAL: the two files are byte for byte the same.
test_cmp() {
    diff -u "$1" "$2" >"$BATS_TEST_TMPDIR/diff" 2>&1 ||
        fail "$(printf '%s differs from %s:\n%s' "$2" "$1" \
                "$(cat "$BATS_TEST_TMPDIR/diff")")"
}

# check_refusal NAME WANT_STATUS WANT_LINE: the last run_kp refused NAME as
# expected; what is wrong is appended to $PROBLEMS.
check_refusal() {
    local name=$1 want_status=$2 want_line=$3 nlines
    nlines=$(wc -l <"$ERR")
    if [ "$status" != "$want_status" ]; then
        PROBLEMS+="$name: exit status $status, expected $want_status"$'\n'
    fi
    if [ -s "$OUT" ]; then
        PROBLEMS+="$name: $(wc -c <"$OUT") bytes on stdout, expected none"$'\n'
    fi
    if [ "$nlines" != 1 ] || [ "$(cat "$ERR")" != "$want_line" ] ||
       [ "$(tail -c 1 "$ERR" | od -An -tx1 | tr -d ' ')" != 0a ]; then
        PROBLEMS+="$name: stderr ($nlines lines) is"$'\n'"$(cat "$ERR")"$'\n'
        PROBLEMS+="  expected"$'\n'"$want_line"$'\n'
    fi
}

# assert_refused NAME WANT_STATUS WANT_LINE: check_refusal, as an assertion.
assert_refused() {
    PROBLEMS=""
    check_refusal "$@"
    [ -z "$PROBLEMS" ] || fail "$PROBLEMS"
}

@test "tests/bad/expected.tsv lists every file of tests/bad/, once" {
    local listed present
    listed=$(cut -f1 "$BAD/expected.tsv" | LC_ALL=C sort)
    present=$(cd "$BAD" && ls | grep -vx expected.tsv | LC_ALL=C sort)
    assert_equal "$present" "$listed"
    run bash -c "cut -f1 '$BAD/expected.tsv' | sort | uniq -d"
    assert_output ""
    # three fields on every line, a status and an "error: FILE: " line
    run awk -F'\t' 'NF != 3 || $2 !~ /^[0-9]+$/ ||
                    index($3, "error: " $1 ": ") != 1 { print NR ": " $0 }' \
        "$BAD/expected.tsv"
    assert_output ""
}

@test "every bad input: its exit status, its one error line, empty stdout" {
    local name want_status want_line
    PROBLEMS=""
    cd "$BAD"
    while IFS=$'\t' read -r name want_status want_line; do
        run_kp -f "$name" -o json
        check_refusal "$name" "$want_status" "$want_line"
    done <"$BAD/expected.tsv"
    [ -z "$PROBLEMS" ] || fail "$PROBLEMS"
}

@test "every bad input read from stdin: the same line, naming <stdin>" {
    local name want_status want_line
    PROBLEMS=""
    cd "$BAD"
    while IFS=$'\t' read -r name want_status want_line; do
        run_kp -f - -o json <"$name"
        check_refusal "$name" "$want_status" \
            "error: <stdin>: ${want_line#"error: $name: "}"
    done <"$BAD/expected.tsv"
    [ -z "$PROBLEMS" ] || fail "$PROBLEMS"
}

@test "every bad input after a good file: the same line, nothing printed" {
    local name want_status want_line
    PROBLEMS=""
    # a good snapshot whose names clash with none of tests/bad/
    cat >"$BATS_TEST_TMPDIR/good.json" <<'EOF'
{"apiVersion": "v1", "kind": "List", "items": [
 {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "good-node"},
  "status": {"allocatable": {"cpu": "2", "memory": "4Gi", "pods": "10"}}},
 {"apiVersion": "v1", "kind": "Pod",
  "metadata": {"name": "good-pod", "namespace": "good"},
  "spec": {"containers": [{"name": "c", "resources":
           {"requests": {"cpu": "100m"}}}]},
  "status": {"phase": "Pending"}}]}
EOF
    cd "$BAD"
    while IFS=$'\t' read -r name want_status want_line; do
        run_kp -f "$BATS_TEST_TMPDIR/good.json" -f "$name" -o json
        check_refusal "$name" "$want_status" "$want_line"
    done <"$BAD/expected.tsv"
    [ -z "$PROBLEMS" ] || fail "$PROBLEMS"
}

@test "every bad input with -o table and -o wide: nothing half-printed" {
    local name want_status want_line fmt
    PROBLEMS=""
    cd "$BAD"
    while IFS=$'\t' read -r name want_status want_line; do
        for fmt in table wide; do
            run_kp -f "$name" -o "$fmt"
            check_refusal "$name (-o $fmt)" "$want_status" "$want_line"
        done
    done <"$BAD/expected.tsv"
    [ -z "$PROBLEMS" ] || fail "$PROBLEMS"
}

@test "an error is the only line even when the snapshot also has warnings" {
    # a pod bound to a missing node and a bound pod naming no class would
    # each warn; the pending pod naming no class is the error
    cat >"$BATS_TEST_TMPDIR/mixed.json" <<'EOF'
{"apiVersion": "v1", "kind": "List", "items": [
 {"kind": "Pod", "metadata": {"name": "bound-elsewhere", "namespace": "a"},
  "spec": {"nodeName": "gone", "containers": [{"name": "c"}]},
  "status": {"phase": "Running"}},
 {"kind": "Pod", "metadata": {"name": "bound-classless", "namespace": "a"},
  "spec": {"nodeName": "gone", "priorityClassName": "nope",
           "containers": [{"name": "c"}]},
  "status": {"phase": "Running"}},
 {"kind": "Pod", "metadata": {"name": "pending", "namespace": "a"},
  "spec": {"priorityClassName": "nope", "containers": [{"name": "c"}]},
  "status": {"phase": "Pending"}}]}
EOF
    cd "$BATS_TEST_TMPDIR"
    run_kp -f mixed.json
    assert_refused mixed.json 1 "error: mixed.json: pod 'a/pending': spec.priorityClassName: no PriorityClass with name 'nope' was found"
}

@test "a file that does not exist: exit 1, one line naming it" {
    cd "$BATS_TEST_TMPDIR"
    run_kp -f no-such-file.json
    assert_refused no-such-file.json 1 \
        "error: no-such-file.json: No such file or directory"
}

@test "a directory without manifests: exit 1, one line naming it" {
    cd "$BATS_TEST_TMPDIR"
    mkdir dir.json
    run_kp -f dir.json
    assert_refused dir.json 1 "error: dir.json: no .json, .yaml or .yml file in this directory (-R reads its subdirectories)"
}

@test "empty standard input: exit 1, one line" {
    run_kp -f - </dev/null
    assert_refused stdin 1 "error: <stdin>: empty input"
}

@test "JSON nested far beyond any limit neither crashes nor hangs" {
    local f="$BATS_TEST_TMPDIR/deep.json"
    # 200000 levels: more than cJSON's own limit and any C stack
    { printf '{"kind": "Pod", "x": '
      head -c 200000 /dev/zero | tr '\0' '['
      head -c 200000 /dev/zero | tr '\0' ']'
      printf '}\n'; } >"$f"
    cd "$BATS_TEST_TMPDIR"
    run_kp -f deep.json
    assert_refused deep.json 1 \
        "error: deep.json: invalid JSON at line 1, column 533 (nesting too deep)"
}

@test "a closing bracket of the wrong kind is named where it is, file or pipe" {
    cd "$BATS_TEST_TMPDIR"
    printf '{"kind": "List", "items": [}' >wrong.json
    run_kp -f wrong.json
    assert_refused wrong.json 1 \
        "error: wrong.json: invalid JSON at line 1, column 28 (expected ']')"
    printf '{"kind":"List","items":[{"kind":"Pod","metadata":{"name":"a"]}]}' \
        >wrong2.json
    run --separate-stderr "$KP" -f - <wrong2.json
    assert_failure 1
    assert_output ''
    assert_equal "$stderr" \
        "error: <stdin>: invalid JSON at line 1, column 61 (expected '}')"
}

# --- tolerated input: warnings, and the analysis goes on -------------------

ok_with_warnings() {
    cd "$OKW"
    run_kp -v --mode queue -o json -f "$1.json"
    assert_equal "$status" 0
    test_cmp "$OKW/$1.stdout" "$OUT"
    test_cmp "$OKW/$1.stderr" "$ERR"
}

@test "ok-with-warnings: every case has its .stdout and .stderr" {
    local f n missing=""
    for f in "$OKW"/*.json; do
        n=${f%.json}
        [ -f "$n.stdout" ] && [ -f "$n.stderr" ] || missing+=" $f"
    done
    assert_equal "$missing" ""
}

@test "ok-with-warnings: unknown kinds are counted under -v" {
    ok_with_warnings unknown_kind
    assert_equal "$(cat "$ERR")" \
        "warning: ignored 2 object(s) of other kinds"
}

@test "ok-with-warnings: unknown kinds say nothing without -v" {
    need jq
    cd "$OKW"
    run_kp --mode queue -o json -f unknown_kind.json
    assert_equal "$status" 0
    # the same report, without the warning in "warnings"
    test_cmp <(jq 'del(.warnings)' unknown_kind.stdout) \
        <(jq 'del(.warnings)' "$OUT")
    assert_equal "$(jq -c .warnings "$OUT")" '[]'
    test_cmp /dev/null "$ERR"
}

@test "ok-with-warnings: a pod bound to a node missing from the snapshot" {
    ok_with_warnings pod_on_missing_node
    assert_equal "$(cat "$ERR")" "warning: pod 'prod/web-1' is bound to node 'node-9', which is not in the snapshot; it is ignored"
}

@test "ok-with-warnings: no nodes, every pending pod Unschedulable" {
    need jq
    ok_with_warnings no_nodes
    run jq -r '.pods[] | "\(.result) \(.message)"' "$OUT"
    assert_output - <<'EOF'
Unschedulable no nodes available to schedule pods
Unschedulable no nodes available to schedule pods
EOF
}

@test "ok-with-warnings: a bound pod naming no PriorityClass has priority 0" {
    ok_with_warnings bound_pod_unknown_class
}

@test "ok-with-warnings: the table has the same warnings and exit 0" {
    local f n
    cd "$OKW"
    for f in *.json; do
        n=${f%.json}
        run_kp -v --mode queue -f "$f"
        assert_equal "$status" 0
        test_cmp "$n.stderr" "$ERR"
    done
}

@test "huge but valid quantities are analysed without overflow" {
    need jq
    # "9223372036854775807" cpu and "8Ei" memory are valid quantities; two
    # feasible nodes so that they are scored (run under UBSan by make test)
    cat >"$BATS_TEST_TMPDIR/huge.json" <<'JSON'
{"apiVersion": "v1", "kind": "List", "items": [
 {"kind": "Node", "metadata": {"name": "big"},
  "status": {"allocatable": {"cpu": "9223372036854775807", "memory": "8Ei",
                             "pods": "110"}}},
 {"kind": "Node", "metadata": {"name": "small"},
  "status": {"allocatable": {"cpu": "4", "memory": "1Gi", "pods": "110"}}},
 {"kind": "Pod", "metadata": {"name": "p", "namespace": "a"},
  "spec": {"containers": [{"name": "c", "resources":
           {"requests": {"cpu": "1e3", "memory": "1e18"}}}]},
  "status": {"phase": "Pending"}},
 {"kind": "Pod", "metadata": {"name": "q", "namespace": "a"},
  "spec": {"containers": [{"name": "c", "resources":
           {"requests": {"cpu": "100m"}}}]},
  "status": {"phase": "Pending"}}]}
JSON
    # 1.38 saturates both at 2^63-1 (#141305): p fits big
    run_kp -f "$BATS_TEST_TMPDIR/huge.json" --mode queue -o json \
        --kube-version 1.38
    assert_equal "$status" 0
    test_cmp /dev/null "$ERR"
    run jq -r '.pods[] | "\(.name) \(.result)"' "$OUT"
    assert_output - <<'OUT'
p Fits
q Fits
OUT
    # up to 1.37 big's cpu reads -1000m (MilliValue wraps): a warning,
    # and p fits nowhere (tests/cli/fidelity_quantity.bats)
    run_kp -f "$BATS_TEST_TMPDIR/huge.json" --mode queue -o json
    assert_equal "$status" 0
    run jq -r '.pods[] | "\(.name) \(.result)"' "$OUT"
    assert_output - <<'OUT'
p Unschedulable
q Fits
OUT
    run cat "$ERR"
    assert_output --partial "node 'big': status.allocatable past int64"
}

@test "invalid UTF-8 deep in a large List: refused on the loader's threads and alone, as in a small one" {
    # The scan of a List's items notes whether any byte is 0x80 or above;
    # an ASCII List's strings are not checked for UTF-8 again
    # (json_util.h, kp_json_marks.non_ascii).  A List past the threads'
    # threshold (256 KB) with one bad byte in its last pod must still be
    # refused, with 1 and 2 threads, and with the skip turned off.
    PROBLEMS=""
    python3 - "$BATS_TEST_TMPDIR/big.json" <<'PY'
import json, sys
items = [{"apiVersion": "v1", "kind": "Node",
          "metadata": {"name": "node-%d" % i,
                       "labels": {"kubernetes.io/hostname": "node-%d" % i}},
          "status": {"allocatable": {"cpu": "4", "memory": "8Gi",
                                     "pods": "110"}}} for i in range(2000)]
items.append({"apiVersion": "v1", "kind": "Pod",
              "metadata": {"name": "web-0", "namespace": "prod",
                           "labels": {"app": "XXBAD"}},
              "spec": {"containers": [{"name": "c"}]},
              "status": {"phase": "Pending"}})
text = json.dumps({"apiVersion": "v1", "kind": "List", "items": items},
                  indent=4).encode()
open(sys.argv[1], "wb").write(text.replace(b"XXBAD", b"w\xc3\x28b"))
PY
    [ "$(stat -c %s "$BATS_TEST_TMPDIR/big.json")" -gt 300000 ]
    cd "$BATS_TEST_TMPDIR"
    for t in 1 2; do
        KUBECTL_PREEMPT_PARALLELISM=$t run_kp -f big.json -o json
        check_refusal "big.json ($t thread(s))" 1 \
            "error: big.json: pod 'prod/web-0': metadata.labels.app: invalid UTF-8 in a string"
        KP_NO_ASCII_SKIP=1 KUBECTL_PREEMPT_PARALLELISM=$t run_kp -f big.json -o json
        check_refusal "big.json ($t thread(s), KP_NO_ASCII_SKIP=1)" 1 \
            "error: big.json: pod 'prod/web-0': metadata.labels.app: invalid UTF-8 in a string"
    done
    [ -z "$PROBLEMS" ] || fail "$PROBLEMS"
}
