#!/usr/bin/env python3
"""fake_apiserver.py - a loopback Kubernetes API server for tests.

Serves cluster-wide lists (GET /api/v1/pods, /apis/policy/v1/...) from
FIXTURES/<resource>.json (a full List), per-namespace lists and the
discovery documents a real kubectl reads (fake_discovery.py), paginated
like the real server:
limit, continue (opaque tokens), metadata.remainingItemCount, gzip when
asked.  HTTPS only, on 127.0.0.1 and an ephemeral port, with the test PKI
of make_certs.sh.  Authenticates a bearer token (--token) or a client
certificate signed by the CA; --require-cert makes the certificate
mandatory at the TLS level; --basic USER:PASSWORD accepts that basic
authentication.  The log records, per request, the Impersonate-User,
Impersonate-Group and Impersonate-Uid headers and the TLS server name
(SNI) the client sent.

Faults (--fault NAME[:RESOURCE], repeatable; or one per line in the
--control file, re-read at every request and replacing the flags while
it exists).  With :RESOURCE a fault applies to that list only; "once"
means once per list.

  unauthorized           401 with a Status body
  forbidden              403 with an RBAC Status body
  expired-continue       410 Gone for every request carrying a continue
  expired-continue-once  410 Gone for the first such request only
  expired-continue-late  410 Gone, once, for the first request whose
                         continue token starts at or past item
                         --expire-at (the first pages were served)
  too-many-requests      429 with Retry-After: --retry-after, once
  too-many-requests-always  429 every time
  server-error-once      500 once, then OK
  server-error-always    500 every time
  (server-error-once:version and server-error-always:version answer
  /version with 503, once or always; only when named so)
  slow                   sleep --slow-seconds before answering
  truncated              Content-Length promises more than is sent
  not-json               200 with a body that is not JSON
  wrong-ca               serve a certificate from the wrong CA

Hostile servers (the same way; each streams until the client hangs up):

  endless-items          a 200 page that ignores limit and never ends,
                         every item distinct (name n0, n1, ...)
  endless-big-items      the same with items of 1 MiB each
  endless-members        a 200 page of endless small top-level members
  one-item-pages         pages of one item each, under ever new tokens,
                         for ever
  endless-string         a 200 page whose first item holds a string
                         that never ends
  gzip-bomb              gzip (whatever was asked) of a page whose first
                         item holds a string that never ends: a few KB
                         on the wire for every GB unpacked
  gzip-space-bomb        the same, of white space between items
  repeat-continue        empty pages, always the same continue token
  cycle-continue         empty pages whose tokens go A, B, C, A, ...
  empty-pages            empty pages, each with a new continue token
  echo-credential        403 whose message quotes the Authorization
                         header (and the basic-auth password decoded)
  echo-credential-500    the same as a 500 plain-text body, every time
  echo-credential-item   200 pages whose items carry the Authorization
                         header in an annotation
  html-200, html-502     a proxy's HTML error page with that status
  watch-gone             a watch's first answer is an ERROR event with a
                         410 Status (once per resource)
  watch-gone-status      a watch is answered 410 Gone (once)
  watch-drop             a watch's connection drops after its first
                         event (once per resource)
  stall                  headers and half a page, then silence for
                         --slow-seconds
  huge-header            a response header line of 1 MiB
  many-headers           10,000 header lines of 100 bytes
  redirect               302 to https://elsewhere.invalid/login?...
  nul-trailer            a good page followed by a NUL byte
  items-scalar           a page whose items are [1]

The port is printed on stdout and written to --port-file.  Every request
is appended to --log as one JSON line.  /version answers v1.37.0 or
--server-version (none: 404).  The server exits by itself after
--lifetime seconds.  Python 3 standard library only.
"""

import argparse
import base64
import gzip
import json
import os
import ssl
import sys
import threading
import time
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import fake_discovery

