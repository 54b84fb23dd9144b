"""An https server on 127.0.0.1 for CrashReporterHTTPTests.

Usage: https_server.py CERT KEY [close-after-handshake]. Prints "listening on PORT" once ready,
then answers every GET and POST with 200 and a body that names the method, the path and the size
of the request body, and the header X-Served-By: tls-test. It runs until it is killed.

With close-after-handshake it speaks TLS 1.2 only and closes each connection as soon as the
handshake is done, before reading anything: the client's writes then meet a closed socket (the
case that raises SIGPIPE in a writer that does not hold it back).
"""

import http.server
import os
import socket
import ssl
import sys
import threading


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def answer(self):
        length = int(self.headers.get("Content-Length") or 0)
        received = self.rfile.read(length) if length else b""
        body = f"{self.command} {self.path} {len(received)}".encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("X-Served-By", "tls-test")
        self.end_headers()
        self.wfile.write(body)

    do_GET = answer
    do_POST = answer

    def log_message(self, *args):
        pass


def close_after_handshake(context):
    context.maximum_version = ssl.TLSVersion.TLSv1_2
    listener = socket.create_server(("127.0.0.1", 0))
    print(f"listening on {listener.getsockname()[1]}", flush=True)
    while True:
        connection, _ = listener.accept()
        try:
            context.wrap_socket(connection, server_side=True).close()
        except OSError:
            connection.close()


def exit_with_parent():
    """Ends the process when standard input closes: the test process that started it has gone
    (even if it died without killing this server)."""
    sys.stdin.read()
    os._exit(0)


def main():
    threading.Thread(target=exit_with_parent, daemon=True).start()
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[1], sys.argv[2])
    if sys.argv[3:] == ["close-after-handshake"]:
        return close_after_handshake(context)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    # A client that rejects the certificate aborts the handshake: not worth a traceback.
    server.handle_error = lambda request, address: None
    print(f"listening on {server.server_address[1]}", flush=True)
    server.serve_forever()


main()
