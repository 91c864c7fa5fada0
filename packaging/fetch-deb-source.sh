#!/bin/sh
# fetch-deb-source.sh PACKAGE VERSION DIR - unpack Debian's source package
# PACKAGE at VERSION (the version of the -dev package installed, so the
# static library matches the headers) into DIR/src, for `make dist`.
#
# apt-get source needs deb-src entries; this makes its own, beside DIR,
# from the deb entries of the system (the same mirror and suite), and
# never touches the system's apt configuration.  Nothing of the fetched
# source enters the repository.
set -eu
pkg=$1 version=$2 dir=$3
mkdir -p "$dir/lists/partial" "$dir/get"
dir=$(cd "$dir" && pwd)

# deb-src lines for the system's deb sources (one-line and deb822 forms)
{
    cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
        sed -n 's/^[[:space:]]*deb[[:space:]]/deb-src /p'
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        awk '
            /^Types:/ { deb = ($0 ~ /[[:space:]]deb([[:space:]]|$)/) }
            /^URIs:/ { sub(/^URIs:[[:space:]]*/, ""); uris = $0 }
            /^Suites:/ { sub(/^Suites:[[:space:]]*/, ""); suites = $0 }
            /^Components:/ { sub(/^Components:[[:space:]]*/, ""); comps = $0 }
            /^$/ { flush() }
            END { flush() }
            function flush(   n, s, i) {
                if (deb && uris != "") {
                    n = split(suites, s, " ")
                    for (i = 1; i <= n; i++)
                        print "deb-src " uris " " s[i] " " comps
                }
                deb = 0; uris = ""; suites = ""; comps = ""
            }' "$f"
    done
} | sort -u >"$dir/sources.list"
[ -s "$dir/sources.list" ] || {
    echo "fetch-deb-source.sh: no Debian deb sources configured" >&2
    exit 1
}

apt() {
    apt-get -q -o Dir::Etc::SourceList="$dir/sources.list" \
        -o Dir::Etc::SourceParts=/dev/null \
        -o Dir::State::Lists="$dir/lists" -o Debug::NoLocking=1 "$@"
}
apt update >"$dir/apt.log" 2>&1 || {
    cat "$dir/apt.log" >&2
    exit 1
}
(cd "$dir/get" && apt source --download-only "$pkg=$version") \
    >>"$dir/apt.log" 2>&1 || {
    cat "$dir/apt.log" >&2
    exit 1
}
rm -rf "$dir/src"
dpkg-source --no-check -x "$dir"/get/*.dsc "$dir/src" >>"$dir/apt.log" 2>&1
echo "$dir/src"