RESOURCES = {
    "/api/v1/nodes": ("nodes", "NodeList", "v1", ""),
    "/api/v1/pods": ("pods", "PodList", "v1", ""),
    "/apis/policy/v1/poddisruptionbudgets":
        ("poddisruptionbudgets", "PodDisruptionBudgetList", "policy/v1",
         "policy"),
    "/apis/scheduling.k8s.io/v1/priorityclasses":
        ("priorityclasses", "PriorityClassList", "scheduling.k8s.io/v1",
         "scheduling.k8s.io"),
    "/api/v1/namespaces": ("namespaces", "NamespaceList", "v1", ""),
    "/api/v1/persistentvolumeclaims":
        ("persistentvolumeclaims", "PersistentVolumeClaimList", "v1", ""),
    "/api/v1/persistentvolumes":
        ("persistentvolumes", "PersistentVolumeList", "v1", ""),
    "/apis/storage.k8s.io/v1/storageclasses":
        ("storageclasses", "StorageClassList", "storage.k8s.io/v1",
         "storage.k8s.io"),
    "/apis/storage.k8s.io/v1/csinodes":
        ("csinodes", "CSINodeList", "storage.k8s.io/v1", "storage.k8s.io"),
    "/api/v1/events": ("events", "EventList", "v1", ""),
    "/api/v1/services": ("services", "ServiceList", "v1", ""),
    "/api/v1/replicationcontrollers":
        ("replicationcontrollers", "ReplicationControllerList", "v1", ""),
    "/apis/apps/v1/replicasets":
        ("replicasets", "ReplicaSetList", "apps/v1", "apps"),
    "/apis/apps/v1/statefulsets":
        ("statefulsets", "StatefulSetList", "apps/v1", "apps"),
}

RESOURCE_VERSION = "4242"
WATCH_RV_BASE = 5000     # the --watch-events file's line i has rv 5000+i
EXPIRED_MESSAGE = (
    "The provided continue parameter is too old to display a consistent "
    "list result. You can start a new list without the continue parameter,"
    " or use the continue token in this response to retrieve the remainder"
    " of the results. Continuing with the provided token results in an "
    "inconsistent list - objects that were created, modified, or deleted "
    "between the time the first chunk was returned and now may show up in "
    "the list.")


def status(code, reason, message):
    return {"kind": "Status", "apiVersion": "v1", "metadata": {},
            "status": "Failure", "message": message, "reason": reason,
            "code": code}



def server_version(git):
    """The /version document of --server-version, or None (a 404)."""
    if git == "none":
        return None
    major, minor = git.lstrip("v").split(".")[:2]
    return {"major": major, "minor": minor + ("+" if "-" in git else ""),
            "gitVersion": git, "platform": "linux/amd64"}


class State:
    """What the handlers share: options, fixtures, fault counters."""

    def __init__(self, args):
        self.args = args
        self.lock = threading.Lock()
        self.fired = set()          # (fault, resource) of "once" faults
        self.items = {}
        for path, (name, _, _, _) in RESOURCES.items():
            self.items[name] = self.load(name)

    def load(self, name):
        path = os.path.join(self.args.fixtures, name + ".json")
        if not os.path.exists(path):
            return []
        with open(path) as f:
            items = json.load(f).get("items") or []
        for it in items:            # list items carry no kind
            it.pop("kind", None)
            it.pop("apiVersion", None)
        return items

    def faults(self):
        ctl = self.args.control
        if ctl and os.path.exists(ctl):
            with open(ctl) as f:
                return [ln.strip() for ln in f
                        if ln.strip() and not ln.startswith("#")]
        return self.args.fault

    def active(self, name, resource):
        """Is fault name on for this resource (and not yet fired if once)?"""
        for f in self.faults():
            fname, _, fres = f.partition(":")
            if fname == name and fres in ("", resource):
                return True
        return False

    def fire_once(self, name, resource):
        with self.lock:
            if (name, resource) in self.fired:
                return False
            self.fired.add((name, resource))
            return True

    def log(self, entry):
        if not self.args.log:
            return
        with self.lock, open(self.args.log, "a") as f:
            f.write(json.dumps(entry, sort_keys=True) + "\n")


def make_token(start):
    raw = json.dumps({"rv": RESOURCE_VERSION, "start": start,
                      "salt": os.urandom(6).hex()})
    return base64.urlsafe_b64encode(raw.encode()).decode()


