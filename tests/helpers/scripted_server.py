"""A scripted JSON-RPC HTTP server over real sockets that misbehaves on purpose."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Recorded:
    """One request as the server received it."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes

    @property
    def json(self) -> Any:
        """Return the body as JSON, or None when it is not JSON."""
        try:
            return json.loads(self.body)
        except ValueError:
            return None

    @property
    def rpc_method(self) -> str | None:
        """Return the JSON-RPC method of the request, if any."""
        body = self.json
        return body.get("method") if isinstance(body, dict) else None

    @property
    def rpc_id(self) -> Any:
        """Return the JSON-RPC id of the request, if any."""
        body = self.json
        return body.get("id") if isinstance(body, dict) else None

    @property
    def params(self) -> list[Any]:
        """Return the JSON-RPC params of the request."""
        body = self.json
        return list(body.get("params") or []) if isinstance(body, dict) else []


@dataclass(frozen=True)
class Reply:
    """What to send back.

    `drop` closes the socket unanswered; `stream` sends that many bytes with no Content-Length;
    `content_length` overrides the declared length; `reason` replaces the status line's
    phrase; `hang` never answers (until the server closes); `cut_after` sends the headers
    and that many bytes of the body, then hangs up.
    """

    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    drop: bool = False
    stream: int = 0
    content_length: int | None = None
    reason: str = ""
    hang: bool = False
    cut_after: int | None = None


Action = Callable[[Recorded], Reply]


def json_reply(value: Any, status: int = 200, **kwargs: Any) -> Reply:
    """Return a Reply with value encoded as a JSON body."""
    headers = {"Content-Type": "application/json", **kwargs.pop("headers", {})}
    return Reply(status, json.dumps(value).encode(), headers, **kwargs)


def result(value: Any, *, id_shift: int = 0, delay: float = 0.0) -> Action:
    """Answer with a JSON-RPC result, echoing the request id (shifted to fake a wrong id)."""

    def act(request: Recorded) -> Reply:
        rid = request.rpc_id + id_shift if id_shift else request.rpc_id
        return json_reply({"jsonrpc": "2.0", "id": rid, "result": value}, delay=delay)

    return act


def rpc_error(
    code: int,
    message: str,
    data: Any = None,
    *,
    status: int = 200,
    envelope: bool = True,
) -> Action:
    """Answer with a JSON-RPC error; envelope=False leaves out jsonrpc and id (rskj -32011)."""

    def act(request: Recorded) -> Reply:
        error: dict[str, Any] = {"code": code, "message": message}
        if data is not None:
            error["data"] = data
        body: dict[str, Any] = {"error": error}
        if envelope:
            body = {"jsonrpc": "2.0", "id": request.rpc_id, **body}
        return json_reply(body, status=status)

    return act


def raw(
    status: int = 200, body: bytes | str = b"", headers: dict[str, str] | None = None, **kw: Any
) -> Action:
    """Answer with any status, body and headers."""
    data = body.encode() if isinstance(body, str) else body
    reply = Reply(status, data, dict(headers or {}), **kw)
    return lambda request: reply


def html(status: int) -> Action:
    """Answer with an HTML error page, as proxies and gateways do."""
    page = f"<html><head><title>{status}</title></head><body><h1>{status}</h1></body></html>"
    return raw(status, page, {"Content-Type": "text/html"})


def drop() -> Action:
    """Close the connection without answering."""
    return raw(drop=True)


def slow(seconds: float, then: Action) -> Action:
    """Wait before answering with then."""

    def act(request: Recorded) -> Reply:
        reply = then(request)
        return Reply(**{**reply.__dict__, "delay": seconds})

    return act


def redirect(location: str, status: int = 307) -> Action:
    """Redirect the request to location."""
    return raw(status, headers={"Location": location})


def never() -> Action:
    """Accept the request and never answer it (the connection stays open)."""
    return raw(hang=True)


