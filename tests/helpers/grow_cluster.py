#!/usr/bin/env python3
"""grow_cluster.py KIND N - clusters that grow in one direction (issue 27,
"Inputs that grow"), as a JSON List on stdout:

  taints N      node n-all has N taints, all tolerated by the pending pod
                (N tolerations, matched by key, value and effect, in the
                reverse order), plus one untolerated PreferNoSchedule;
                n-score has the same N taints without that one (the pod
                goes there: TaintToleration Score); n-one-left has the
                first N-1 tolerated and one NoSchedule taint no toleration
                matches (Filter: untolerated)
  ports N       node n1 runs pods tcp-any (N/4 TCP ports on every IP),
                tcp-ip1 (N/4 TCP ports on 10.0.0.1), udp-any (N/4 UDP
                ports on every IP), priority 0; the pending pod (priority
                1000) wants N/4 other TCP ports on 10.0.0.2 plus 100/TCP on
                10.0.0.2 (taken on every IP by tcp-any), 16300/TCP on
                10.0.0.2 (tcp-ip1 has it on 10.0.0.1 only: no conflict) and
                40000/UDP on 10.0.0.3 (taken by udp-any): it preempts
                tcp-any and udp-any, not tcp-ip1.  `ports N K`: K such
                nodes n1..nK, each with its three pods (n1's are named as
                above, nI's with -nI appended)
  extres N P D  N nodes (cpu 4, 4 of an extended resource), each running
                P pods (priority 0, 100m cpu, one of the resource); D = 1:
                every node its own resource name (example.com/dev-I),
                D = 0: one name for all (example.com/dev); 20 pending pods
                (priority 1000, 3500m cpu), every other one asking for 1
                of the resource of node 7*k (or the shared one), which
                makes them preempt
  taintmix N    N nodes of 1 cpu: every fourth untainted, the others
                carrying one of three NoSchedule/NoExecute taints (gpu,
                spot, edge: several TaintToleration reasons before v1.34)
                and, on every other one, a PreferNoSchedule taint first;
                30 pending pods (cpu 2: no node fits them) tolerating spot
                alone, and 10 tolerating nothing
"""
import json
import sys

EFFECTS = ["NoSchedule", "NoExecute", "PreferNoSchedule"]


def node(name, taints=None, alloc=None):
    spec = {"taints": taints} if taints else {}
    return {"apiVersion": "v1", "kind": "Node",
            "metadata": {"name": name,
                         "labels": {"kubernetes.io/hostname": name}},
            "spec": spec,
            "status": {"allocatable": alloc or {"cpu": "4", "memory": "8Gi",
                                                "pods": "110"}}}


def pod(name, spec, node_name=None, uid=None):
    spec = dict(spec)
    spec.setdefault("containers", [{"name": "c", "image": "img",
                                     "resources": {"requests":
                                                   {"cpu": "100m"}}}])
    if node_name:
        spec["nodeName"] = node_name
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": "default",
                         "uid": uid or "uid-" + name,
                         "creationTimestamp": "2026-01-01T00:00:00Z"},
            "spec": spec,
            "status": {"phase": "Running" if node_name else "Pending"}}


def taints(n):
    ts = [{"key": "k%d" % i, "value": "v%d" % i, "effect": EFFECTS[i % 3]}
          for i in range(n)]
    tols = [{"key": t["key"], "operator": "Equal", "value": t["value"],
             "effect": t["effect"]} for t in reversed(ts)]
    return [
        node("n-all", ts + [{"key": "pref", "value": "x",
                             "effect": "PreferNoSchedule"}]),
        node("n-one-left", ts[:-1] + [{"key": "k0", "value": "other",
                                       "effect": "NoSchedule"}]),
        node("n-score", ts),
        pod("wants-tolerations", {"tolerations": tols}),
    ]


