#!/usr/bin/env python3
"""make_corpus.py - rebuild tests/fuzz/corpus/ from the project's fixtures.

Run from the top directory: python3 tests/fuzz/make_corpus.py
Seeds come from examples/cluster.json, the "snapshot" member of
tests/cases/**/*.json, tests/fixtures/live/*.json, the string literals of
tests/unit/api/test_quantity.c, api/test_labels.c, live/test_kubeconfig.c,
tests/fixtures/volumes/, tests/fixtures/add/ and examples/release.yaml
(--add manifests, also for the YAML converter), and a few hand-written
inputs below.  Each seed is named after its source and kept under 64 KiB;
the set is deterministic.

    python3 tests/fuzz/make_corpus.py                 # every target
    python3 tests/fuzz/make_corpus.py fuzz_yaml ...   # only these

With build-fuzz/fuzz_* built (make -f tests/fuzz/Makefile.inc fuzz-build),
each target's candidates are then reduced with libFuzzer's -merge=1
-use_counters=0 to those that add edge coverage, which keeps every
directory to a few dozen files (they keep their descriptive names).
"""
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

OUT = "tests/fuzz/corpus"
MAX = 65536


def c_literals(path):
    """Each run of adjacent C string literals in path, decoded."""
    src = open(path, encoding="utf-8").read()
    out = []
    for run in re.findall(r'((?:"(?:[^"\\\n]|\\.)*"\s*)+)', src):
        parts = re.findall(r'"((?:[^"\\\n]|\\.)*)"', run)
        text = "".join(parts)
        out.append(bytes(text, "utf-8").decode("unicode_escape")
                   .encode("latin-1"))
    return out


class Corpus:
    def __init__(self, target):
        self.dir = os.path.join(OUT, target)
        shutil.rmtree(self.dir, ignore_errors=True)
        os.makedirs(self.dir)
        self.seen = set()

    def add(self, name, data):
        if isinstance(data, str):
            data = data.encode("utf-8")
        digest = hashlib.sha1(data).hexdigest()
        if len(data) > MAX or digest in self.seen:
            return
        self.seen.add(digest)
        name = re.sub(r"[^A-Za-z0-9_.-]+", "_", name)[:64]
        with open(os.path.join(self.dir, name), "wb") as f:
            f.write(data)

    def count(self):
        return len(os.listdir(self.dir))


