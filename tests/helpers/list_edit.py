"""list_edit.py SRC OUT EDIT...: write the items of the List in SRC as a
List in OUT, one item after another, with the edits asked for (N is an
item's index; negative counts from the end):

  cpu:N      item N (a pod) gets the CPU request "bogus" (a decode error)
  dupkey:N   item N gets a second "kind" member (a validation error)
  nocomma:N  no comma before item N (cJSON fails there)
  ctl:N      a raw control character in item N's first "name" (the scan)
  num:N      item N is the number 7
  trail      a comma after the last item
  dupname:N  item N (a pod) takes the name of the pod before it

OUT.lines gets the line on which each item starts, one a line.
"""
import json
import sys

src, out, edits = sys.argv[1], sys.argv[2], sys.argv[3:]
items = json.load(open(src))["items"]
n = len(items)
ed = {}
for e in edits:
    name, _, v = e.partition(":")
    k = int(v) if v else 0
    ed.setdefault(name, set()).add(k if k >= 0 else n + k)

texts = []
for i, it in enumerate(items):
    if i in ed.get("cpu", ()):
        c = it["spec"]["containers"][0]
        c.setdefault("resources", {}).setdefault("requests", {})["cpu"] = \
            "bogus"
    if i in ed.get("dupname", ()):
        it["metadata"]["name"] = items[i - 1]["metadata"]["name"]
        it["metadata"]["namespace"] = items[i - 1]["metadata"]["namespace"]
    t = json.dumps(it, indent=4)
    if i in ed.get("dupkey", ()):
        t = t.replace("{", '{\n    "kind": "Pod",', 1)
    if i in ed.get("ctl", ()):
        t = t.replace('"name": "', '"name": "\x01', 1)
    if i in ed.get("num", ()):
        t = "7"
    texts.append(t)

head = '{\n"apiVersion": "v1",\n"kind": "List",\n"items": [\n'
parts, starts, line = [head], [], head.count("\n") + 1
for i, t in enumerate(texts):
    if i:
        sep = "\n" if i in ed.get("nocomma", ()) else ",\n"
        parts.append(sep)
        line += sep.count("\n")
    starts.append(line)
    parts.append(t)
    line += t.count("\n")
parts.append(",\n" if "trail" in ed else "\n")
parts.append("]\n}\n")
with open(out, "w") as f:
    f.write("".join(parts))
with open(out + ".lines", "w") as f:
    f.write("".join("%d\n" % s for s in starts))
