"""A tiny HTTPS JSON-RPC node for the smoke test: every call answers "0x10"."""

from __future__ import annotations

import json
import ssl
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ANSWER = "0x10"


class Handler(BaseHTTPRequestHandler):
    """Answer each JSON-RPC request (or batch) with the fixed result."""

    def do_POST(self) -> None:
        """Read the request and reply to every call in it."""
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        calls = body if isinstance(body, list) else [body]
        replies = [{"jsonrpc": "2.0", "id": call.get("id"), "result": ANSWER} for call in calls]
        data = json.dumps(replies if isinstance(body, list) else replies[0]).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:
        """Stay quiet."""


def main(cert: str, key: str) -> None:
    """Serve on a free loopback port (printed on stdout) until stdin closes."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.read()
    server.shutdown()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