def read_token(tok):
    try:
        return int(json.loads(base64.urlsafe_b64decode(tok))["start"])
    except (ValueError, KeyError, TypeError):
        return None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True     # no 40 ms delayed-ACK stall a page
    server_version = "fake-apiserver"

    def log_message(self, fmt, *args):  # quiet
        pass

    # ---- responses ----------------------------------------------------

    def send_json(self, code, obj, headers=None, raw=None):
        body = raw if raw is not None else json.dumps(obj).encode()
        gz = "gzip" in self.headers.get("Accept-Encoding", "")
        if gz and raw is None:
            body = gzip.compress(body)
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        if gz and raw is None:
            self.send_header("Content-Encoding", "gzip")
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def start_stream(self, code=200, ctype="application/json",
                     headers=None):
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True

    def stream_forever(self, first, gen):
        """Write first, then gen's chunks until the client hangs up."""
        lifetime = time.time() + self.server.state.args.lifetime
        try:
            self.wfile.write(first)
            for chunk in gen:
                self.wfile.write(chunk)
                if time.time() > lifetime:
                    break
        except (BrokenPipeError, ConnectionResetError, ssl.SSLError,
                OSError):
            pass

    def hostile(self, name, list_kind, api_version, q):
        """The hostile faults; True if one answered."""
        st = self.server.state
        head = ('{"kind":"%s","apiVersion":"%s","metadata":{},"items":['
                % (list_kind, api_version)).encode()
        auth = self.headers.get("Authorization", "")
        if st.active("endless-items", name):
            def items():
                i = 0
                while True:
                    yield "".join(
                        '%s{"metadata":{"name":"n%d","uid":"u%d"}}'
                        % ("," if i + k else "", i + k, i + k)
                        for k in range(2000)).encode()
                    i += 2000
            self.start_stream()
            self.stream_forever(head, items())
            return True
        if st.active("endless-big-items", name):
            pad = "b" * (1 << 20)

            def big():
                i = 0
                while True:
                    yield ('%s{"metadata":{"name":"n%d","annotations":'
                           '{"pad":"%s"}}}' % ("," if i else "", i,
                                               pad)).encode()
                    i += 1
            self.start_stream()
            self.stream_forever(head, big())
            return True
        if st.active("endless-members", name):
            self.start_stream()
            self.stream_forever(b'{"kind":"%s"' % list_kind.encode(),
                                iter(lambda: b',"x":1' * 10000, None))
            return True
        if st.active("one-item-pages", name):
            cont = q.get("continue", [""])[0]
            n = int(cont[1:]) + 1 if cont.startswith("p") else 0
            self.send_json(200, {"kind": list_kind, "apiVersion": api_version,
                                 "metadata": {"continue": "p%d" % n},
                                 "items": [{"metadata": {"name": "n%d" % n}}]})
            return True
        if st.active("endless-string", name):
            self.start_stream()
            self.stream_forever(head + b'{"metadata":{"name":"',
                                iter(lambda: b"a" * 65536, None))
            return True
        for bomb, body in (("gzip-bomb", b"a"), ("gzip-space-bomb", b" ")):
            if not st.active(bomb, name):
                continue
            z = zlib.compressobj(9, zlib.DEFLATED, 31)
            first = z.compress(head + (b'{"metadata":{"name":"' if
                                       body == b"a" else b"")) + \
                z.flush(zlib.Z_SYNC_FLUSH)
            block = z.compress(body * (1 << 20)) + z.flush(zlib.Z_SYNC_FLUSH)
            self.start_stream(headers={"Content-Encoding": "gzip"})
            self.stream_forever(first, iter(lambda: block, None))
            return True
        cont = q.get("continue", [""])[0]
        for fault, nxt in (
                ("repeat-continue", lambda c: "same-token"),
                ("cycle-continue", lambda c: {"A": "B", "B": "C"}.get(c, "A")),
                ("empty-pages", lambda c: "t%d" % (int(c[1:] or 0) + 1)
                 if c.startswith("t") else "t1")):
            if st.active(fault, name):
                self.send_json(200, {"kind": list_kind,
                                     "apiVersion": api_version,
                                     "metadata": {"continue": nxt(cont)},
                                     "items": []})
                return True
        creds = auth
        if auth.startswith("Basic "):
            try:
                creds += " " + base64.b64decode(auth[6:]).decode()
            except ValueError:
                pass
        if st.active("echo-credential", name):
            self.send_json(403, status(
                403, "Forbidden", "Forbidden: the request carried "
                "Authorization: %s, which is not allowed here" % creds))
            return True
        if st.active("echo-credential-500", name):
            self.send_json(500, None, raw=("upstream said: bad credentials "
                                           "%s\n" % creds).encode())
            return True
        if st.active("echo-credential-item", name):
            items = [dict(it) for it in st.items[name]]
            for it in items:
                md = dict(it.get("metadata", {}))
                md["annotations"] = dict(md.get("annotations") or {},
                                         seen=creds)
                it["metadata"] = md
            self.send_json(200, {"kind": list_kind, "apiVersion": api_version,
                                 "metadata": {}, "items": items})
            return True
        for fault, code in (("html-200", 200), ("html-502", 502)):
            if st.active(fault, name):
                page = ("<!DOCTYPE html>\n<html><head><title>502 Bad Gateway"
                        "</title></head><body><h1>Bad Gateway</h1><p>%s</p>"
                        "</body></html>\n" % creds).encode()
                self.send_response(code)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(page)))
                self.end_headers()
                self.wfile.write(page)
                return True
        if st.active("stall", name):
            self.start_stream()
            try:
                self.wfile.write(head)
                self.wfile.flush()
                time.sleep(st.args.slow_seconds)
            except OSError:
                pass
            return True
        if st.active("huge-header", name) or st.active("many-headers", name):
            self.send_response(200)
            if st.active("huge-header", name):
                self.send_header("X-Huge", "h" * (1 << 20))
            else:
                for i in range(10000):
                    self.send_header("X-Many-%d" % i, "m" * 90)
            self.send_header("Content-Length", "2")
            try:
                self.end_headers()
                self.wfile.write(b"{}")
            except OSError:
                pass
            self.close_connection = True
            return True
        if st.active("redirect", name):
            self.send_response(302)
            self.send_header("Location", "https://elsewhere.invalid/login?"
                             "next=%s" % self.path)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return True
        if st.active("nul-trailer", name) or st.active("items-scalar", name):
            body = {"kind": list_kind, "apiVersion": api_version,
                    "metadata": {}, "items": st.items[name]}
            raw = json.dumps(body).encode() + b"\0"
            if st.active("items-scalar", name):
                body["items"] = [1]
                raw = json.dumps(body).encode()
            self.send_json(200, None, raw=raw)
            return True
        return False

    def send_truncated(self, obj):
        body = json.dumps(obj).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body[: len(body) // 2])
        self.wfile.flush()
        self.close_connection = True

    # ---- request handling ---------------------------------------------

    def who(self):
        auth = self.headers.get("Authorization", "")
        if auth.startswith("Basic "):
            try:
                pair = base64.b64decode(auth[len("Basic "):]).decode()
            except (ValueError, UnicodeDecodeError):
                return ("bad-basic", "")
            return ("basic", pair.split(":", 1)[0]) \
                if pair in self.server.state.args.basic else ("bad-basic", "")
        if auth.startswith("Bearer "):
            tok = auth[len("Bearer "):]
            return ("token", tok) if tok in self.server.state.args.token \
                else ("bad-token", "")
        cert = self.connection.getpeercert()
        if cert:
            cn = [v for rdn in cert.get("subject", ()) for k, v in rdn
                  if k == "commonName"]
            return ("cert", cn[0] if cn else "")
        return ("none", "")

    def do_GET(self):
        st = self.server.state
        url = urlsplit(self.path)
        q = parse_qs(url.query)
        kind, ident = self.who()
        st.log({"path": url.path, "query": url.query, "auth": kind,
                "user": ident if kind in ("cert", "basic") else "",
                "as": self.headers.get("Impersonate-User", ""),
                "as_groups": self.headers.get_all("Impersonate-Group") or [],
                "as_uid": self.headers.get("Impersonate-Uid", ""),
                "sni": getattr(self.connection, "kp_sni", None) or "",
                "ua": self.headers.get("User-Agent", ""),
                "accept": self.headers.get("Accept", ""),
                "accept_encoding": self.headers.get("Accept-Encoding", ""),
                "host": self.headers.get("Host", "")})
        res = RESOURCES.get(url.path)
        namespace = None
        doc = fake_discovery.document(url.path,
                                      self.headers.get("Host", ""))
        if url.path == "/version" and kind in ("token", "cert", "basic"):
            # only when named for it: server-error-once:version, ...
            faults = st.faults()
            if ("server-error-always:version" in faults or
                    ("server-error-once:version" in faults and
                     st.fire_once("server-error-once", "version"))):
                self.send_json(503, status(503, "ServiceUnavailable",
                                           "the server is shutting down"))
                return
        if url.path == "/version" and st.args.server_version:
            doc = server_version(st.args.server_version)
        if doc is not None and kind in ("token", "cert", "basic"):
            self.send_json(200, doc)
            return
        scoped = fake_discovery.namespaced_list(url.path)
        if res is None and scoped:
            res = RESOURCES.get(scoped[0])
            namespace = scoped[1]
        if res is None:
            self.send_json(404, status(404, "NotFound",
                                       "the server could not find the "
                                       "requested resource"))
            return
        # a hostile server answers whoever asks (and echoes what it got)
        if self.hostile(res[0], res[1], res[2], q):
            return
        if kind not in ("token", "cert", "basic"):
            self.send_json(401, status(401, "Unauthorized", "Unauthorized"))
            return
        if q.get("watch", [""])[0] in ("1", "true"):
            self.serve_watch(res, q)
            return
        self.serve_list(res, q, namespace)

    def watch_lines(self, cursor):
        """The --watch-events file's new whole lines since cursor (a
        [offset, line number] pair, advanced): (rv, event dict)."""
        path = self.server.state.args.watch_events
        out = []
        if not path or not os.path.exists(path):
            return out
        with open(path, "rb") as f:
            f.seek(cursor[0])
            for ln in f:
                if not ln.endswith(b"\n"):
                    break
                cursor[0] += len(ln)
                if ln.strip():
                    out.append((WATCH_RV_BASE + cursor[1], json.loads(ln)))
                cursor[1] += 1
        return out

    def serve_watch(self, res, q):
        """A watch as the API server streams one: one JSON event a line,
        from resourceVersion on, BOOKMARKs every --bookmark-seconds,
        until timeoutSeconds (or a fault)."""
        name, list_kind, api_version, group = res
        st = self.server.state
        if st.active("watch-gone-status", name) and \
                st.fire_once("watch-gone-status", name):
            self.send_json(410, status(410, "Expired", "too old resource "
                                       "version: 1 (2)"))
            return
        if self.fault_response(name, group, q):
            return
        try:
            since = int(q.get("resourceVersion", ["0"])[0] or 0)
        except ValueError:
            since = 0
        timeout = float(q.get("timeoutSeconds", ["300"])[0] or 300)
        end = time.time() + min(timeout, st.args.lifetime)
        st.log({"watch": name, "resourceVersion": since,
                "bookmarks": q.get("allowWatchBookmarks", [""])[0]})
        self.start_stream()
        kind = list_kind[:-4]
        sent = since
        top = since
        cursor = [0, 0]
        last_bookmark = time.time()
        try:
            if st.active("watch-gone", name) and \
                    st.fire_once("watch-gone", name):
                ev = {"type": "ERROR", "object": status(
                    410, "Expired", "too old resource version")}
                self.wfile.write((json.dumps(ev) + "\n").encode())
                return
            while time.time() < end:
                for rv, ev in self.watch_lines(cursor):
                    top = max(top, rv)
                    if rv <= sent or ev.get("resource") != name:
                        continue
                    obj = dict(ev["object"])
                    obj.pop("kind", None)
                    obj.pop("apiVersion", None)
                    obj = {"kind": kind, "apiVersion": api_version, **obj}
                    obj.setdefault("metadata", {})["resourceVersion"] = \
                        str(rv)
                    line = json.dumps({"type": ev["type"], "object": obj})
                    self.wfile.write((line + "\n").encode())
                    self.wfile.flush()
                    sent = rv
                    if st.active("watch-drop", name) and \
                            st.fire_once("watch-drop", name):
                        return      # the connection drops mid-stream
                if time.time() - last_bookmark >= st.args.bookmark_seconds:
                    bm = {"type": "BOOKMARK", "object": {
                        "kind": kind, "apiVersion": api_version,
                        "metadata": {"resourceVersion": str(top)}}}
                    self.wfile.write((json.dumps(bm) + "\n").encode())
                    self.wfile.flush()
                    last_bookmark = time.time()
                time.sleep(0.1)
        except (BrokenPipeError, ConnectionResetError, ssl.SSLError,
                OSError):
            pass

    def fault_response(self, name, group, q):
        """Send the response of an active fault; True if one was sent."""
        st = self.server.state
        cont = q.get("continue", [""])[0]
        if st.active("slow", name):
            time.sleep(st.args.slow_seconds)

        if st.active("unauthorized", name):
            self.send_json(401, status(401, "Unauthorized", "Unauthorized"))
            return True
        if st.active("forbidden", name):
            self.send_json(403, status(
                403, "Forbidden",
                '%s is forbidden: User "system:serviceaccount:kp:preempt" '
                'cannot list resource "%s" in API group "%s" at the '
                'cluster scope' % (name, name, group)))
            return True
        late = (cont and st.active("expired-continue-late", name) and
                (read_token(cont) or 0) >= st.args.expire_at and
                st.fire_once("expired-continue-late", name))
        if cont and (late or st.active("expired-continue", name) or
                     (st.active("expired-continue-once", name) and
                      st.fire_once("expired-continue-once", name))):
            self.send_json(410, status(410, "Expired", EXPIRED_MESSAGE))
            return True
        if st.active("too-many-requests-always", name) or (
                st.active("too-many-requests", name) and
                st.fire_once("too-many-requests", name)):
            self.send_json(429, status(429, "TooManyRequests",
                                       "Too many requests, please try "
                                       "again later."),
                           {"Retry-After": str(st.args.retry_after)})
            return True
        if st.active("server-error-always", name) or (
                st.active("server-error-once", name) and
                st.fire_once("server-error-once", name)):
            self.send_json(500, status(500, "InternalError",
                                       "Internal error occurred: etcdserver:"
                                       " leader changed"))
            return True
        if st.active("not-json", name):
            self.send_json(200, None, raw=b"proxy error: upstream unavailable")
            return True
        return False

    def serve_list(self, res, q, namespace=None):
        name, list_kind, api_version, group = res
        st = self.server.state
        if self.fault_response(name, group, q):
            return
        items = st.items[name]
        if namespace is not None:
            items = [i for i in items
                     if i.get("metadata", {}).get("namespace") == namespace]
        start = 0
        cont = q.get("continue", [""])[0]
        if cont:
            start = read_token(cont)
            if start is None:
                self.send_json(400, status(400, "BadRequest",
                                           "continue key is not valid"))
                return
        limit = int(q.get("limit", ["0"])[0] or 0)
        if st.args.max_page and (limit <= 0 or limit > st.args.max_page):
            limit = st.args.max_page
        end = len(items) if limit <= 0 else min(len(items), start + limit)
        meta = {"resourceVersion": RESOURCE_VERSION}
        if end < len(items):
            meta["continue"] = make_token(end)
            meta["remainingItemCount"] = len(items) - end
        body = {"kind": list_kind, "apiVersion": api_version,
                "metadata": meta, "items": items[start:end]}
        if st.active("truncated", name):
            self.send_truncated(body)
            return
        self.send_json(200, body)


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass    # TLS failures and clients hanging up are expected


def tls_context(args):
    certs = args.certs
    prefix = "wrong-server" if "wrong-ca" in args.fault else "server"
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    ctx.load_cert_chain(os.path.join(certs, prefix + ".crt"),
                        os.path.join(certs, prefix + ".key"))
    ctx.load_verify_locations(os.path.join(certs, "ca.crt"))
    ctx.verify_mode = (ssl.CERT_REQUIRED if args.require_cert
                       else ssl.CERT_OPTIONAL)

    def remember_sni(sock, name, _ctx):
        sock.kp_sni = name
    ctx.sni_callback = remember_sni
    return ctx


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--certs", required=True)
    p.add_argument("--fixtures", required=True)
    p.add_argument("--server-version", default="",
                   help="gitVersion of /version (v1.33.1; minor 33+ as "
                   "EKS prints it with --server-version v1.33.1-eks); "
                   "'none': 404")
    p.add_argument("--port-file")
    p.add_argument("--log")
    p.add_argument("--token", action="append", default=[])
    p.add_argument("--require-cert", action="store_true")
    p.add_argument("--basic", action="append", default=[],
                   help="USER:PASSWORD accepted as basic authentication")
    p.add_argument("--fault", action="append", default=[])
    p.add_argument("--control")
    p.add_argument("--max-page", type=int, default=0,
                   help="serve at most this many items per page")
    p.add_argument("--retry-after", type=int, default=1)
    p.add_argument("--expire-at", type=int, default=8,
                   help="first item of expired-continue-late's 410")
    p.add_argument("--slow-seconds", type=float, default=3.0)
    p.add_argument("--lifetime", type=float, default=120.0)
    p.add_argument("--watch-events",
                   help="JSON lines {resource, type, object} that watches "
                   "stream (appended while the server runs)")
    p.add_argument("--bookmark-seconds", type=float, default=1.0)
    return p.parse_args(argv)


def main(argv):
    args = parse_args(argv)
    srv = Server(("127.0.0.1", 0), Handler)
    srv.state = State(args)
    srv.socket = tls_context(args).wrap_socket(
        srv.socket, server_side=True, do_handshake_on_connect=False)
    port = srv.server_address[1]
    if args.port_file:
        tmp = args.port_file + ".tmp"
        with open(tmp, "w") as f:
            f.write("%d\n" % port)
        os.replace(tmp, args.port_file)
    print(port, flush=True)
    timer = threading.Timer(args.lifetime, lambda: os._exit(0))
    timer.daemon = True
    timer.start()
    try:
        srv.serve_forever(poll_interval=0.1)
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