def compact(obj):
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def walk(obj):
    """Every (key, value) pair of every object in obj, depth first."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield k, v
            yield from walk(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from walk(v)


def case_files():
    return sorted(glob.glob("tests/cases/**/*.json", recursive=True))


def load_seeds():
    """fuzz_load: odd last byte is queue mode, even is independent."""
    c = Corpus("fuzz_load")
    cluster = open("examples/cluster.json", "rb").read()
    c.add("example_cluster_queue.json", cluster.rstrip())
    c.add("example_cluster_independent.json", cluster.rstrip() + b"\n")
    live = b""
    for path in sorted(glob.glob("tests/fixtures/live/*.json")):
        data = open(path, "rb").read()
        live += data
        c.add("live_" + os.path.basename(path), data.rstrip() + b"\n")
    c.add("live_concatenated.json", live.rstrip())
    # Every case row in both modes (-merge=1 then keeps those that add
    # coverage).
    for path in case_files():
        snap = json.load(open(path)).get("snapshot")
        if snap is None:
            continue
        base = path.split(os.sep)[2] + "_" + \
            os.path.splitext(os.path.basename(path))[0][:40]
        c.add(base + "_q", compact(snap))
        c.add(base + "_i", compact(snap) + "\n")
    pod = {"kind": "Pod", "metadata": {"name": "p", "namespace": "d"},
           "spec": {"containers": [{"name": "c", "resources": {
               "requests": {"cpu": "1", "memory": "1Gi"}}}]}}
    node = {"kind": "Node", "metadata": {"name": "n"}, "status": {
        "allocatable": {"cpu": "2", "memory": "2Gi", "pods": "110"}}}
    c.add("hand_single_pod.json", compact(pod))
    c.add("hand_concatenated.json", compact(node) + "\n" + compact(pod))
    c.add("hand_podlist.json", compact({"kind": "PodList", "items": [
        {k: v for k, v in pod.items() if k != "kind"}]}) + "\n")
    c.add("hand_empty_list.json", '{"kind":"List","items":[]}')
    c.add("hand_priority.json", compact({"kind": "List", "items": [
        {"kind": "PriorityClass", "metadata": {"name": "hi"},
         "value": 1000, "globalDefault": True,
         "preemptionPolicy": "Never"},
        {"kind": "PodDisruptionBudget", "metadata": {"name": "b",
         "namespace": "d"}, "spec": {"selector": {"matchLabels":
         {"a": "b"}}}, "status": {"disruptionsAllowed": 0}},
        node, pod]}))
    # Namespaces and a namespaceSelector, in both modes
    ns = b""
    for name in ("cluster.json", "namespaces.json"):
        ns += open(os.path.join("tests/fixtures/namespaces", name),
                   "rb").read()
    c.add("hand_namespaces_q.json", ns.rstrip())
    c.add("hand_namespaces_i.json", ns.rstrip() + b"\n")
    # Volumes: PVCs, PVs, StorageClasses, CSINodes and pods that use them
    vol = open("tests/fixtures/volumes/cluster.json", "rb").read()
    c.add("volumes_cluster_q.json", vol.rstrip())
    c.add("volumes_cluster_i.json", vol.rstrip() + b"\n")
    # Scoring: pods that fit on several nodes, so that the Score plugins
    # run (PodTopologySpread ScheduleAnyway, preferred node affinity,
    # preferred pod (anti-)affinity, default spreading of owned pods).
    for suffix, text in (("q", compact(scoring_snapshot())),
                         ("i", compact(scoring_snapshot()) + "\n")):
        c.add("hand_scoring_%s.json" % suffix, text)
    return c.count()


def scoring_snapshot():
    def node(name, zone, cpu):
        return {"kind": "Node", "metadata": {"name": name, "labels": {
            "kubernetes.io/hostname": name,
            "topology.kubernetes.io/zone": zone, "disk": "ssd" if
            zone == "a" else "hdd", "gen": "3" if cpu > 4 else "2"}},
            "status": {"allocatable": {"cpu": str(cpu), "memory": "16Gi",
                                       "pods": "110"}}}

    def pod(name, labels, spec, node_name=None, owner=None):
        md = {"name": name, "namespace": "web", "labels": labels,
              "creationTimestamp": "2026-01-01T00:00:%02dZ" % len(name)}
        if owner:
            md["ownerReferences"] = [{"kind": "ReplicaSet", "name": owner,
                                      "controller": True, "uid": "u1"}]
        spec = dict(spec, containers=[{"name": "c", "resources": {
            "requests": {"cpu": "500m", "memory": "256Mi"}}}])
        st = {"phase": "Pending"}
        if node_name:
            spec["nodeName"] = node_name
            st = {"phase": "Running",
                  "startTime": "2026-01-01T00:01:00Z"}
        return {"kind": "Pod", "metadata": md, "spec": spec, "status": st}

    web = {"app": "web"}
    spread = [{"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone",
               "whenUnsatisfiable": "ScheduleAnyway",
               "labelSelector": {"matchLabels": web},
               "nodeTaintsPolicy": "Honor"},
              {"maxSkew": 2, "topologyKey": "kubernetes.io/hostname",
               "whenUnsatisfiable": "ScheduleAnyway",
               "labelSelector": {"matchExpressions": [
                   {"key": "app", "operator": "In", "values": ["web"]}]},
               "matchLabelKeys": ["pod-template-hash"]}]
    preferred = {"nodeAffinity": {
        "preferredDuringSchedulingIgnoredDuringExecution": [
            {"weight": 80, "preference": {"matchExpressions": [
                {"key": "disk", "operator": "In", "values": ["ssd"]}]}},
            {"weight": 20, "preference": {"matchExpressions": [
                {"key": "gen", "operator": "Gt", "values": ["2"]},
                {"key": "spot", "operator": "DoesNotExist"}]}}]},
        "podAntiAffinity": {
            "preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 50, "podAffinityTerm": {
                    "topologyKey": "kubernetes.io/hostname",
                    "labelSelector": {"matchLabels": web}}}]},
        "podAffinity": {
            "preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 10, "podAffinityTerm": {
                    "topologyKey": "topology.kubernetes.io/zone",
                    "labelSelector": {"matchLabels": {"app": "db"}}}}]}}
    items = [node("n1", "a", 4), node("n2", "a", 8), node("n3", "b", 8),
             node("n4", "c", 2),
             pod("web-1", dict(web, **{"pod-template-hash": "h"}), {},
                 "n1", "web-rs"),
             pod("web-2", dict(web, **{"pod-template-hash": "h"}), {},
                 "n2", "web-rs"),
             pod("db-1", {"app": "db"}, {}, "n3"),
             pod("web-3", dict(web, **{"pod-template-hash": "h"}),
                 {"topologySpreadConstraints": spread,
                  "affinity": preferred}),
             pod("web-4", dict(web, **{"pod-template-hash": "h"}),
                 {"affinity": preferred}, owner="web-rs"),
             pod("web-5", web, {"topologySpreadConstraints": spread[:1]},
                 owner="web-rs")]
    return {"kind": "List", "items": items}


def quantity_seeds():
    c = Corpus("fuzz_quantity")
    lits = [l for l in c_literals("tests/unit/api/test_quantity.c")
            if b"%" not in l and b"#" not in l and b"\n" not in l]
    for i, lit in enumerate(lits):
        c.add("q%03d_%s" % (i, lit.decode("latin-1")), lit)
    for i, lit in enumerate([b"100m", b"1.5Gi", b"2e3", b"1E-3",
                             b"123456789012345678901234567890",
                             b" 1Ki ", b"1\xc2\xa0", b"\xe3\x80\x801"]):
        c.add("hand%02d" % i, lit)
    return c.count()


def selector_seeds():
    """fuzz_selector: first byte '0' string, '1' LabelSelector, '2'
    NodeSelector; JSON may carry "labels"."""
    c = Corpus("fuzz_selector")
    strings = ["app=web", "app==web", "app!=web", "app", "!app",
               "tier in (frontend,backend)", "tier notin ( a , b )",
               "app=web,tier!=db,!legacy,env in (prod)",
               "example.com/role=x", "a=", "in in (in)", "app=web,"]
    for i, s in enumerate(strings):
        c.add("str%02d_%s" % (i, s), "0" + s)
    label_sel = []
    node_sel = []
    for lit in c_literals("tests/unit/api/test_labels.c"):
        try:
            obj = json.loads(lit)
        except ValueError:
            continue
        if isinstance(obj, dict) and "nodeSelectorTerms" in obj:
            node_sel.append(obj)
        elif isinstance(obj, dict) and ("matchLabels" in obj or
                                        "matchExpressions" in obj):
            label_sel.append(obj)
    for path in case_files():
        snap = json.load(open(path)).get("snapshot")
        for key, val in walk(snap):
            if key in ("selector", "labelSelector") and \
                    isinstance(val, dict):
                label_sel.append(val)
            elif key == "requiredDuringSchedulingIgnoredDuringExecution" \
                    and isinstance(val, dict):
                node_sel.append(val)
    labels = {"app": "web", "tier": "frontend", "version": "10"}
    for i, sel in enumerate(label_sel[:24]):
        if i % 2:
            sel = dict(sel, labels=labels)
        c.add("label%02d" % i, "1" + compact(sel))
    for i, sel in enumerate(node_sel[:24]):
        if i % 2:
            sel = dict(sel, labels=labels)
        c.add("node%02d" % i, "2" + compact(sel))
    return c.count()


def kubeconfig_seeds():
    c = Corpus("fuzz_kubeconfig")
    keys = (b"clusters", b"users", b"contexts", b"current-context")
    for i, lit in enumerate(c_literals("tests/unit/live/test_kubeconfig.c")):
        if b"\n" in lit and any(k in lit for k in keys):
            c.add("unit%02d.yaml" % i, lit)
    c.add("hand_json.yaml", compact({
        "apiVersion": "v1", "kind": "Config", "current-context": "c",
        "clusters": [{"name": "c", "cluster": {
            "server": "https://10.0.0.1:6443",
            "certificate-authority-data": "aGVsbG8=",
            "proxy-url": "http://proxy:3128"}}],
        "contexts": [{"name": "c", "context": {"cluster": "c", "user": "u",
                                               "namespace": "ns"}}],
        "users": [{"name": "u", "user": {
            "as": "admin", "as-groups": ["a", "b"],
            "auth-provider": {"name": "oidc",
                              "config": {"id-token": "t"}}}}]}))
    c.add("hand_basic.yaml", "current-context: c\nclusters:\n- name: c\n"
          "  cluster: {server: 'localhost:8080', "
          "disable-compression: true}\ncontexts:\n"
          "- {name: c, context: {cluster: c, user: u}}\nusers:\n"
          "- name: u\n  user: {username: a, password: b}\n")
    return c.count()


def yaml_seeds():
    """fuzz_yaml: YAML streams (manifests, kubeconfigs, YAML 1.1)."""
    c = Corpus("fuzz_yaml")
    paths = ["examples/release.yaml"] + \
        sorted(glob.glob("tests/fixtures/add/*.yaml")) + \
        sorted(glob.glob("tests/fuzz/corpus/fuzz_kubeconfig/*"))
    for path in paths:
        c.add(os.path.basename(os.path.dirname(path)) + "_" +
              os.path.basename(path), open(path, "rb").read())
    hand = {
        "scalars": "a: yes\nb: Off\nc: 0x1F\nd: 0o17\ne: 0755\n"
                   "f: 1_000\ng: -.5e3\nh: ~\ni: !!str 12\nj: '12'\n"
                   "k: \"t\\u00e9\"\nl: 2026-01-01\nm: .inf\nn: 0b101\n"
                   "o: 18446744073709551615\np: -9223372036854775809\n",
        "keys": "1: a\n0x2: b\ntrue: c\n~: d\n1.5: e\n1e3: f\n",
        "blocks": "a: |\n  line 1\n  line 2\nb: >-\n  folded\n  text\n"
                  "c:\n- x\n- [y, {z: 1}]\n- {}\n- []\n",
        "docs": "---\na: 1\n...\n---\n---\n- 1\n--- plain\n",
        "directives": "%YAML 1.1\n%TAG !k! tag:k8s.io,2024:\n---\n"
                      "!k!x {a: !!int 1, b: !!float 2, c: !!null ''}\n",
        "alias": "a: &x 1\nb: *x\n",
        "dup": "a: 1\nb: 2\na: 3\n",
        "complex_key": "? [a, b]\n: 1\n",
        "deep": "[" * 40 + "]" * 40 + "\n",
        "flow": "{apiVersion: v1, kind: Pod, metadata: {name: p}, spec: "
                "{containers: [{name: c, image: i}]}}",
    }
    for name, text in sorted(hand.items()):
        c.add("hand_" + name, text)
    return c.count()


def add_seeds():
    """fuzz_add: --add manifests; odd last byte queue, even
    independent."""
    c = Corpus("fuzz_add")
    paths = ["examples/release.yaml"] + \
        sorted(glob.glob("tests/fixtures/add/*"))
    for path in paths:
        data = open(path, "rb").read()
        base = os.path.basename(path)
        c.add(base, data)
        c.add(base + "_q", data.rstrip() + b"#")
    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
           "spec": {"priorityClassName": "prod-critical", "containers": [
               {"name": "c", "resources": {"requests": {"cpu": "2"}}}]}}
    tmpl = {"metadata": {"labels": {"app": "x"}},
            "spec": {"containers": [{"name": "c", "resources": {
                "requests": {"cpu": "100m"}}}]}}
    sts = {"apiVersion": "apps/v1", "kind": "StatefulSet",
           "metadata": {"name": "s", "namespace": "prod"},
           "spec": {"replicas": 3, "template": tmpl,
                    "volumeClaimTemplates": [{"metadata": {"name": "d"},
                     "spec": {"accessModes": ["ReadWriteOnce"],
                              "resources": {"requests":
                                            {"storage": "1Gi"}}}}]}}
    ds = {"apiVersion": "apps/v1", "kind": "DaemonSet",
          "metadata": {"name": "d"}, "spec": {"template": {
              "metadata": tmpl["metadata"], "spec": dict(
                  tmpl["spec"], tolerations=[{"operator": "Exists"}],
                  affinity={"nodeAffinity": {
                      "requiredDuringSchedulingIgnoredDuringExecution": {
                          "nodeSelectorTerms": [{"matchExpressions": [{
                              "key": "topology.kubernetes.io/zone",
                              "operator": "In", "values": ["b"]}]}]}}})}}}
    job = {"apiVersion": "batch/v1", "kind": "Job",
           "metadata": {"name": "j"},
           "spec": {"parallelism": 3, "completions": 2, "suspend": False,
                    "template": tmpl}}
    pc = {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
          "metadata": {"name": "urgent"}, "value": 2000000}
    c.add("hand_pod_q.json", compact(pod))
    c.add("hand_list.json", compact({"kind": "List", "items": [
        pc, dict(pod, spec=dict(pod["spec"], priorityClassName="urgent")),
        sts, ds, job]}) + "\n")
    c.add("hand_concatenated.json", "\n".join(
        compact(o) for o in (pc, sts, ds, job)))
    return c.count()


def merge(target):
    """Keep the seeds of target that add coverage (libFuzzer -merge=1)."""
    binary = os.path.join("build-fuzz", target)
    if os.environ.get("KP_NO_MERGE") or not os.access(binary, os.X_OK):
        return False
    seeds = os.path.join(OUT, target)
    with tempfile.TemporaryDirectory() as tmp:
        everything = os.path.join(tmp, "all")
        shutil.move(seeds, everything)
        os.makedirs(seeds)
        names = {}
        for name in os.listdir(everything):
            data = open(os.path.join(everything, name), "rb").read()
            names[hashlib.sha1(data).hexdigest()] = name
        subprocess.run([binary, "-merge=1", "-use_counters=0",
                        "-max_len=%d" % MAX, seeds, everything], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for digest in os.listdir(seeds):
        if digest in names:
            os.rename(os.path.join(seeds, digest),
                      os.path.join(seeds, names[digest]))
    return True


def source_words(patterns):
    """Identifier-like string literals of the core files in patterns."""
    words = set()
    for pattern in patterns:
        for path in glob.glob(pattern):
            src = open(path, encoding="utf-8").read()
            for w in re.findall(r'"([A-Za-z][A-Za-z0-9./-]*)"', src):
                if not w.endswith(".h"):
                    words.add(w)
    return sorted(words)


def write_dict(target, tokens):
    """tests/fuzz/<target>.dict for libFuzzer's -dict."""
    with open("tests/fuzz/%s.dict" % target, "w") as f:
        f.write("# %s.dict - generated by make_corpus.py from core/\n"
                % target)
        for i, tok in enumerate(tokens):
            esc = ""
            for b in tok.encode("utf-8"):
                if b in (0x5c, 0x22):
                    esc += "\\" + chr(b)
                elif 0x20 <= b < 0x7f:
                    esc += chr(b)
                else:
                    esc += "\\x%02x" % b
            f.write('kw%d="%s"\n' % (i, esc))


