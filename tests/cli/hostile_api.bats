#!/usr/bin/env bats
# hostile_api.bats - kubectl-preempt against API servers, proxies and
# inputs that misbehave (issue 14): each run must end within bounded time
# and memory with one line on stderr, nothing on stdout, no secret shown.
#
# KP_BIN overrides the binary under test (default build/kubectl-preempt).

load '../helpers/common'
load '../helpers/live_server'

# run_bounded SECS MIB ARGS...: run the binary under timeout SECS and (but
# for the sanitizer build, whose shadow memory needs terabytes of address
# space) an address-space limit of MIB; ELAPSED (s) and RSS_MB are set.
run_bounded() {
    local secs=$1 mib=$2 lim=()
    shift 2
    case "$KP" in
    *asan*) ;;
    *) lim=(prlimit --as=$((mib * 1024 * 1024))) ;;
    esac
    run --separate-stderr /usr/bin/time -o "$BATS_TEST_TMPDIR/usage" \
        -f '%e %M' "${lim[@]}" timeout "$secs" "$KP" "$@"
    read -r ELAPSED RSS_KB < <(tail -n 1 "$BATS_TEST_TMPDIR/usage")
    RSS_MB=$((RSS_KB / 1024))
}

# within SECS MB: the last run_bounded took less than SECS s and MB MiB
# (three times both under ASan, which is slower and keeps freed memory
# in quarantine)
within() {
    local secs=$1 mb=$2
    case "$KP" in *asan*) secs=$((secs * 3)) mb=$((mb * 3)) ;; esac
    echo "# took ${ELAPSED}s, peak RSS ${RSS_MB} MiB" >&3
    awk -v e="$ELAPSED" -v s="$secs" 'BEGIN { exit !(e < s) }' ||
        fail "took ${ELAPSED}s, more than ${secs}s"
    [ "$RSS_MB" -lt "$mb" ] || fail "peak RSS ${RSS_MB} MiB, over $mb MiB"
}

# as_limit MIB: the prlimit words of an address-space limit (none under
# ASan)
as_limit() {
    case "$KP" in *asan*) ;; *) echo "prlimit --as=$(($1 << 20))" ;; esac
}

# no_secret WORD...: none of the words anywhere in stdout or stderr
no_secret() {
    local w
    for w in "$@"; do
        case "$output$stderr" in
        *"$w"*) fail "'$w' was printed: $stderr" ;;
        esac
    done
}

# a cluster of the kubeconfig's token and a hostile server
hostile() {
    start_server "$@"
    token_kubeconfig
}

# --- endless and huge responses ------------------------------------------

@test "a server that ignores limit and streams endless items stops at 1,000,000 objects" {
    hostile --fault endless-items:nodes
    run_bounded 120 2048 --kubeconfig "$KC" -A
    expect_error "cannot list nodes from the server $SERVER: more than 1000000 objects in the list (the limit of one list)"
    within 120 1500
}

@test "endless 1 MiB items read ahead of their turn stop at 1 GiB held" {
    hostile --fault endless-big-items:pods --fault stall:nodes --slow-seconds 60
    run_bounded 60 3072 --kubeconfig "$KC" -A
    expect_error "cannot list pods from the server $SERVER: the lists read ahead of their turn hold more than 1024 MiB (the limit across all lists): does the server ignore limit?"
    within 60 1400
}

@test "endless top-level members stop after 8 MiB outside the items" {
    hostile --fault endless-members:nodes
    run_bounded 30 1024 --kubeconfig "$KC" -A
    expect_error "cannot list nodes from the server $SERVER: more than 8 MiB of the page outside its items"
    within 30 300
}

@test "pages of one item under ever new tokens stop at 2,000 pages" {
    hostile --fault one-item-pages:nodes --lifetime 300
    run_bounded 240 1024 --kubeconfig "$KC" -A
    expect_error "cannot list nodes from the server $SERVER: more than 2000 pages (the limit of one list)"
    within 80 400
}

@test "an endless string in an item stops at the per-object limit of 8 MiB" {
    hostile --fault endless-string:pods
    run_bounded 30 1024 --kubeconfig "$KC" -A
    expect_error "cannot list pods from the server $SERVER: items[0] is larger than 8 MiB (the per-object limit)"
    within 30 300
}

