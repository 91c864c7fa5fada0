#!/bin/sh
# cross-arm64.sh [DIR] - kubectl-preempt for linux/arm64 (Graviton,
# Ampere, arm64 laptops), cross-built with Debian's toolchain
# (gcc-aarch64-linux-gnu) against Debian's own arm64 libraries: libcurl,
# cJSON and libyaml with what they depend on, unpacked into DIR/sysroot
# (debootstrap --foreign fetches them from the machine's Debian release,
# nothing is run).  The binary is DIR/kubectl-preempt (DIR: build-arm64);
# it runs under qemu-user with: qemu-aarch64 -L DIR/sysroot BINARY.
#
# Exit 3 when a tool is missing or the libraries cannot be fetched (the
# test skips then, saying why); any other failure is the build's.
set -eu
dir=${1:-build-arm64}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
root=$dir/sysroot

for t in aarch64-linux-gnu-gcc debootstrap dpkg-deb; do
    command -v "$t" >/dev/null 2>&1 || {
        echo "cross-arm64: $t is missing (make test-deps installs" \
             "gcc-aarch64-linux-gnu, qemu-user and debootstrap)" >&2
        exit 3
    }
done

if [ ! -f "$root/.kp-sysroot" ]; then
    rm -rf "$root"
    # the host's release: the same library versions as the amd64 build
    suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-stable}")
    check=--no-check-gpg
    if command -v gpgv >/dev/null 2>&1 &&
        [ -f /usr/share/keyrings/debian-archive-keyring.gpg ]; then
        check=
    fi
    # shellcheck disable=SC2086 # $check is one flag or none
    if ! debootstrap --arch=arm64 --foreign --variant=minbase $check \
        --include=libcurl4-openssl-dev,libcjson-dev,libyaml-dev \
        "$suite" "$root" ${DEBIAN_MIRROR:-} >"$dir/debootstrap.log" 2>&1
    then
        echo "cross-arm64: debootstrap could not fetch the arm64" \
             "libraries (see $dir/debootstrap.log)" >&2
        rm -rf "$root"
        exit 3
    fi
    # --foreign unpacks the base system only: unpack every package
    for deb in "$root"/var/cache/apt/archives/*.deb; do
        dpkg-deb -x "$deb" "$root"
    done
    touch "$root/.kp-sysroot"
fi

here=$(cd "$(dirname "$0")/.." && pwd)
make -C "$here" --no-print-directory BUILD="$dir/obj" \
    CC="aarch64-linux-gnu-gcc --sysroot=$root" "$dir/obj/kubectl-preempt"
cp "$dir/obj/kubectl-preempt" "$dir/kubectl-preempt"
echo "$dir/kubectl-preempt"
