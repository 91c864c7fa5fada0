#!/usr/bin/env bats
# record.bats - "kubectl-preempt record" against the fake API server's
# watches (tests/helpers/fake_apiserver.py --watch-events): list then
# watch, bookmarks, 410 Gone, dropped connections, a full disk, kill -9,
# the ring's caps; and reading the recording back (-f DIR --at,
# explain --from DIR --since).

load '../helpers/common'
load '../helpers/live_server'

REC_PID=

teardown() {
    if [ -n "$REC_PID" ]; then
        kill -KILL "$REC_PID" 2>/dev/null || true
        wait "$REC_PID" 2>/dev/null || true
    fi
    if [ -n "$SERVER_PID" ]; then
        kill "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
}

# wait_for GLOB [TENTHS]: until a file matches (default 10 s)
wait_for() {
    local i
    for i in $(seq "${2:-100}"); do
        compgen -G "$1" >/dev/null && return 0
        sleep 0.1
    done
    return 1
}

# wait_lines FILE-GLOB N: until the files hold N lines
wait_lines() {
    local i
    for i in $(seq 100); do
        [ "$(cat $1 2>/dev/null | wc -l)" -ge "$2" ] && return 0
        sleep 0.1
    done
    return 1
}

# start_recorder [record flags...]: server (with $SERVER_FLAGS), then
# the recorder into $REC, until its first snapshot is there
start_recorder() {
    EVENTS="$BATS_TEST_TMPDIR/events.jsonl"
    touch "$EVENTS"
    start_server --watch-events "$EVENTS" ${SERVER_FLAGS:-}
    token_kubeconfig
    REC="$BATS_TEST_TMPDIR/rec"
    RECERR="$BATS_TEST_TMPDIR/record.err"
    ${RECORD_PREFIX:-} "$KP" record --kubeconfig "$KC" --dir "$REC" "$@" \
        2>"$RECERR" &
    REC_PID=$!
    wait_for "$REC/snapshot-*.json" || fail "no snapshot: $(cat "$RECERR")"
}

stop_recorder() {
    kill -"${1:-TERM}" "$REC_PID"
    REC_STATUS=0
    wait "$REC_PID" || REC_STATUS=$?
    REC_PID=
}

# emit RESOURCE TYPE OBJECT-JSON: the server's watches stream it
emit() {
    printf '{"resource":"%s","type":"%s","object":%s}\n' "$1" "$2" "$3" \
        >>"$EVENTS"
}

# emit_changes N: N MODIFIED events of batch/worker-0 at once, labelled
# n=0 .. n=N-1 (a burst faster than the recorder writes)
emit_changes() {
    python3 - "$EVENTS" "$(pod_json batch worker-0)" "$1" <<'PY'
import json, sys
p = json.loads(sys.argv[2])
with open(sys.argv[1], "a") as f:
    for i in range(int(sys.argv[3])):
        p["metadata"]["labels"] = {"n": str(i)}
        f.write(json.dumps({"resource": "pods", "type": "MODIFIED",
                            "object": p}) + "\n")
PY
}

pod_json() {   # pod_json NAMESPACE NAME (from the live fixture)
    python3 -c 'import json,sys
for p in json.load(open(sys.argv[1]))["items"]:
    m = p["metadata"]
    if m.get("namespace") == sys.argv[2] and m["name"] == sys.argv[3]:
        print(json.dumps(p))' "$FIXTURES/pods.json" "$1" "$2"
}

@test "record lists, then watches every list from its resourceVersion with bookmarks" {
    start_recorder
    wait_lines "$SERVER_LOG" 42
    sleep 0.5
    stop_recorder
    assert_equal "$REC_STATUS" 0
    run grep -c '"bookmarks": "true", "resourceVersion": 4242' "$SERVER_LOG"
    assert_output 14
    run grep -c '"watch": "events"' "$SERVER_LOG"
    assert_output 1
    # the snapshot is a List that -f reads as it is: the live run's answer
    run --separate-stderr "$KP" --kubeconfig "$KC" -A
    live="$output"
    run --separate-stderr "$KP" -f "$REC"/snapshot-*.json
    assert_success
    assert_equal "$output" "$live"
    run --separate-stderr "$KP" -f "$REC"
    assert_success
    assert_equal "$output" "$live"
    [ -z "$(ls "$REC" | grep -v -e '^snapshot-' -e '^changes-' \
        -e '^kubectl-preempt-recording$')" ]
}