@test "a gzip bomb stops at the per-object limit, not at the memory limit" {
    hostile --fault gzip-bomb:nodes
    run_bounded 30 1024 --kubeconfig "$KC" -A
    expect_error "cannot list nodes from the server $SERVER: items[0] is larger than 8 MiB (the per-object limit)"
    within 30 300
}

@test "a gzip bomb of white space stops after 8 MiB of it" {
    hostile --fault gzip-space-bomb:priorityclasses
    run_bounded 30 1024 --kubeconfig "$KC" -A
    expect_error_prefix "cannot list priorityclasses.scheduling.k8s.io from the server $SERVER: more than 8 MiB of white space at byte "
    within 30 300
}

@test "a 1 MiB response header is named as such" {
    hostile --fault huge-header:nodes
    run_bounded 30 1024 --kubeconfig "$KC" -A
    expect_error "cannot list nodes from the server $SERVER: response header too large (over 102400 bytes)"
    within 30 300
}

@test "10,000 header lines are a header too large" {
    hostile --fault many-headers:pods
    run_bounded 30 1024 --kubeconfig "$KC" -A
    expect_error "cannot list pods from the server $SERVER: response header too large (over 102400 bytes)"
    within 30 300
}

# --- continue tokens -----------------------------------------------------

@test "a continue token repeated with empty pages is an error naming the list" {
    hostile --fault repeat-continue:pods
    run_bounded 30 1024 --kubeconfig "$KC" -A
    expect_error "cannot list pods from the server $SERVER: the server sent a continue token it had sent before (page 2): the list would never end"
    within 30 300
}

@test "continue tokens that cycle are an error naming the list" {
    hostile --fault cycle-continue:poddisruptionbudgets
    run_bounded 30 1024 --kubeconfig "$KC" -A
    expect_error "cannot list poddisruptionbudgets.policy from the server $SERVER: the server sent a continue token it had sent before (page 4): the list would never end"
    within 30 300
}

@test "100 empty pages in a row, each with a new token, are an error" {
    hostile --fault empty-pages:nodes
    run_bounded 60 1024 --kubeconfig "$KC" -A
    expect_error "cannot list nodes from the server $SERVER: 100 pages in a row without items, each with a new continue token: the list would never end"
    within 60 300
}

# --- time ------------------------------------------------------------------

@test "a stalled response ends at --request-timeout" {
    hostile --fault stall:pods --slow-seconds 30
    run_bounded 20 1024 --kubeconfig "$KC" -A --request-timeout 2s
    expect_error "cannot list pods from the server $SERVER: request timed out after 2s (--request-timeout)"
    within 6 300
}

@test "Retry-After: 100000 fails at once when it would pass --request-timeout" {
    hostile --fault too-many-requests-always:nodes --retry-after 100000
    run_bounded 20 1024 --kubeconfig "$KC" -A --request-timeout 3s
    expect_error "cannot list nodes: 429 Too Many Requests: Too many requests, please try again later.; the next retry (Retry-After: 100000s) would come after the --request-timeout of 3s"
    within 4 300
}

@test "--request-timeout covers the retries of a request, not each attempt" {
    hostile --fault server-error-always:pods
    run_bounded 20 1024 --kubeconfig "$KC" -A --request-timeout 1500ms
    expect_error_prefix "cannot list pods: 500 Internal Server Error: Internal error occurred: etcdserver: leader changed; the next retry would come after the --request-timeout of 1500ms"
    within 3 300
}

# --- redirects and proxies ---------------------------------------------------

@test "a redirect is not followed and its Location is named" {
    hostile --fault redirect:nodes
    run_bounded 30 1024 --kubeconfig "$KC" -A
    expect_error "cannot list nodes: 302 Found: the server redirects to 'https://elsewhere.invalid/login?next=/api/v1/nodes?limit=500'; redirects are not followed"
}

@test "an HTML page served with 200 is summarised, not dumped" {
    hostile --fault html-200:nodes
    run_bounded 30 1024 --kubeconfig "$KC" -A
    expect_error "cannot list nodes from the server $SERVER: server returned an HTML page (HTTP 200, title \"502 Bad Gateway\"), not JSON: is a proxy in the way?"
    no_secret "$TOKEN"
}

