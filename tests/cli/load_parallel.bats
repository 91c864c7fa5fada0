#!/usr/bin/env bats
# load_parallel.bats - a large List read from a file is parsed and checked
# on several threads (KUBECTL_PREEMPT_PARALLELISM) and added in file
# order: the report, the warnings and, for a bad file, the one error line
# (the first problem in file order, as one thread finds it) do not depend
# on the thread count.  The List is one of bench/gen.c's (20 nodes, 400
# pods: 7 MB, many chunks of items), written item by item by
# tests/helpers/list_edit.py with one or two problems placed in it.

load '../helpers/common'
load '../helpers/bench_cluster'

setup_file() {
    command -v python3 >/dev/null 2>&1 || return 0
    bench_cluster "$BATS_FILE_TMPDIR/src.json" 20 400 30 10
}

setup() {
    need python3 jq
    SRC=$BATS_FILE_TMPDIR/src.json
    F=$BATS_TEST_TMPDIR/list.json
}

# edit EDIT...: $F is the List with those edits
edit() {
    python3 "$ROOT/tests/helpers/list_edit.py" "$SRC" "$F" "$@"
}

# item N: "ns/name" of item N
item() {
    jq -r ".items[$1].metadata | \"\(.namespace)/\(.name)\"" "$SRC"
}

# line N: the line on which item N starts in $F
line() {
    sed -n "$(($1 + 1))p" "$F.lines"
}

# same_error: the run fails the same way on 1, 2, 3 and 16 threads (exit
# 1, nothing on stdout, one line on stderr); $output is that line
same_error() {
    local t
    for t in 1 2 3 16; do
        run --separate-stderr env KUBECTL_PREEMPT_PARALLELISM=$t "$KP" \
            -f "$F" -o json --scheduler-name none
        [ "$status" -eq 1 ]
        [ -z "$output" ]
        [ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
        if [ "$t" = 1 ]; then
            first=$stderr
        else
            [ "$stderr" = "$first" ]
        fi
    done
    output=$first
}

@test "a large List loads the same on 1, 2, 3 and 16 threads: report and warnings" {
    edit
    KUBECTL_PREEMPT_PARALLELISM=1 "$KP" -f "$F" -o json \
        >"$BATS_TEST_TMPDIR/one" 2>"$BATS_TEST_TMPDIR/one.err"
    # every item added
    [ "$(jq -c .snapshot "$BATS_TEST_TMPDIR/one")" = \
      '{"nodes":20,"pods":400,"pendingPods":30,"podDisruptionBudgets":10,"priorityClasses":6}' ]
    for t in 2 3 16; do
        KUBECTL_PREEMPT_PARALLELISM=$t "$KP" -f "$F" -o json \
            >"$BATS_TEST_TMPDIR/many" 2>"$BATS_TEST_TMPDIR/many.err"
        cmp "$BATS_TEST_TMPDIR/one" "$BATS_TEST_TMPDIR/many"
        cmp "$BATS_TEST_TMPDIR/one.err" "$BATS_TEST_TMPDIR/many.err"
    done
    KUBECTL_PREEMPT_PARALLELISM=1 "$KP" -f "$F" --scheduler-name none \
        -o json >"$BATS_TEST_TMPDIR/one" 2>"$BATS_TEST_TMPDIR/one.err"
    for t in 2 3 16; do
        KUBECTL_PREEMPT_PARALLELISM=$t "$KP" -f "$F" --scheduler-name none \
            -o json >"$BATS_TEST_TMPDIR/many" 2>"$BATS_TEST_TMPDIR/many.err"
        cmp "$BATS_TEST_TMPDIR/one" "$BATS_TEST_TMPDIR/many"
        cmp "$BATS_TEST_TMPDIR/one.err" "$BATS_TEST_TMPDIR/many.err"
    done
    # the warnings come in file order
    [ -s "$BATS_TEST_TMPDIR/one.err" ]
}

@test "a decode error in the middle of a large List: that pod, on any thread count" {
    edit cpu:200
    same_error
    [ "$output" = "error: $F: pod '$(item 200)': spec.containers[0].resources.requests.cpu: invalid quantity 'bogus'" ]
}

@test "a decode error in the last pod of a large List: that pod" {
    edit cpu:419
    same_error
    [ "$output" = "error: $F: pod '$(item 419)': spec.containers[0].resources.requests.cpu: invalid quantity 'bogus'" ]
}

@test "two bad items: the first in the file is reported, whichever kind of error" {
    # a validation error (a thread's) before a decode error (the adding)
    edit dupkey:150 cpu:300
    same_error
    [ "$output" = "error: $F: pod '$(item 150)': kind: duplicate key" ]
    # a decode error before a validation error a thread finds first
    edit cpu:30 dupkey:400
    same_error
    [ "$output" = "error: $F: pod '$(item 30)': spec.containers[0].resources.requests.cpu: invalid quantity 'bogus'" ]
    # a decode error before a missing comma
    edit cpu:30 nocomma:300
    same_error
    [ "$output" = "error: $F: pod '$(item 30)': spec.containers[0].resources.requests.cpu: invalid quantity 'bogus'" ]
}

@test "a control character late in a large List is found before any item is added" {
    edit cpu:25 ctl:-1
    same_error
    [ "$output" = "error: $F: invalid JSON at line $(grep -n $'\x01' "$F" | cut -d: -f1), column 18 (control character in a string)" ]
}

@test "a missing comma between items of a large List: its place" {
    edit nocomma:200
    same_error
    [ "$output" = "error: $F: invalid JSON at line $(line 200), column 1" ]
    edit nocomma:-1
    same_error
    [ "$output" = "error: $F: invalid JSON at line $(line 435), column 1" ]
}

@test "an item that is not an object, a comma after the last item, a duplicate pod" {
    edit num:200
    same_error
    [ "$output" = "error: $F: items[200]: expected an object, got a number" ]
    edit num:-1
    same_error
    [ "$output" = "error: $F: items[435]: expected an object, got a number" ]
    edit trail
    same_error
    [[ "$output" == "error: $F: invalid JSON at line "*", column 1" ]]
    edit dupname:201
    same_error
    [ "$output" = "error: $F: pod '$(item 200)': metadata.name: duplicate object" ]
}
