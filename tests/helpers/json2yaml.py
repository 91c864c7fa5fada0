#!/usr/bin/env python3
"""json2yaml.py [FILE...] - JSON documents as block-style YAML, the way
`kubectl get -o yaml` lays a List out (apiVersion, items, kind, metadata:
the items before the kind), one document per file separated by ---.
Strings are written as JSON strings (double-quoted YAML scalars), so
nothing is re-typed.  Standard library only (tests and bench)."""
import json
import sys


def scalar(v):
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, (int, float)):
        return json.dumps(v)
    return json.dumps(v, ensure_ascii=False)


def emit(v, indent, out):
    pad = "  " * indent
    if isinstance(v, dict):
        if not v:
            out.append(pad + "{}\n")
            return
        for k in sorted(v) if "items" in v else v:
            emit_member(scalar(str(k)), v[k], pad, indent, out)
    elif isinstance(v, list):
        if not v:
            out.append(pad + "[]\n")
            return
        for e in v:
            if isinstance(e, (dict, list)) and e:
                sub = []
                emit(e, indent + 1, sub)
                first = sub[0]
                out.append(pad + "- " + first.lstrip(" "))
                out.extend(sub[1:])
            else:
                out.append(pad + "- " + inline(e) + "\n")
    else:
        out.append(pad + scalar(v) + "\n")


def inline(v):
    if isinstance(v, dict):
        return "{}"
    if isinstance(v, list):
        return "[]"
    return scalar(v)


def emit_member(key, val, pad, indent, out):
    if isinstance(val, (dict, list)) and val:
        out.append(pad + key + ":\n")
        emit(val, indent + 1 if isinstance(val, dict) else indent, out)
    else:
        out.append(pad + key + ": " + inline(val) + "\n")


def main():
    files = sys.argv[1:] or ["-"]
    w = sys.stdout.write
    for n, f in enumerate(files):
        text = sys.stdin.read() if f == "-" else open(f, encoding="utf-8").read()
        dec = json.JSONDecoder()
        i = 0
        while True:
            while i < len(text) and text[i] in " \t\r\n":
                i += 1
            if i >= len(text):
                break
            doc, i = dec.raw_decode(text, i)
            out = []
            emit(doc, 0, out)
            w("---\n")
            w("".join(out))


if __name__ == "__main__":
    main()