@test "an HTML 502 from a proxy is summarised, not dumped" {
    hostile --fault html-502:pods
    run_bounded 30 1024 --kubeconfig "$KC" -A --request-timeout 1s
    expect_error "cannot list pods from the server $SERVER: server returned an HTML page (HTTP 502, title \"502 Bad Gateway\"), not JSON: is a proxy in the way?"
    no_secret "$TOKEN"
}

@test "a page followed by a NUL byte names the offset" {
    hostile --fault nul-trailer:priorityclasses
    run_bounded 30 1024 --kubeconfig "$KC" -A
    expect_error_prefix "cannot list priorityclasses.scheduling.k8s.io from the server $SERVER: NUL byte at offset "
}

@test "a page whose items are [1] says what the item is" {
    hostile --fault items-scalar:nodes
    run_bounded 30 1024 --kubeconfig "$KC" -A
    expect_error "<api:nodes>: items[0]: expected an object, got a number"
}

# --- secrets -----------------------------------------------------------------

@test "a server echoing the bearer token in its error gets it redacted" {
    hostile --fault echo-credential:nodes
    run_bounded 30 1024 --kubeconfig "$KC" -A
    expect_error "cannot list nodes at the cluster scope: 403 Forbidden: Forbidden: the request carried Authorization: Bearer [REDACTED], which is not allowed here; missing permission: list nodes (check: kubectl auth can-i list nodes)"
    no_secret "$TOKEN"
}

@test "a plain-text 500 echoing the token is redacted" {
    hostile --fault echo-credential-500:nodes
    run_bounded 30 1024 --kubeconfig "$KC" -A --request-timeout 1s
    expect_error_prefix "cannot list nodes: 500 Internal Server Error: upstream said: bad credentials Bearer [REDACTED]"
    no_secret "$TOKEN"
}

@test "the token of a tokenFile is redacted from server errors" {
    start_server --fault echo-credential:nodes
    KC="$BATS_TEST_TMPDIR/kubeconfig"
    printf '%s\n' "$TOKEN" > "$BATS_TEST_TMPDIR/tok"
    write_kubeconfig "$KC" "    tokenFile: $BATS_TEST_TMPDIR/tok"
    run_bounded 30 1024 --kubeconfig "$KC" -A
    expect_error "cannot list nodes at the cluster scope: 403 Forbidden: Forbidden: the request carried Authorization: Bearer [REDACTED], which is not allowed here; missing permission: list nodes (check: kubectl auth can-i list nodes)"
    no_secret "$TOKEN"
}

@test "the token of an exec plugin is redacted from server errors" {
    start_server --fault echo-credential:nodes
    KC="$BATS_TEST_TMPDIR/kubeconfig"
    write_plugin "$BATS_TEST_TMPDIR/plugin" client.authentication.k8s.io/v1
    write_kubeconfig "$KC" "    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: $BATS_TEST_TMPDIR/plugin
      interactiveMode: Never"
    run_bounded 30 1024 --kubeconfig "$KC" -A
    expect_error "cannot list nodes at the cluster scope: 403 Forbidden: Forbidden: the request carried Authorization: Bearer [REDACTED], which is not allowed here; missing permission: list nodes (check: kubectl auth can-i list nodes)"
    no_secret "$TOKEN"
}

@test "a basic-auth password, plain or base64, is redacted from server errors" {
    start_server --fault echo-credential:nodes
    KC="$BATS_TEST_TMPDIR/kubeconfig"
    write_kubeconfig "$KC" "    username: admin
    password: hunter2-pw"
    run_bounded 30 1024 --kubeconfig "$KC" -A
    expect_error "cannot list nodes at the cluster scope: 403 Forbidden: Forbidden: the request carried Authorization: Basic [REDACTED] admin:[REDACTED], which is not allowed here; missing permission: list nodes (check: kubectl auth can-i list nodes)"
    no_secret hunter2-pw "$(printf 'admin:hunter2-pw' | base64)"
}

@test "a token in the objects reaches neither the report nor --snapshot-out" {
    hostile --fault echo-credential-item:pods
    run --separate-stderr "$KP" --kubeconfig "$KC" -A -o json \
        --snapshot-out "$BATS_TEST_TMPDIR/snap.json"
    assert_success
    no_secret "$TOKEN"
    run grep -c -- "$TOKEN" "$BATS_TEST_TMPDIR/snap.json"
    assert_output 0
    run grep -c -- 'Bearer \[REDACTED\]' "$BATS_TEST_TMPDIR/snap.json"
    refute_output 0
}

