#!/usr/bin/env python3
"""A worker in Python that a Cairn sidecar checkpoints over its HTTP hook (hook.kind=http).

Standard library only. The worker is a counter that moves on by one at every snapshot and keeps each
snapshot in a file <state-dir>/<job>/<task>-<subtask>/chk-<id> (savepoint-<id> for savepoints) holding
the value as text; it answers the sidecar's POSTs:

  /snapshot  {"checkpointId", "type", "jobId", "taskId", "subtaskIndex", ...}  -> {"location", "sizeBytes"}
  /notify    {"checkpointId", "outcome": "COMPLETED" | "ABORTED", ...}         -> 204
  /restore   {"checkpointId", "location", "sizeBytes"}, or {} for a fresh start -> 204
  /discard   {"checkpointId", "location", "status" | "reason", "shared", ...}: a state the coordinator
             discarded (an ack it did not take, or a subsumed or aborted checkpoint's) -> 204; it may come
             again after a restart, so deleting what is already gone is no error

Run:  python3 docs/examples/http_worker.py --port 8090 --state-dir /tmp/cairn-python-worker
"""
import argparse
import json
import os
import pathlib
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote, urlparse

counter = 0
lock = threading.Lock()


def path_of(location):
    return unquote(urlparse(location).path) if location.startswith("file:") else location


class Hook(BaseHTTPRequestHandler):
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
        action = getattr(self, "on_" + self.path.strip("/"), None)
        if action is None:
            return self.answer(404, {"error": "no such endpoint: " + self.path})
        try:
            self.answer(*action(body))
        except Exception as e:  # the sidecar declines the checkpoint, naming the error
            self.answer(500, {"error": "%s failed: %r" % (self.path, e)})

    def on_snapshot(self, request):
        global counter
        who = request.get("participant") or "%s-%s" % (request["taskId"], request["subtaskIndex"])
        kind = "savepoint-" if request["type"] == "SAVEPOINT" else "chk-"
        directory = os.path.join(state_dir, request["jobId"], who)
        os.makedirs(directory, exist_ok=True)
        file = os.path.join(directory, kind + str(request["checkpointId"]))
        with lock:
            counter += 1
            value = counter
        with open(file, "w") as out:
            out.write(str(value))
        location, size = pathlib.Path(file).as_uri(), os.path.getsize(file)
        log("snapshot %d: value %d at %s (%d bytes)" % (request["checkpointId"], value, location, size))
        return 200, {"location": location, "sizeBytes": size}

    def on_notify(self, notification):
        log("checkpoint %d %s" % (notification["checkpointId"], notification["outcome"]))
        return 204, None

    def on_restore(self, point):
        global counter
        with lock:
            counter = int(open(path_of(point["location"])).read()) if "location" in point else 0
            log("restored value %d from checkpoint %s" % (counter, point.get("checkpointId", "none")))
        return 204, None

    def on_discard(self, state):
        file = path_of(state["location"])
        if os.path.realpath(file).startswith(os.path.realpath(state_dir) + os.sep) and os.path.exists(file):
            os.remove(file)
        log("discarded %s (%s)" % (state["location"], state.get("status") or state.get("reason")))
        return 204, None

    def answer(self, status, body):
        data = json.dumps(body).encode() if body is not None else b""
        self.send_response(status)
        if data:
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, fmt, *args):
        pass  # one line per hook call is logged above, not one per HTTP request


def log(line):
    print(line, flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="A counter worker for Cairn's HTTP hook.")
    parser.add_argument("--port", type=int, default=8090, help="port to listen on, 0 for a free one")
    parser.add_argument("--bind", default="127.0.0.1", help="address to listen on (the sidecar runs beside it)")
    parser.add_argument("--state-dir", default="/tmp/cairn-python-worker", help="where the snapshot files go")
    args = parser.parse_args()
    state_dir = os.path.abspath(args.state_dir)
    server = ThreadingHTTPServer((args.bind, args.port), Hook)
    log("listening on %s:%d" % server.server_address[:2])
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
