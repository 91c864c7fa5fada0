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


def main():
    kind, n = sys.argv[1], int(sys.argv[2])
    items = {"taints": taints}[kind](n)
    json.dump({"apiVersion": "v1", "kind": "List", "items": items},
              sys.stdout)


main()
