# bench/fake_server.bash - what bench/live_rss.sh and
# bench/record_footprint.sh share: serve a generated cluster through
# tests/helpers/fake_apiserver.py.  Source it, then
#     bench_serve SNAPSHOT WORK [fake_apiserver.py flags...]
# splits SNAPSHOT (a kubectl List) into WORK/fixtures (one List per
# resource, kept while newer than SNAPSHOT), makes a PKI, starts the
# server on 127.0.0.1 (HTTPS, token "bench"), writes WORK/kubeconfig and
# sets SERVER_PID; the caller stops the server (kill "$SERVER_PID").

bench_serve() {
    local snapshot=$1 work=$2 root
    shift 2
    root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
    mkdir -p "$work/fixtures"
    [ "$work/fixtures/pods.json" -nt "$snapshot" ] ||
    python3 - "$snapshot" "$work/fixtures" <<'PY'
import json, sys
names = {"Node": "nodes", "Pod": "pods",
         "PodDisruptionBudget": "poddisruptionbudgets",
         "PriorityClass": "priorityclasses", "Namespace": "namespaces"}
out = {}
for it in json.load(open(sys.argv[1]))["items"]:
    out.setdefault(names.get(it.get("kind"), "other"), []).append(it)
for name, items in out.items():
    with open("%s/%s.json" % (sys.argv[2], name), "w") as f:
        json.dump({"kind": "List", "apiVersion": "v1", "items": items}, f)
    print("  %s: %d" % (name, len(items)), file=sys.stderr)
PY
    sh "$root/tests/helpers/make_certs.sh" "$work/pki" >/dev/null 2>&1
    rm -f "$work/port"
    python3 "$root/tests/helpers/fake_apiserver.py" --certs "$work/pki" \
        --fixtures "$work/fixtures" --port-file "$work/port" \
        --token bench --lifetime 3600 "$@" >/dev/null 2>&1 &
    SERVER_PID=$!
    for _ in $(seq 600); do
        [ -s "$work/port" ] && break
        sleep 0.1
    done
    cat >"$work/kubeconfig" <<KC
apiVersion: v1
kind: Config
current-context: bench
clusters:
- name: fake
  cluster:
    server: https://127.0.0.1:$(cat "$work/port")
    certificate-authority: $work/pki/ca.crt
contexts:
- name: bench
  context: {cluster: fake, user: bench}
users:
- name: bench
  user: {token: bench}
KC
    chmod 600 "$work/kubeconfig"
}
