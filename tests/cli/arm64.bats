#!/usr/bin/env bats
# arm64.bats - issue 29: kubectl-preempt for linux/arm64, cross-built with
# Debian's toolchain against Debian's arm64 libraries
# (packaging/cross-arm64.sh, make cross-arm64), runs under qemu-user:
# --version, and one analysis that must equal the native build's byte for
# byte.  Where gcc-aarch64-linux-gnu, qemu-user or debootstrap is missing
# (make test installs them where it can), or the arm64 libraries cannot
# be fetched, the test skips, saying which.  Also the krew manifest's
# arm64 entry and its homepage from HOMEPAGE.
#
# KP_BIN overrides the native binary compared with (default
# build/kubectl-preempt).

load '../helpers/common'

ARM="$ROOT/build-arm64"

need_arm64() {
    need aarch64-linux-gnu-gcc qemu-aarch64 debootstrap dpkg-deb
    run "$ROOT/packaging/cross-arm64.sh" "$ARM"
    [ "$status" -ne 3 ] || skip "linux/arm64: ${lines[0]}"
    assert_success
}

qemu_kp() {
    qemu-aarch64 -L "$ARM/sysroot" "$ARM/kubectl-preempt" "$@"
}

@test "linux/arm64: cross-built, it runs under qemu-user: --version and the example analysis" {
    need_arm64
    run file "$ARM/kubectl-preempt"
    assert_output --partial 'ARM aarch64'
    run --separate-stderr qemu_kp --version
    assert_success
    assert_line --index 0 --regexp '^kubectl-preempt [0-9]+\.[0-9]+\.[0-9]+$'
    assert_line --index 3 --regexp '^libcurl: libcurl/[0-9]'
    run --separate-stderr qemu_kp -f "$ROOT/examples/cluster.json" -o json
    assert_success
    local arm=$output
    run --separate-stderr "$KP" -f "$ROOT/examples/cluster.json" -o json
    assert_equal "$arm" "$output"
}

@test "the krew manifest: amd64 always, arm64 with its tarball, the release's homepage" {
    need sha256sum
    local d="$BATS_TEST_TMPDIR/dist"
    mkdir -p "$d"
    local v
    v=$(sed -n 's/^#define KP_VERSION "\(.*\)"/\1/p' "$ROOT/core/kp.h")
    echo amd64 >"$d/kubectl-preempt-$v-linux-amd64.tar.gz"
    run make -s -C "$ROOT" krew-manifest DISTDIR="$d" HOMEPAGE=https://example.org/kp
    assert_success
    run cat "$d/preempt.yaml"
    assert_line '  homepage: https://example.org/kp'
    assert_line "      uri: https://example.org/kp/releases/download/v$v/kubectl-preempt-$v-linux-amd64.tar.gz"
    refute_output --partial 'arch: arm64'
    refute_output --partial '#arm64'
    echo arm64 >"$d/kubectl-preempt-$v-linux-arm64.tar.gz"
    run make -s -C "$ROOT" krew-manifest DISTDIR="$d" HOMEPAGE=https://example.org/kp
    run cat "$d/preempt.yaml"
    assert_line '          arch: arm64'
    assert_line "      sha256: $(sha256sum "$d/kubectl-preempt-$v-linux-arm64.tar.gz" | cut -d' ' -f1)"
    assert_line "      sha256: $(sha256sum "$d/kubectl-preempt-$v-linux-amd64.tar.gz" | cut -d' ' -f1)"
    refute_output --partial '#arm64'
    refute_output --partial '@'
}
