#!/usr/bin/env bats
# hostile_live.bats - issue 27 on the live path: the files --snapshot-out
# writes (never replacing what is not a regular file, a temporary file of
# its own, the old file intact on failure) and exec credential plugins
# that never exit.  Against tests/helpers/fake_apiserver.py.

load '../helpers/common'
load '../helpers/live_server'

# The devices are made in the test's own directory (mknod; the test
# skips where that is not allowed): a regression must not replace the
# system's /dev/null, as the tool before this fix did when run as root.
# device NAME MAJOR MINOR: $BATS_TEST_TMPDIR/NAME, a character device
device() {
    mknod -m 666 "$BATS_TEST_TMPDIR/$1" c "$2" "$3" 2>/dev/null ||
        skip "cannot make a device node here (not root, or nodev)"
}

@test "--snapshot-out to a null device writes through and leaves the device a device" {
    device null 1 3
    start_server
    token_kubeconfig
    run --separate-stderr "$KP" --kubeconfig "$KC" -A \
        --snapshot-out "$BATS_TEST_TMPDIR/null"
    assert_reported
    [ -c "$BATS_TEST_TMPDIR/null" ]
    assert_equal "$(ls -A "$BATS_TEST_TMPDIR" | grep -c null)" 1
}

@test "--snapshot-out to a full device reports no space and leaves the device a device" {
    device full 1 7
    start_server
    token_kubeconfig
    run --separate-stderr "$KP" --kubeconfig "$KC" -A \
        --snapshot-out "$BATS_TEST_TMPDIR/full"
    expect_error "cannot write '$BATS_TEST_TMPDIR/full': No space left on device"
    [ -c "$BATS_TEST_TMPDIR/full" ]
}

@test "--snapshot-out into a FIFO, and through a link to /proc/self/fd/1 into a pipe, writes through" {
    start_server
    token_kubeconfig
    mkfifo "$BATS_TEST_TMPDIR/fifo"
    timeout 60 cat "$BATS_TEST_TMPDIR/fifo" >"$BATS_TEST_TMPDIR/from-fifo" &
    local reader=$!
    run --separate-stderr "$KP" --kubeconfig "$KC" -A \
        --snapshot-out "$BATS_TEST_TMPDIR/fifo"
    assert_reported
    wait "$reader"
    [ -p "$BATS_TEST_TMPDIR/fifo" ]
    run grep -c '"kind":"Pod"' "$BATS_TEST_TMPDIR/from-fifo"
    assert_success
    # the snapshot, then the table, down one pipe
    ln -s /proc/self/fd/1 "$BATS_TEST_TMPDIR/stdout"
    "$KP" --kubeconfig "$KC" -A --snapshot-out "$BATS_TEST_TMPDIR/stdout" |
        cat >"$BATS_TEST_TMPDIR/piped"
    [ -L "$BATS_TEST_TMPDIR/stdout" ]
    run head -c 40 "$BATS_TEST_TMPDIR/piped"
    assert_output '{"apiVersion":"v1","kind":"List","items"'
    run grep -c 'api-0' "$BATS_TEST_TMPDIR/piped"
    assert_success
}

@test "--snapshot-out keeps a user's PATH.tmp and leaves no temporary file" {
    start_server
    token_kubeconfig
    local d="$BATS_TEST_TMPDIR/out"
    mkdir "$d"
    echo "mine" >"$d/snap.json.tmp"
    run --separate-stderr "$KP" --kubeconfig "$KC" -A --snapshot-out "$d/snap.json"
    assert_reported
    assert_equal "$(cat "$d/snap.json.tmp")" "mine"
    assert_equal "$(ls -A "$d" | tr '\n' ' ')" "snap.json snap.json.tmp "
    run stat -c %a "$d/snap.json"
    assert_output 600
}

@test "a failed live run leaves the old --snapshot-out file as it was" {
    start_server --fault forbidden:priorityclasses
    token_kubeconfig
    local d="$BATS_TEST_TMPDIR/out"
    mkdir "$d"
    echo "old snapshot" >"$d/snap.json"
    run --separate-stderr "$KP" --kubeconfig "$KC" -A --snapshot-out "$d/snap.json"
    assert_equal "$status" 1
    assert_equal "$(cat "$d/snap.json")" "old snapshot"
    assert_equal "$(ls -A "$d")" "snap.json"
}

@test "--snapshot-out through a symbolic link replaces the file it names and keeps the link" {
    start_server
    token_kubeconfig
    local d="$BATS_TEST_TMPDIR/out"
    mkdir "$d"
    echo old >"$d/real.json"
    ln -s real.json "$d/link.json"
    run --separate-stderr "$KP" --kubeconfig "$KC" -A --snapshot-out "$d/link.json"
    assert_reported
    [ -L "$d/link.json" ]
    run grep -c '"kind":"Pod"' "$d/real.json"
    assert_success
}

@test "--snapshot-out naming a directory is refused" {
    start_server
    token_kubeconfig
    run --separate-stderr "$KP" --kubeconfig "$KC" -A --snapshot-out "$BATS_TEST_TMPDIR"
    expect_error "cannot write '$BATS_TEST_TMPDIR': Is a directory"
}

# an exec plugin that never exits (nor closes its stdout)
write_hanging_plugin() {
    cat >"$1" <<'SH'
#!/bin/sh
sleep 987654
SH
    chmod 700 "$1"
}

exec_kubeconfig() {
    KC="$BATS_TEST_TMPDIR/kubeconfig"
    write_kubeconfig "$KC" "    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: $1
      interactiveMode: Never"
}

@test "an exec plugin that never exits is killed at --request-timeout, named" {
    start_server
    write_hanging_plugin "$BATS_TEST_TMPDIR/hang"
    exec_kubeconfig "$BATS_TEST_TMPDIR/hang"
    SECONDS=0
    run --separate-stderr timeout 60 "$KP" --kubeconfig "$KC" -A --request-timeout 2s
    expect_error "getting credentials: exec: executable $BATS_TEST_TMPDIR/hang did not finish within 2s (--request-timeout); it was killed"
    [ "$SECONDS" -lt 20 ]
    # the plugin's own child (sleep) went with it
    sleep 0.5
    run pgrep -f "sleep 987654"
    assert_failure
}

@test "an exec plugin that closes its stdout but never exits is killed too" {
    start_server
    cat >"$BATS_TEST_TMPDIR/half" <<'SH'
#!/bin/sh
exec >&-
sleep 1000
SH
    chmod 700 "$BATS_TEST_TMPDIR/half"
    exec_kubeconfig "$BATS_TEST_TMPDIR/half"
    run --separate-stderr timeout 60 "$KP" --kubeconfig "$KC" -A --request-timeout 1500ms
    expect_error "getting credentials: exec: executable $BATS_TEST_TMPDIR/half did not finish within 1500ms (--request-timeout); it was killed"
}
