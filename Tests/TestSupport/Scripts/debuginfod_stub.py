"""A debuginfod server that misbehaves, on 127.0.0.1, for the debuginfod client's tests.

Usage: debuginfod_stub.py MODE [FILE]. Prints "listening on PORT" once ready, then answers every
GET /buildid/... as MODE says:
  missing   404 Not Found, as a server without the file answers;
  file      200 with FILE's bytes, whatever build id was asked for;
  silent    reads the request and never answers;
  circle    302 to the same path, without end.
Each request's path is appended to FILE.log (missing, silent and circle: to the path given as FILE).
It ends when its standard input closes (the test process has gone) or when it is killed.
"""

import http.server
import os
import sys
import threading
import time

mode = sys.argv[1]
path = sys.argv[2]
log = path + ".log" if mode == "file" else path
lock = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        with lock, open(log, "a") as f:
            f.write(self.path + "\n")
        if mode == "silent":
            time.sleep(3600)
            return
        if mode == "circle":
            self.send_response(302)
            self.send_header("Location", self.path)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if mode == "file":
            with open(path, "rb") as f:
                body = f.read()
            self.send_response(200)
        else:
            body = b"not found"
            self.send_response(404)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def exit_with_parent():
    sys.stdin.read()
    os._exit(0)


threading.Thread(target=exit_with_parent, daemon=True).start()
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print("listening on %d" % server.server_address[1], flush=True)
server.serve_forever()
