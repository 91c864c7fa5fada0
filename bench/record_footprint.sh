#!/usr/bin/env bash
# bench/record_footprint.sh SNAPSHOT [SECONDS] [EVENTS] - what
# "kubectl-preempt record" costs on a cluster: serves SNAPSHOT's objects
# through tests/helpers/fake_apiserver.py (as bench/live_rss.sh does),
# records for SECONDS (default 30) while EVENTS pod changes (default
# 10000) are streamed through the watches, and prints the recorder's
# peak RSS (/usr/bin/time -v), the snapshot's size, the changes' bytes
# per event, and the peak RSS and wall time of reading the recording
# back (-f DIR --scheduler-name none: load only).  Not a timed test.
set -eu
[ $# -ge 1 ] || { echo "usage: $0 SNAPSHOT [SECONDS] [EVENTS]" >&2; exit 2; }
root="$(cd "$(dirname "$0")/.." && pwd)"
snapshot=$1
seconds=${2:-30}
nevents=${3:-10000}
bin=${BIN:-$root/build/kubectl-preempt}
work=${WORK:-$(mktemp -d /tmp/kp-record-XXXXXX)}
mkdir -p "$work"
: >"$work/events.jsonl"
# shellcheck source=bench/fake_server.bash
. "$root/bench/fake_server.bash"
bench_serve "$snapshot" "$work" --watch-events "$work/events.jsonl"
server=$SERVER_PID
trap 'kill $server 2>/dev/null || true' EXIT
rm -rf "$work/rec"
/usr/bin/time -v -o "$work/record.time" "$bin" record \
    --kubeconfig "$work/kubeconfig" --dir "$work/rec" 2>"$work/record.err" &
rec=$!
for _ in $(seq 6000); do
    compgen -G "$work/rec/snapshot-*.json" >/dev/null && break
    sleep 0.1
done
# EVENTS pod changes, spread over the recording
python3 - "$work/fixtures/pods.json" "$work/events.jsonl" "$nevents" \
    "$seconds" <<'PY'
import json, sys, time
pods = json.load(open(sys.argv[1]))["items"]
n, secs = int(sys.argv[3]), float(sys.argv[4])
with open(sys.argv[2], "a") as f:
    for i in range(n):
        p = dict(pods[i % len(pods)])
        p["metadata"] = dict(p["metadata"], labels={"change": str(i)})
        f.write(json.dumps({"resource": "pods", "type": "MODIFIED",
                            "object": p}) + "\n")
        if i % 100 == 99:
            f.flush()
            time.sleep(secs * 0.8 / (n / 100))
PY
sleep $((seconds / 5 + 1))
# the recorder is /usr/bin/time's child: it gets the signal
pkill -TERM -P $rec
wait $rec || true
snap=$(ls "$work"/rec/snapshot-*.json | head -1)
changes=$(cat "$work"/rec/changes-*.jsonl | wc -c)
lines=$(cat "$work"/rec/changes-*.jsonl | wc -l)
echo "cluster: $(du -m "$snapshot" | cut -f1) MB List"
echo "recorder peak RSS: $(awk '/Maximum resident/ {print int($6/1024)}' \
    "$work/record.time") MB"
echo "snapshot: $(du -m "$snap" | cut -f1) MB"
echo "changes: $lines events, $((changes / (lines > 0 ? lines : 1))) bytes each"
/usr/bin/time -v -o "$work/read.time" "$bin" -f "$work/rec" \
    --scheduler-name none -o json >/dev/null 2>"$work/read.err" || true
echo "read back (-f DIR, load only): peak RSS $(awk '/Maximum resident/ \
    {print int($6/1024)}' "$work/read.time") MB, wall $(awk \
    '/Elapsed/ {print $8}' "$work/read.time")"
