#!/usr/bin/env bats
# dist.bats - the release: `make dist`'s binary needs only the C library
# and libcurl at run time (cJSON and libyaml are linked in), runs from
# the extracted tarball, and the krew manifest points at that tarball;
# `make deb`'s package has the right Depends and runs once unpacked into
# a temporary root.  dist/ is made first when it is missing (that fetches
# Debian's cJSON source package); the tests skip, saying why, when that
# fails or a tool is missing.
#
# KP_BIN overrides the binary the reports are compared with.

load '../helpers/common'

VERSION=$(sed -n 's/^#define KP_VERSION "\(.*\)"/\1/p' "$ROOT/core/kp.h")
TARBALL="$ROOT/dist/kubectl-preempt-$VERSION-linux-amd64.tar.gz"
DEB="$ROOT/dist/kubectl-preempt_${VERSION}_amd64.deb"
CLUSTER="$ROOT/examples/cluster.json"

setup_file() {
    if [ ! -f "$TARBALL" ] || [ ! -f "$DEB" ]; then
        make -C "$ROOT" --no-print-directory dist deb \
            >"$BATS_FILE_TMPDIR/make.log" 2>&1 || true
    fi
}

need_tarball() {
    [ -f "$TARBALL" ] || skip "no $TARBALL (make dist failed: see its log)"
}

need_deb() {
    [ -f "$DEB" ] || skip "no $DEB (make deb failed: see its log)"
}

unpack() {
    tar -C "$BATS_TEST_TMPDIR" -xzf "$TARBALL"
    BIN="$BATS_TEST_TMPDIR/kubectl-preempt-$VERSION/kubectl-preempt"
}

@test "the dist binary needs only libc, libm, libpthread, libcurl and the loader" {
    need readelf
    need_tarball
    unpack
    run sh -c "readelf -d '$BIN' | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'"
    assert_success
    local lib
    for lib in $output; do
        case $lib in
        libc.so.* | libm.so.* | libpthread.so.* | libcurl.so.* | ld-linux*) ;;
        *) fail "unexpected dynamic dependency: $lib" ;;
        esac
    done
    assert_output --partial 'libcurl.so.4'
    refute_output --partial 'cjson'
    refute_output --partial 'yaml'
}

@test "ldd of the dist binary resolves everything, without cJSON or libyaml" {
    need ldd
    need_tarball
    unpack
    run ldd "$BIN"
    assert_success
    refute_output --partial 'not found'
    refute_output --partial 'libcjson'
    refute_output --partial 'libyaml'
}

@test "the binary of the extracted tarball gives the report of the build" {
    need_tarball
    unpack
    run --separate-stderr "$KP" -f "$CLUSTER" -o wide
    local want=$output
    run --separate-stderr "$BIN" -f "$CLUSTER" -o wide
    assert_success
    assert_equal "$output" "$want"
    run --separate-stderr "$BIN" version
    assert_success
    assert_line --index 0 "kubectl-preempt $VERSION"
    assert_line --regexp '^cJSON: [0-9]+\.[0-9]+\.[0-9]+$'
    assert_line --regexp '^libyaml: [0-9]+\.[0-9]+\.[0-9]+$'
    [ -x "$BATS_TEST_TMPDIR/kubectl-preempt-$VERSION/kubectl_complete-preempt" ]
}

@test "the krew manifest names the tarball, its sha256 and the binary in it" {
    need_tarball
    local m="$ROOT/dist/preempt.yaml" sha
    sha=$(sha256sum "$TARBALL" | cut -d' ' -f1)
    run grep -F "sha256: $sha" "$m"
    assert_success
    run grep -F "kubectl-preempt-$VERSION-linux-amd64.tar.gz" "$m"
    assert_success
    run grep -F "from: kubectl-preempt-$VERSION/kubectl-preempt" "$m"
    assert_success
    tar -tzf "$TARBALL" | grep -qx "kubectl-preempt-$VERSION/kubectl-preempt"
}

@test "the .deb depends on libc6 and libcurl4 only" {
    need dpkg-deb
    need_deb
    run dpkg-deb -f "$DEB" Depends
    assert_success
    assert_output --regexp '^libc6 \(>= [0-9.]+\), libcurl4 \(>= [0-9.]+\)$'
}

@test "the .deb unpacked into a temporary root: binary, helper, man page, completions" {
    need dpkg-deb
    need_deb
    local r="$BATS_TEST_TMPDIR/root"
    dpkg-deb -x "$DEB" "$r"
    [ -x "$r/usr/bin/kubectl_complete-preempt" ]
    [ -f "$r/usr/share/man/man1/kubectl-preempt.1.gz" ]
    [ -f "$r/usr/share/bash-completion/completions/kubectl-preempt" ]
    [ -f "$r/usr/share/zsh/vendor-completions/_kubectl-preempt" ]
    [ -f "$r/usr/share/fish/vendor_completions.d/kubectl-preempt.fish" ]
    run --separate-stderr "$KP" -f "$CLUSTER"
    local want=$output
    run --separate-stderr "$r/usr/bin/kubectl-preempt" -f "$CLUSTER"
    assert_success
    assert_equal "$output" "$want"
}

@test "the .deb installs with dpkg into a temporary root" {
    need dpkg fakeroot
    need_deb
    local r="$BATS_TEST_TMPDIR/inst"
    mkdir -p "$r/var/lib/dpkg/updates" "$r/var/lib/dpkg/info"
    touch "$r/var/lib/dpkg/status"
    run fakeroot dpkg --root="$r" --force-depends --force-not-root \
        --log=/dev/null -i "$DEB"
    assert_success
    run --separate-stderr "$r/usr/bin/kubectl-preempt" version
    assert_success
    assert_line --index 0 "kubectl-preempt $VERSION"
}