def dies_mid_body(then: Action) -> Action:
    """Start then's answer, send half its body, and hang up."""

    def act(request: Recorded) -> Reply:
        reply = then(request)
        return Reply(**{**reply.__dict__, "cut_after": len(reply.body) // 2})

    return act


def echo_path(status: int = 200, form: Callable[[str], str] = str) -> Action:
    """Answer with a JSON-RPC error whose message, data and reason phrase echo the path.

    form rewrites the path first (upper case, %-encoded…), as some gateways echo it.
    """

    def act(request: Recorded) -> Reply:
        path = form(request.path)
        error = {"code": -32000, "message": f"no access to {path}", "data": path}
        body = {"jsonrpc": "2.0", "id": request.rpc_id, "error": error}
        return json_reply(body, status=status, reason=f"Refused {path}")

    return act


class AlternatingChain:
    """Report the chain ids in turn, one per eth_chainId request.

    net_version agrees with the last one reported; every other request goes to then.
    """

    def __init__(self, then: Action, chain_ids: tuple[int, ...] = (31, 30)) -> None:
        """Start with the first chain id."""
        self.then = then
        self.chain_ids = chain_ids
        self.asked = 0
        self._lock = threading.Lock()

    def __call__(self, request: Recorded) -> Reply:
        """Answer one request."""
        if request.rpc_method not in ("eth_chainId", "net_version"):
            return self.then(request)
        with self._lock:
            if request.rpc_method == "eth_chainId":
                self.asked += 1
            chain_id = self.chain_ids[max(self.asked - 1, 0) % len(self.chain_ids)]
        value = hex(chain_id) if request.rpc_method == "eth_chainId" else str(chain_id)
        return json_reply({"jsonrpc": "2.0", "id": request.rpc_id, "result": value})


class _Handler(BaseHTTPRequestHandler):
    """Record the request, run the next action, send its reply."""

    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        """Keep test output quiet."""

    def _handle(self) -> None:
        """Serve one request of any HTTP method."""
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        request = Recorded(self.command, self.path, dict(self.headers.items()), body)
        owner = self.server.owner
        reply = owner.next_reply(request)
        with owner.active():
            self._send(reply)

    def _send(self, reply: Reply) -> None:
        """Wait, then drop the connection, hang, or write the reply (perhaps cut short)."""
        if reply.delay:
            time.sleep(reply.delay)
        if reply.hang:
            self.server.owner.closing.wait()
        if reply.drop or reply.hang:
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        self.send_response(reply.status, reply.reason or None)
        for name, value in reply.headers.items():
            self.send_header(name, value)
        if reply.stream:
            self.send_header("Connection", "close")
            self.close_connection = True
        else:
            declared = reply.content_length
            self.send_header(
                "Content-Length", str(len(reply.body) if declared is None else declared)
            )
        self.end_headers()
        if reply.cut_after is not None:
            self.wfile.write(reply.body[: reply.cut_after])
            self.wfile.flush()
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        self.wfile.write(reply.body)
        self._stream(reply.stream)

    def _stream(self, size: int) -> None:
        """Write size filler bytes in chunks."""
        chunk = b" " * 65536
        while size > 0:
            self.wfile.write(chunk[:size])
            size -= len(chunk)

    do_POST = do_GET = do_PUT = _handle


class _Server(ThreadingHTTPServer):
    """A threaded HTTP server with a deep listen queue and quiet errors."""

    request_queue_size = 256
    daemon_threads = True
    block_on_close = False
    owner: ScriptedServer

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Ignore broken pipes of clients that gave up."""


def _unscripted(request: Recorded) -> Reply:
    """Answer 500 for a request nobody scripted."""
    return json_reply(
        {
            "jsonrpc": "2.0",
            "id": request.rpc_id,
            "error": {"code": -32603, "message": "unscripted request"},
        },
        status=500,
    )


class ScriptedServer:
    """A threaded HTTP server on a free loopback port, reusable by any test that needs a bad node.

    Each request takes the next scripted action (`script(...)`), else `fallback`; an action
    sees the Recorded request and returns a Reply: any status, headers and body, a delay, a
    dropped connection, a redirect, an oversized or streamed body. `requests` lists what
    arrived; `max_concurrent` is the peak number of requests answered at once.
    """

    def __init__(
        self, fallback: Action = _unscripted, host: str = "127.0.0.1", port: int = 0
    ) -> None:
        """Bind to port (a free one by default) on host and serve in a daemon thread."""
        self.fallback = fallback
        self.requests: list[Recorded] = []
        self._script: deque[Action] = deque()
        self._lock = threading.Lock()
        self._active = 0
        self.max_concurrent = 0
        self.closing = threading.Event()  # hanging answers end when it is set
        self._server = _Server((host, port), _Handler)
        self._server.owner = self
        self.host = host
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self._thread.start()

    @property
    def url(self) -> str:
        """Return the base URL, e.g. `http://127.0.0.1:PORT`."""
        return f"http://{self.host}:{self.port}"

    def script(self, *actions: Action) -> None:
        """Queue actions for the next requests, in order."""
        with self._lock:
            self._script.extend(actions)

    def next_reply(self, request: Recorded) -> Reply:
        """Record request and return the reply of the next action."""
        with self._lock:
            self.requests.append(request)
            action = self._script.popleft() if self._script else self.fallback
        return action(request)

    @contextmanager
    def active(self) -> Iterator[None]:
        """Count a request being answered; keep the peak in `max_concurrent`."""
        with self._lock:
            self._active += 1
            self.max_concurrent = max(self.max_concurrent, self._active)
        try:
            yield
        finally:
            with self._lock:
                self._active -= 1

    @property
    def rpc_methods(self) -> list[str | None]:
        """Return the JSON-RPC methods received, in order."""
        return [request.rpc_method for request in self.requests]

    def close(self) -> None:
        """Stop serving and close the listening socket."""
        self.closing.set()
        self._server.shutdown()
        self._server.server_close()


@contextmanager
def scripted_server(
    fallback: Action = _unscripted, host: str = "127.0.0.1"
) -> Iterator[ScriptedServer]:
    """Run a ScriptedServer for the duration of a with block."""
    server = ScriptedServer(fallback, host)
    try:
        yield server
    finally:
        server.close()
