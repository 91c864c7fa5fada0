#!/usr/bin/env python3
"""list2yaml.py IN.json OUT.yaml - bench/gen.c's List as the block-style
YAML of `kubectl get -o yaml` (apiVersion, items, kind, metadata), item
by item: gen writes each item from a line "    {" to a line "    }" or
"    },", so a 2.7 GB List is converted holding one item at a time.
Strings are written as JSON strings (double-quoted YAML scalars).
Standard library only; the emitter is tests/helpers/json2yaml.py's."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "tests", "helpers"))
import json2yaml as y  # noqa: E402


def main(src, dst):
    head, tail = [], []
    part = head
    with open(src, encoding="utf-8") as f, \
            open(dst, "w", encoding="utf-8") as out:
        item = None
        for line in f:
            if part is head and line.strip() == '"items": [':
                part = None
                continue
            if part is None:
                if item is None and line.startswith("    {"):
                    item = [line]
                elif item is not None:
                    item.append(line)
                    if line.rstrip("\n") in ("    }", "    },"):
                        text = "".join(item).rstrip().rstrip(",")
                        if first[0]:
                            out.write("---\n")
                            hdr = json.loads("".join(head) + '"_": 0}')
                            for k in sorted(hdr):
                                if k < "items" and k != "_":
                                    o = []
                                    y.emit_member(y.scalar(k), hdr[k], "", 0, o)
                                    out.write("".join(o))
                            out.write('"items":\n')
                            first[0] = False
                        o = []
                        y.emit([json.loads(text)], 0, o)
                        out.write("".join(o))
                        item = None
                elif line.strip() in ("],", "]"):
                    part = tail
                continue
            part.append(line)
        rest = json.loads("{" + "".join(tail).lstrip().lstrip(","))
        for k in sorted(rest):
            o = []
            y.emit_member(y.scalar(k), rest[k], "", 0, o)
            out.write("".join(o))


first = [True]
main(*sys.argv[1:])
