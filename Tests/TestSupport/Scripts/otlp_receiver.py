#!/usr/bin/env python3
"""An OTLP/HTTP logs receiver for tests that decodes every request with the official
OpenTelemetry definitions (the opentelemetry-proto package) and fails on command.

Usage: otlp_receiver.py RECORD_DIR RESPONSE[,RESPONSE...]

Each POST gets the next response of the list (the last one repeats):
  200                 an empty ExportLogsServiceResponse
  400, 500, ...       that status, with a google.rpc.Status-like body
  503@N, 429@N        that status with Retry-After: N
  partial@N           200 with partial_success.rejected_log_records = N and an error message
  warn                200 with partial_success.error_message only

The body is gunzipped when Content-Encoding is gzip, then parsed as an
ExportLogsServiceRequest: from protobuf for application/x-protobuf (ParseFromString), from
OTLP/JSON for application/json (google.protobuf.json_format.Parse, which refuses unknown
fields). A body that does not parse is answered 400 and recorded with "error". Every request
is appended to RECORD_DIR/requests.jsonl: n, path, headers (lower-case names), content_type,
the decoded request as json_format.MessageToDict gives it ("export"), and the raw decoded body
as Latin-1 text ("raw", to search for strings that must not be there). The answer is encoded
as the request was. Prints "listening on PORT"; binds 127.0.0.1 only; exits when its standard
input closes.
"""
import gzip
import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from google.protobuf import json_format
from opentelemetry.proto.collector.logs.v1 import logs_service_pb2

record_dir = sys.argv[1]
responses = sys.argv[2].split(",")
lock = threading.Lock()
counter = {"n": 0}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        with lock:
            n = counter["n"]
            counter["n"] += 1
        spec = responses[min(n, len(responses) - 1)]
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        content_type = self.headers.get("Content-Type", "")
        is_json = content_type.startswith("application/json")
        entry = {"n": n, "path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()},
                 "content_type": content_type, "response": spec, "raw": body.decode("latin-1")}
        request = logs_service_pb2.ExportLogsServiceRequest()
        try:
            if is_json:
                json_format.Parse(body.decode("utf-8"), request)
            elif content_type.startswith("application/x-protobuf"):
                request.ParseFromString(body)
            else:
                raise ValueError("unexpected Content-Type %r" % content_type)
            entry["export"] = json_format.MessageToDict(request)
        except Exception as error:  # a body the official definitions refuse
            entry["error"] = str(error)
            spec = "400"
        self._record(entry)
        self._answer(spec, is_json)

    def _answer(self, spec, is_json):
        status, headers = 200, {}
        response = logs_service_pb2.ExportLogsServiceResponse()
        if spec.startswith("partial@"):
            response.partial_success.rejected_log_records = int(spec[8:])
            response.partial_success.error_message = "test receiver rejects %s record(s)" % spec[8:]
        elif spec == "warn":
            response.partial_success.error_message = "test receiver warns"
        elif "@" in spec:
            code, after = spec.split("@")
            status, headers = int(code), {"Retry-After": after}
        else:
            status = int(spec)
        if status == 200:
            payload = (json_format.MessageToJson(response).encode() if is_json
                       else response.SerializeToString())
        elif is_json:
            payload = json.dumps({"code": 3, "message": "test receiver says %d" % status}).encode()
        else:
            # google.rpc.Status: code (1, varint), message (2, string).
            message = ("test receiver says %d" % status).encode()
            payload = bytes([0x08, 3, 0x12, len(message)]) + message
        self.send_response(status)
        for key, value in headers.items():
            self.send_header(key, value)
        self.send_header("Content-Type", "application/json" if is_json else "application/x-protobuf")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def _record(self, entry):
        with lock, open(os.path.join(record_dir, "requests.jsonl"), "a") as f:
            f.write(json.dumps(entry) + "\n")


def exit_with_parent():
    sys.stdin.read()
    os._exit(0)


threading.Thread(target=exit_with_parent, daemon=True).start()
server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print("listening on %d" % server.server_address[1], flush=True)
server.serve_forever()
