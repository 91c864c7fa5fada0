"""fake_discovery.py - API discovery for fake_apiserver.py.

What a real kubectl needs before it lists anything: /version, /api,
/apis and each group version's APIResourceList (legacy discovery: the
aggregated form is only sent to clients that ask for it, and kubectl
falls back to this one), for the resources fake_apiserver.py serves.
Per-namespace list paths (/api/v1/namespaces/NS/pods) map to the
cluster-wide list and the namespace to keep.  Standard library only.
"""

import re

VERSION = {
    "major": "1", "minor": "37", "gitVersion": "v1.37.0",
    "gitCommit": "0000000000000000000000000000000000000000",
    "gitTreeState": "clean", "buildDate": "2026-01-01T00:00:00Z",
    "goVersion": "go1.25.0", "compiler": "gc", "platform": "linux/amd64",
}

# group version -> [(resource, kind, namespaced, short names)]
RESOURCES = {
    "v1": [
        ("nodes", "Node", False, ["no"]),
        ("pods", "Pod", True, ["po"]),
        ("namespaces", "Namespace", False, ["ns"]),
        ("persistentvolumeclaims", "PersistentVolumeClaim", True, ["pvc"]),
        ("persistentvolumes", "PersistentVolume", False, ["pv"]),
        ("events", "Event", True, ["ev"]),
    ],
    "policy/v1": [
        ("poddisruptionbudgets", "PodDisruptionBudget", True, ["pdb"]),
    ],
    "scheduling.k8s.io/v1": [
        ("priorityclasses", "PriorityClass", False, ["pc"]),
    ],
    "storage.k8s.io/v1": [
        ("storageclasses", "StorageClass", False, ["sc"]),
        ("csinodes", "CSINode", False, []),
    ],
}


def _resource_list(gv):
    return {
        "kind": "APIResourceList", "apiVersion": "v1", "groupVersion": gv,
        "resources": [{
            "name": name, "singularName": kind.lower(),
            "namespaced": namespaced, "kind": kind,
            "verbs": ["get", "list", "watch"], "shortNames": short,
        } for name, kind, namespaced, short in RESOURCES[gv]],
    }


def _group_list():
    groups = []
    for gv in RESOURCES:
        if "/" not in gv:
            continue
        name, version = gv.split("/")
        ref = {"groupVersion": gv, "version": version}
        groups.append({"name": name, "versions": [ref],
                       "preferredVersion": ref})
    return {"kind": "APIGroupList", "apiVersion": "v1", "groups": groups}


def document(path, host):
    """The discovery document at path, or None."""
    if path == "/version":
        return VERSION
    if path == "/api":
        return {"kind": "APIVersions", "versions": ["v1"],
                "serverAddressByClientCIDRs": [
                    {"clientCIDR": "0.0.0.0/0", "serverAddress": host}]}
    if path == "/apis":
        return _group_list()
    if path == "/api/v1":
        return _resource_list("v1")
    m = re.match(r"^/apis/([^/]+/[^/]+)$", path)
    if m and m.group(1) in RESOURCES:
        return _resource_list(m.group(1))
    return None


NAMESPACED = re.compile(
    r"^(/api/v1|/apis/[^/]+/[^/]+)/namespaces/([^/]+)/([^/]+)$")


def namespaced_list(path):
    """(cluster-wide list path, namespace) for a namespaced list path."""
    m = NAMESPACED.match(path)
    if not m:
        return None
    prefix, ns, resource = m.groups()
    gv = prefix[len("/apis/"):] if prefix.startswith("/apis/") else "v1"
    for name, _, namespaced, _ in RESOURCES.get(gv, []):
        if name == resource and namespaced:
            return prefix + "/" + resource, ns
    return None
