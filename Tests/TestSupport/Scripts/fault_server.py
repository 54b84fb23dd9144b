#!/usr/bin/env python3
"""A test receiver for report uploads that fails on command.

Usage: fault_server.py [--tls CERT KEY] RECORD_DIR RESPONSE[,RESPONSE...]

Each request gets the next response of the list (the last one repeats):
  200, 201, 401, 500, ...   answer with that status (and a one-line reason as the body)
  429@N                     429 with Retry-After: N
  503@N                     503 with Retry-After: N
  sentry429@N               429 with X-Sentry-Rate-Limits: N:error:organization
  reset                     read half of the body, then close the connection without answering
  slow@N                    wait N seconds, then answer 200

Every request is appended to RECORD_DIR/requests.jsonl (method, path, headers, body length,
status given); the body of each is saved as RECORD_DIR/body-<n>. For Sentry envelopes
(path ending in /envelope/) the body is gunzipped when Content-Encoding is gzip and parsed
per Sentry's envelope format; the parsed items go into the record. Prints
"listening on PORT" once ready. Binds 127.0.0.1 only; stops on SIGTERM, or when its standard
input closes (the test process that started it has gone).

With --tls it speaks https with the certificate CERT and its key KEY; a client that refuses the
certificate never gets as far as a request, so nothing is recorded for it.
"""
import gzip
import json
import os
import ssl
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

arguments = sys.argv[1:]
tls = None
if arguments[:1] == ["--tls"]:
    tls, arguments = arguments[1:3], arguments[3:]
record_dir = arguments[0]
responses = arguments[1].split(",")
lock = threading.Lock()
counter = {"n": 0}


def parse_envelope(data):
    """Sentry envelope: a header line, then items (a header line and a payload, whose
    length is the header's `length` or runs to the next newline)."""
    lines = data
    newline = lines.index(b"\n") if b"\n" in lines else len(lines)
    header = json.loads(lines[:newline])
    rest = lines[newline + 1:]
    items = []
    while rest.strip():
        newline = rest.index(b"\n")
        item_header = json.loads(rest[:newline])
        rest = rest[newline + 1:]
        if "length" in item_header:
            length = item_header["length"]
            payload = rest[:length]
            if len(payload) != length:
                raise ValueError("item shorter than its length")
            rest = rest[length:]
            if rest.startswith(b"\n"):
                rest = rest[1:]
        else:
            end = rest.index(b"\n") if b"\n" in rest else len(rest)
            payload = rest[:end]
            rest = rest[end + 1:]
        items.append({"header": item_header, "payload": json.loads(payload)})
    return {"header": header, "items": items}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        with lock:
            n = counter["n"]
            counter["n"] += 1
        spec = responses[min(n, len(responses) - 1)]
        length = int(self.headers.get("Content-Length", "0"))
        if spec == "reset":
            self.rfile.read(length // 2)
            self._record(n, spec, b"", None)
            self.connection.shutdown(2)
            self.connection.close()
            self.close_connection = True
            return
        body = self.rfile.read(length)
        envelope = None
        if self.path.endswith("/envelope/"):
            raw = gzip.decompress(body) if self.headers.get("Content-Encoding") == "gzip" else body
            envelope = parse_envelope(raw)
        self._record(n, spec, body, envelope)
        status, headers = 200, {}
        if spec.startswith("slow@"):
            time.sleep(float(spec[5:]))
        elif spec.startswith("sentry429@"):
            status, headers = 429, {"X-Sentry-Rate-Limits": spec[10:] + ":error:organization"}
        elif "@" in spec:
            code, after = spec.split("@")
            status, headers = int(code), {"Retry-After": after}
        else:
            status = int(spec)
        reason = json.dumps({"status": status, "detail": "test server says %d" % status}).encode()
        self.send_response(status)
        for key, value in headers.items():
            self.send_header(key, value)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(reason)))
        self.end_headers()
        self.wfile.write(reason)

    def _record(self, n, spec, body, envelope):
        with open(os.path.join(record_dir, "body-%d" % n), "wb") as f:
            f.write(body)
        entry = {"n": n, "path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()},
                 "length": len(body), "response": spec, "envelope": envelope}
        with lock, open(os.path.join(record_dir, "requests.jsonl"), "a") as f:
            f.write(json.dumps(entry) + "\n")


def exit_with_parent():
    """Ends the process when standard input closes: the test process that started it has gone
    (even if it died without killing this server)."""
    sys.stdin.read()
    os._exit(0)


threading.Thread(target=exit_with_parent, daemon=True).start()
server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
if tls:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(tls[0], tls[1])
    server.socket = context.wrap_socket(server.socket, server_side=True)
    # A client that rejects the certificate aborts the handshake: not worth a traceback.
    server.handle_error = lambda request, address: None
print("listening on %d" % server.server_address[1], flush=True)
server.serve_forever()