def ports(n, nodes=1):
    q = n // 4

    def hp(lo, hi, proto, ip=None):
        out = []
        for p in range(lo, hi):
            d = {"containerPort": p, "hostPort": p, "protocol": proto}
            if ip:
                d["hostIP"] = ip
            out.append(d)
        return out

    def spec(ports, prio=0):
        return {"priority": prio,
                "containers": [{"name": "c", "image": "img",
                                "ports": ports,
                                "resources": {"requests": {"cpu": "100m"}}}]}
    want = hp(3 * q + 1, 4 * q + 1, "TCP", "10.0.0.2")
    want += [{"containerPort": 100, "hostPort": 100, "hostIP": "10.0.0.2"},
             {"containerPort": 16300, "hostPort": q + 50,
              "hostIP": "10.0.0.2", "protocol": "TCP"},
             {"containerPort": 40000, "hostPort": 2 * q + 50,
              "hostIP": "10.0.0.3", "protocol": "UDP"}]
    items = []
    for i in range(1, nodes + 1):
        nn, sfx = "n%d" % i, "" if i == 1 else "-n%d" % i
        items += [
            node(nn),
            pod("tcp-any" + sfx, spec(hp(1, q + 1, "TCP")), nn),
            pod("tcp-ip1" + sfx, spec(hp(q + 1, 2 * q + 1, "TCP", "10.0.0.1")),
                nn),
            pod("udp-any" + sfx, spec(hp(2 * q + 1, 3 * q + 1, "UDP")), nn),
        ]
    return items + [pod("wants-ports", spec(want, 1000))]


def extres(n, per_node, distinct):
    items = []
    for i in range(n):
        res = "example.com/dev-%d" % i if distinct else "example.com/dev"
        items.append(node("n%d" % i, alloc={"cpu": "4", "memory": "8Gi",
                                            "pods": "110", res: "4"}))
        for j in range(per_node):
            items.append(pod("r%d-%d" % (i, j), {
                "priority": 0,
                "containers": [{"name": "c", "image": "img", "resources": {
                    "requests": {"cpu": "100m", res: "1"},
                    "limits": {res: "1"}}}]}, "n%d" % i))
    for k in range(20):
        req = {"cpu": "3500m"}
        if k % 2 == 0:
            res = ("example.com/dev-%d" % ((7 * k) % n) if distinct
                   else "example.com/dev")
            req[res] = "1"
        items.append(pod("pending-%d" % k, {
            "priority": 1000,
            "containers": [{"name": "c", "image": "img", "resources": {
                "requests": req,
                "limits": {r: v for r, v in req.items() if r != "cpu"}}}]}))
    return items


def taintmix(n):
    kinds = [("gpu", "present", "NoSchedule"), ("spot", "true", "NoExecute"),
             ("edge", "zone-a", "NoSchedule")]
    items = []
    for i in range(n):
        name = "n%d" % i
        if i % 4 == 3:
            items.append(node(name, None, {"cpu": "1", "memory": "8Gi",
                                           "pods": "110"}))
            continue
        k, v, e = kinds[i % 3]
        ts = [{"key": k, "value": v, "effect": e}]
        if i % 2:
            ts.insert(0, {"key": "soft", "value": "x",
                          "effect": "PreferNoSchedule"})
        items.append(node(name, ts, {"cpu": "1", "memory": "8Gi",
                                     "pods": "110"}))
    for j in range(40):
        tols = [] if j >= 30 else [{"key": "spot", "operator": "Exists"}]
        items.append(pod("pending-%d" % j, {
            "tolerations": tols,
            "containers": [{"name": "c", "image": "img", "resources": {
                "requests": {"cpu": "2"}}}]}))
    return items


def main():
    kind, args = sys.argv[1], [int(a) for a in sys.argv[2:]]
    items = {"taints": taints, "ports": ports,
             "extres": extres, "taintmix": taintmix}[kind](*args)
    json.dump({"apiVersion": "v1", "kind": "List", "items": items},
              sys.stdout)


main()
