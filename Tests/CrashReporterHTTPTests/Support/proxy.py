"""A forward proxy on 127.0.0.1 for CrashReporterHTTPTests.

Usage: proxy.py LOG. Prints "listening on PORT" once ready. Each request line it receives is
appended to LOG before it acts on it, so a test can prove that a request went through it.
CONNECT host:port opens a tunnel; an absolute-form request (GET http://host:port/path) is
forwarded in origin form with "Via: test-proxy" added, and the answer relayed until the origin
closes. It only ever connects to loopback addresses.
"""

import os
import socket
import socketserver
import sys
import threading
import urllib.parse

LOOPBACK = {"127.0.0.1", "localhost", "::1"}


def relay(source, target):
    try:
        while True:
            data = source.recv(65536)
            if not data:
                break
            target.sendall(data)
    except OSError:
        pass
    finally:
        try:
            target.shutdown(socket.SHUT_WR)
        except OSError:
            pass


class Handler(socketserver.StreamRequestHandler):
    def handle(self):
        line = self.rfile.readline().decode("latin-1").rstrip("\r\n")
        headers = []
        while True:
            header = self.rfile.readline().decode("latin-1")
            if header in ("\r\n", "\n", ""):
                break
            headers.append(header.rstrip("\r\n"))
        with open(sys.argv[1], "a") as log:
            log.write(line + "\n")
        method, target, _ = line.split(" ", 2)
        if method == "CONNECT":
            host, _, port = target.rpartition(":")
            self.tunnel(host.strip("[]"), int(port))
        else:
            self.forward(method, target, headers)

    def refuse(self):
        self.wfile.write(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")

    def tunnel(self, host, port):
        if host not in LOOPBACK:
            return self.refuse()
        upstream = socket.create_connection((host, port))
        self.wfile.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
        self.wfile.flush()
        back = threading.Thread(target=relay, args=(upstream, self.connection))
        back.start()
        relay(self.connection, upstream)
        back.join()
        upstream.close()

    def forward(self, method, target, headers):
        url = urllib.parse.urlsplit(target)
        if url.hostname not in LOOPBACK:
            return self.refuse()
        length = 0
        for header in headers:
            name, _, value = header.partition(":")
            if name.strip().lower() == "content-length":
                length = int(value.strip())
        body = self.rfile.read(length) if length else b""
        path = url.path or "/"
        if url.query:
            path += "?" + url.query
        request = f"{method} {path} HTTP/1.1\r\n" + "".join(h + "\r\n" for h in headers) + "Via: test-proxy\r\n\r\n"
        upstream = socket.create_connection((url.hostname, url.port or 80))
        upstream.sendall(request.encode("latin-1") + body)
        relay(upstream, self.connection)
        upstream.close()


def exit_with_parent():
    """Ends the process when standard input closes: the test process that started it has gone
    (even if it died without killing this server)."""
    sys.stdin.read()
    os._exit(0)


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


threading.Thread(target=exit_with_parent, daemon=True).start()
server = Server(("127.0.0.1", 0), Handler)
print(f"listening on {server.server_address[1]}", flush=True)
server.serve_forever()