# --- files and pipes -----------------------------------------------------

@test "-f /dev/zero fails at byte 0" {
    run_bounded 10 512 -f /dev/zero
    expect_error "/dev/zero: NUL byte at offset 0"
    within 2 100
}

@test "-f - from an endless pipe of garbage fails at its first byte" {
    run --separate-stderr bash -c "yes | $(as_limit 512) timeout 10 '$KP' -f -"
    expect_error "<stdin>: invalid JSON at line 1, column 1 (expected a value)"
}

@test "-f - from an endless pipe of /dev/zero fails at byte 0" {
    run --separate-stderr bash -c "timeout 10 $(as_limit 512) '$KP' -f - < <(cat /dev/zero)"
    expect_error "<stdin>: NUL byte at offset 0"
}

@test "-f - from an endless pipe of documents fails at the first bad one" {
    run --separate-stderr bash -c "yes '{}' | $(as_limit 512) timeout 10 '$KP' -f -"
    expect_error "<stdin>: object with no name: kind: missing"
}

@test "-f - holds one document at a time: an endless string meets the memory limit cleanly" {
    case "$KP" in *asan*) skip "an address-space limit does not suit ASan" ;; esac
    cat > "$BATS_TEST_TMPDIR/endless" <<'SH'
printf '{"a":"'
tr '\0' a < /dev/zero
SH
    run --separate-stderr bash -c "sh '$BATS_TEST_TMPDIR/endless' | prlimit --as=$((400 << 20)) timeout 30 '$KP' -f -"
    expect_error_prefix "<stdin>: out of memory holding a document of "
}

@test "a pipe reports syntax errors at their line in the whole input" {
    run --separate-stderr bash -c "printf '{\"kind\":\"NodeList\",\"items\":[]}\n\n {\"kind\":\"NodeList\",\"items\":[{\"metadata\":{\"x\":01}}]}' | '$KP' -f -"
    expect_error "<stdin>: invalid JSON at line 3, column 47 (invalid number)"
}

@test "a directory as kubeconfig is named as such" {
    mkdir "$BATS_TEST_TMPDIR/dir"
    run --separate-stderr "$KP" --kubeconfig "$BATS_TEST_TMPDIR/dir" -A
    expect_error "kubeconfig '$BATS_TEST_TMPDIR/dir': is a directory"
}

@test "a directory as tokenFile is named as such" {
    start_server
    mkdir "$BATS_TEST_TMPDIR/dir"
    KC="$BATS_TEST_TMPDIR/kubeconfig"
    write_kubeconfig "$KC" "    tokenFile: $BATS_TEST_TMPDIR/dir"
    run --separate-stderr "$KP" --kubeconfig "$KC" -A
    expect_error "tokenFile '$BATS_TEST_TMPDIR/dir': is a directory"
}

@test "an empty directory as -f is named as such (a directory is read as kubectl reads one)" {
    mkdir "$BATS_TEST_TMPDIR/dir"
    run --separate-stderr "$KP" -f "$BATS_TEST_TMPDIR/dir"
    expect_error "$BATS_TEST_TMPDIR/dir: no .json, .yaml or .yml file in this directory (-R reads its subdirectories)"
}

@test "a directory as certificate-authority is named as such" {
    start_server
    mkdir "$BATS_TEST_TMPDIR/dir"
    run --separate-stderr "$KP" --server "$SERVER" --token "$TOKEN" \
        --certificate-authority "$BATS_TEST_TMPDIR/dir" -A
    expect_error_prefix "certificate-authority $BATS_TEST_TMPDIR/dir for "
    case "$stderr" in
    *": is a directory") ;;
    *) fail "$stderr" ;;
    esac
}

@test "a refused optional list quoting the token warns without it" {
    hostile --fault echo-credential:namespaces
    run --separate-stderr "$KP" --kubeconfig "$KC" -A
    assert_success
    no_secret "$TOKEN"
    assert_equal "$(grep -c 'Bearer \[REDACTED\]' <<<"$stderr")" 1
}
