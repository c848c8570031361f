"""A raw JSON-RPC client over httpx for checking the devnet's wire format."""

from __future__ import annotations

import itertools
from typing import Any

import httpx

JSON_HEADERS = {"Content-Type": "application/json", "Accept": "application/json"}


class RpcError(Exception):
    """A JSON-RPC error answer."""

    def __init__(self, status: int, error: dict[str, Any]) -> None:
        super().__init__(f"{error.get('code')}: {error.get('message')}")
        self.status = status
        self.code = error.get("code")
        self.message = str(error.get("message"))
        self.data = error.get("data")


class RawRpc:
    """A minimal JSON-RPC client over httpx, for checking the wire format."""

    def __init__(self, client: httpx.Client, url: str) -> None:
        self.client = client
        self.url = url
        self._ids = itertools.count(1)

    def post(self, payload: Any) -> httpx.Response:
        """POST a JSON payload to the endpoint."""
        return self.client.post(self.url, json=payload, headers=JSON_HEADERS)

    def answer(self, method: str, *params: Any) -> tuple[int, dict[str, Any]]:
        """Send one call; return the HTTP status and the envelope."""
        request_id = next(self._ids)
        body = {"jsonrpc": "2.0", "id": request_id, "method": method, "params": list(params)}
        response = self.post(body)
        envelope = response.json()
        assert envelope["jsonrpc"] == "2.0", envelope
        assert envelope["id"] == request_id, envelope
        return response.status_code, envelope

    def __call__(self, method: str, *params: Any) -> Any:
        """Send one call; return its result or raise RpcError."""
        status, envelope = self.answer(method, *params)
        if "error" in envelope:
            raise RpcError(status, envelope["error"])
        assert status == 200, envelope
        assert set(envelope) == {"jsonrpc", "id", "result"}, envelope
        return envelope["result"]


def assert_error_body(
    response: httpx.Response, status: int, code: int | None = None
) -> dict[str, Any]:
    """Check that the response has the status and a JSON-RPC error envelope; return the error."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    envelope = response.json()
    assert envelope["jsonrpc"] == "2.0"
    assert "result" not in envelope
    error: dict[str, Any] = envelope["error"]
    assert isinstance(error["code"], int)
    assert isinstance(error["message"], str)
    if code is not None:
        assert error["code"] == code, error
    return error


def batch_of(count: int, method: str = "eth_chainId") -> list[dict[str, Any]]:
    """Return a batch of `count` calls with ids 0..count-1."""
    return [{"jsonrpc": "2.0", "id": i, "method": method, "params": []} for i in range(count)]