@test "-f DIR --at replays the moment before a change; -f DIR the last one" {
    start_recorder
    sleep 0.2
    before=$(date -u +%Y-%m-%dT%H:%M:%S.%3NZ)
    sleep 0.2
    emit pods DELETED "$(pod_json batch etl-0)"
    wait_lines "$REC/changes-*.jsonl" 1
    stop_recorder
    run --separate-stderr "$KP" -f "$REC" -o name
    assert_success
    refute_output --partial "etl-0"
    run --separate-stderr "$KP" -f "$REC" --at "$before" -o name
    assert_success
    assert_output --partial "pod/etl-0"
    run --separate-stderr "$KP" -f "$REC" --at 2001-01-01T00:00:00Z
    assert_failure 1
    assert_output ""
    [[ "$stderr" == "error: $REC: nothing recorded at 2001-01-01T00:00:00.000Z: the recording starts at "* ]]
}

@test "explain --from restores the window's victims; --since bounds it" {
    start_recorder
    victim=$(pod_json batch worker-0 | python3 -c 'import json,sys
p = json.load(sys.stdin)
p["metadata"]["deletionTimestamp"] = "2026-11-27T03:00:00Z"
p["status"].setdefault("conditions", []).append({"type": "DisruptionTarget",
    "status": "True", "reason": "PreemptionByScheduler",
    "message": "default-scheduler: preempting to accommodate a higher priority pod"})
print(json.dumps(p))')
    emit pods MODIFIED "$victim"
    emit events ADDED '{"metadata":{"name":"worker-0.1","namespace":"batch"},"involvedObject":{"kind":"Pod","namespace":"batch","name":"worker-0","uid":"uid-batch-worker-0"},"reason":"Preempted","message":"Preempted by pod uid-prod-api-0 on node node-a","type":"Normal","source":{"component":"default-scheduler"},"firstTimestamp":"2026-11-27T03:00:00Z","lastTimestamp":"2026-11-27T03:00:00Z","count":1}'
    emit events ADDED '{"metadata":{"name":"api-0.1","namespace":"prod"},"involvedObject":{"kind":"Pod","namespace":"prod","name":"api-0"},"reason":"Pulled","message":"image pulled","type":"Normal"}'
    emit pods DELETED "$victim"
    wait_lines "$REC/changes-*.jsonl" 3
    sleep 0.3
    stop_recorder
    # an image pull tells no scheduling story: not recorded
    run grep -c '"reason":"Pulled"' "$REC"/changes-*.jsonl
    assert_output 0
    run --separate-stderr "$KP" explain --from "$REC" --since 1h -o json
    assert_success
    run jq -r '.preemptions[] | select(.victim.name == "worker-0") |
        [.node, .victim.state, .preemptor.name, (.evidence | join(","))] |
        join(" ")' <<<"$output"
    assert_output "node-a Terminating api-0 event,condition"
    # the last moment alone: the event, but the victim is gone
    run --separate-stderr "$KP" explain -f "$REC" -o json
    assert_success
    run jq -r '.preemptions[] | select(.victim.name == "worker-0") |
        [.node, .victim.state] | join(" ")' <<<"$output"
    assert_output "node-a Gone"
    # --since 1ms: the window ended before the victim was deleted
    sleep 0.1
    run --separate-stderr "$KP" explain --from "$REC" --since 1ms -o json
    assert_success
    run jq -r '.preemptions[] | select(.victim.name == "worker-0") |
        .victim.state' <<<"$output"
    assert_output "Gone"
}

@test "410 Gone on a watch: the recorder lists again, a new snapshot" {
    SERVER_FLAGS="--fault watch-gone:pods" start_recorder
    wait_for "$REC/snapshot-*.json" || true
    for _ in $(seq 50); do
        [ "$(ls "$REC"/snapshot-*.json | wc -l)" -ge 2 ] && break
        sleep 0.1
    done
    stop_recorder
    assert_equal "$REC_STATUS" 0
    run bash -c "ls '$REC'/snapshot-*.json | wc -l"
    [ "$output" -ge 2 ]
    run grep -c '"path": "/api/v1/pods", "query": "limit=500"' "$SERVER_LOG"
    [ "$output" -ge 2 ]
}

@test "410 as the watch's status code: the recorder lists again too" {
    SERVER_FLAGS="--fault watch-gone-status:nodes" start_recorder
    for _ in $(seq 50); do
        [ "$(ls "$REC"/snapshot-*.json | wc -l)" -ge 2 ] && break
        sleep 0.1
    done
    stop_recorder
    run bash -c "ls '$REC'/snapshot-*.json | wc -l"
    [ "$output" -ge 2 ]
}

@test "a dropped watch reconnects from the last resourceVersion it saw" {
    SERVER_FLAGS="--fault watch-drop:pods" start_recorder
    emit pods DELETED "$(pod_json batch etl-0)"
    wait_lines "$REC/changes-*.jsonl" 1
    for _ in $(seq 50); do
        grep -q '"resourceVersion": 5000, "watch": "pods"' "$SERVER_LOG" && break
        sleep 0.1
    done
    emit pods DELETED "$(pod_json batch report-0)"
    wait_lines "$REC/changes-*.jsonl" 2
    stop_recorder
    run grep -c '"resourceVersion": 5000, "watch": "pods"' "$SERVER_LOG"
    assert_output 1
    run bash -c "cat '$REC'/changes-*.jsonl | wc -l"
    assert_output 2
    # one snapshot: a dropped connection is no reason to list again
    run bash -c "ls '$REC'/snapshot-*.json | wc -l"
    assert_output 1
}

@test "a burst faster than the disk: every change recorded, in order" {
    need python3
    start_recorder
    emit_changes 3000
    wait_lines "$REC/changes-*.jsonl" 3000
    stop_recorder
    run bash -c "grep -o '\"labels\":{\"n\":\"[0-9]*\"}' '$REC'/changes-*.jsonl |
        sed 's/[^0-9]//g' | awk 'NR - 1 != \$1 { bad = 1 } END { print NR, bad + 0 }'"
    assert_output "3000 0"
    # the last moment is the last change
    run --separate-stderr "$KP" -f "$REC" -o json --scheduler-name none
    assert_success
}

@test "kill -9 while changes are written: the recording loads, cut line and all" {
    need python3
    start_recorder
    emit_changes 3000
    wait_lines "$REC/changes-*.jsonl" 200
    stop_recorder KILL
    run --separate-stderr "$KP" -f "$REC" -o name
    assert_success
    # a write cut in the middle, as a crash leaves it
    printf '{"time":"2026-11-27T0' >>"$(ls "$REC"/changes-*.jsonl)"
    run --separate-stderr "$KP" -f "$REC" -o name
    assert_success
    assert_output --partial "pod/api-0"
    [[ "$stderr" == *"line(s) of the changes could not be read"* ]]
}

@test "a full disk (a file size limit): writes fail whole, the recording loads" {
    need python3
    RECORD_PREFIX="prlimit --fsize=65536" start_recorder
    emit_changes 2000
    for _ in $(seq 100); do
        grep -q 'cannot write the changes file' "$RECERR" && break
        sleep 0.1
    done
    stop_recorder
    assert_equal "$REC_STATUS" 0
    run grep -c 'cannot write the changes file' "$RECERR"
    [ "$output" -ge 1 ]
    for f in "$REC"/changes-*.jsonl; do
        [ ! -s "$f" ] || [ "$(tail -c 1 "$f" | od -An -c | tr -d ' ')" = '\n' ]
    done
    run --separate-stderr "$KP" -f "$REC" -o name
    assert_success
    refute_output --partial "could not be read"
}

@test "--max-age and --max-disk keep the ring bounded; the newest stays" {
    start_recorder --snapshot-interval 1s --max-age 2s
    sleep 5
    stop_recorder
    n=$(ls "$REC"/snapshot-*.json | wc -l)
    [ "$n" -ge 1 ] && [ "$n" -le 4 ]
    # a disk cap of 40 KiB holds about two snapshots of ~14 KiB
    rm -rf "$REC"
    RECORD_FLAGS=
    "$KP" record --kubeconfig "$KC" --dir "$REC" --snapshot-interval 1s \
        --max-disk 40Ki 2>"$RECERR" &
    REC_PID=$!
    sleep 5
    stop_recorder
    n=$(ls "$REC"/snapshot-*.json | wc -l)
    [ "$n" -ge 1 ] && [ "$n" -le 3 ]
    run --separate-stderr "$KP" -f "$REC" -o name
    assert_success
}

@test "SIGINT ends the recorder cleanly: exit 0, no temporary file left" {
    start_recorder
    stop_recorder INT
    assert_equal "$REC_STATUS" 0
    run bash -c "ls -a '$REC' | grep -c -e '\\.tmp' -e '^\\.kubectl'"
    assert_output 0
}

@test "no credential reaches the recording" {
    SERVER_FLAGS="--fault echo-credential-item" start_recorder
    sleep 0.3
    stop_recorder
    run grep -rl "$TOKEN" "$REC"
    assert_output ""
}

@test "record's usage errors" {
    run --separate-stderr "$KP" record
    assert_failure 2
    assert_equal "$stderr" "error: record needs --dir DIR: where the recording is kept"
    run --separate-stderr "$KP" record --dir x -f y
    assert_failure 2
    run --separate-stderr "$KP" --dir x
    assert_failure 2
    run --separate-stderr "$KP" explain --since 1h -f x
    assert_failure 2
    assert_equal "$stderr" "error: --since needs --from DIR (a recording)"
    run --separate-stderr "$KP" record --dir x --max-age 1d
    assert_failure 2
    assert_equal "$stderr" "error: invalid value '1d' for --max-age: expected a duration such as 90m, 1h30m or 24h"
    run --separate-stderr "$KP" -f x --at yesterday
    assert_failure 2
}
