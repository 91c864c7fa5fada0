#!/usr/bin/env bash
# bench/live_rss.sh SNAPSHOT BIN [BIN...] - peak RSS of a live run.
#
# Serves the objects of SNAPSHOT (a kubectl List, e.g. bench/data/
# medium.json from bench/gen.c) through tests/helpers/fake_apiserver.py
# (pages of 500, gzip, HTTPS on 127.0.0.1) and runs each BIN on it with
# ARGS (default "-A -o json"; add "--scheduler-name none" to load only)
# under /usr/bin/time -v: prints peak RSS and wall time, and whether the
# reports of all BINs are byte-identical.  Not a timed test: the Python
# server is the slow part.  WORK (default a temporary directory) holds
# the per-resource fixture files (kept for the next run), the PKI and
# the reports.
set -eu
[ $# -ge 2 ] || { echo "usage: $0 SNAPSHOT BIN [BIN...]" >&2; exit 2; }
root="$(cd "$(dirname "$0")/.." && pwd)"
snapshot=$1
shift
work=${WORK:-$(mktemp -d /tmp/kp-live-rss-XXXXXX)}
read -r -a args <<<"${ARGS:--A -o json}"
# shellcheck source=bench/fake_server.bash
. "$root/bench/fake_server.bash"
bench_serve "$snapshot" "$work"
server=$SERVER_PID
trap 'kill $server 2>/dev/null || true' EXIT

i=0
for bin in "$@"; do
    i=$((i + 1))
    /usr/bin/time -v "$bin" --kubeconfig "$work/kubeconfig" "${args[@]}" \
        >"$work/report-$i.json" 2>"$work/time-$i.txt" || true
    rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' \
        "$work/time-$i.txt")
    wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' \
        "$work/time-$i.txt")
    status=$(sed -n 's/.*Exit status: //p' "$work/time-$i.txt")
    printf '%s: peak RSS %s KB (%s MB), wall %s, exit %s\n' "$bin" "$rss" \
        "$((rss / 1024))" "$wall" "$status"
    if [ "$i" -gt 1 ]; then
        if cmp -s "$work/report-1.json" "$work/report-$i.json"; then
            echo "  report identical to the first binary's"
        else
            echo "  report DIFFERS from the first binary's"
        fi
    fi
done