def dictionaries():
    load = source_words(["core/load/decode_*.c", "core/cluster/snapshot.c",
                         "core/api/labels.c", "core/sched/framework/podinfo.c",
                         "core/sched/plugins/*/*.c"])
    write_dict("fuzz_load", ['"%s"' % w for w in load] +
               [':{"', '":"', '":[{"', '"},{"', '":null', '":true',
                "-9223372036854775808", "2147483648", "1e308"])
    kube = source_words(["core/live/kubeconfig.c"])
    write_dict("fuzz_kubeconfig", [w + ":" for w in kube] +
               ["- name: ", "\n  ", "{", "}", "[", "]", "&a", "*a",
                "!!binary", "---\n", "'", '"'])
    write_dict("fuzz_yaml", ["---\n", "...\n", "- ", ": ", "? ", "\n  ",
                             "{", "}", "[", "]", ", ", "|", "|-", ">",
                             ">+", "'", '"', "#", "&a ", "*a", "!!str ",
                             "!!int ", "!!float ", "!!null ", "!!bool ",
                             "!!map ", "!!seq ", "!local ", "! ",
                             "%YAML 1.1\n", "%TAG ! tag:x,2024:\n",
                             "~", "null", "Null", "yes", "No", "on", "OFF",
                             "y", "0x", "0o", "0b", "_", ".5", "e+", "E-",
                             ".inf", ".NaN", "2026-01-01T00:00:00Z",
                             "\\u00e9", "\\x41", "\\N", "\t", "\r\n",
                             "\ufeff"])
    add = source_words(["core/whatif/add.c", "core/load/decode_pod.c",
                        "core/load/decode_policy.c", "core/load/decode_storage.c"])
    write_dict("fuzz_add", [w + ": " for w in add] + ['"%s"' % w
                                                      for w in add] +
               ["---\n", "- ", "\n  ", "{", "}", "[", "]", "replicas: ",
                "parallelism: ", "completions: ", "suspend: true",
                "ordinals: {start: ", "nodeName: ", "0", "1", "100000"])


def main():
    only = sys.argv[1:]
    dictionaries()
    for name, fn in (("fuzz_load", load_seeds),
                     ("fuzz_quantity", quantity_seeds),
                     ("fuzz_selector", selector_seeds),
                     ("fuzz_kubeconfig", kubeconfig_seeds),
                     ("fuzz_yaml", yaml_seeds),
                     ("fuzz_add", add_seeds)):
        if only and name not in only:
            continue
        n = fn()
        if merge(name):
            print("%s: %d candidates, %d kept by -merge=1" %
                  (name, n, len(os.listdir(os.path.join(OUT, name)))))
        else:
            print("%s: %d seeds (not merged: KP_NO_MERGE set or build-fuzz/%s missing)" %
                  (name, n, name))


if __name__ == "__main__":
    main()
