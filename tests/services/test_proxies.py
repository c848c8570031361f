"""Proxy detection against a scripted node: a diamond, a silent beacon, a word not an address."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from eth_abi.abi import encode

from explorer.rpc.client import RpcClient
from explorer.services.proxies import (
    BEACON_SLOT,
    FACETS_CALL,
    IMPLEMENTATION_SLOT,
    PUSH4,
    ProxyInfo,
    ProxyKind,
    detect_proxy,
)
from tests.helpers.logs_node import with_client
from tests.helpers.scripted_server import Recorded, Reply, ScriptedServer, json_reply

FACET = "0x" + "fa" * 20
BEACON = "0x" + "be" * 20
SOME_CODE = bytes([0x60, 0x80, PUSH4, *FACETS_CALL, 0x14])  # a dispatcher comparing facets()


Answer = dict[str, Any] | None  # a call's JSON-RPC result or error member; None answers "0x"


def node(slots: dict[int, str], answers: Callable[[str], Answer]) -> Callable[[Recorded], Reply]:
    """Answer storage reads from slots (zero elsewhere) and calls through answers."""

    def act(request: Recorded) -> Reply:
        body: dict[str, Any] = request.json
        method, params = body["method"], body["params"]
        if method == "eth_getStorageAt":
            word = slots.get(int(params[1], 16), "0x" + "00" * 32)
            return json_reply({"jsonrpc": "2.0", "id": body["id"], "result": word})
        if method == "eth_call" and (answer := answers(params[0]["data"])) is not None:
            return json_reply({"jsonrpc": "2.0", "id": body["id"], **answer})
        return json_reply({"jsonrpc": "2.0", "id": body["id"], "result": "0x"})

    return act


def detect(server: ScriptedServer, code: bytes) -> ProxyInfo | None:
    """Run detect_proxy against the scripted node."""

    async def use(client: RpcClient) -> ProxyInfo | None:
        return await detect_proxy(client, "0x" + "12" * 20, code, 100)

    return with_client(server.url, use)


def word(address: str) -> str:
    """Return an address as a storage word."""
    return "0x" + "00" * 12 + address[2:]


def test_a_diamond_lists_its_facets() -> None:
    """A diamond that answers facets() is named with each facet and its selectors."""
    facets = encode(
        ["(address,bytes4[])[]"], [[(FACET, [b"\x01\x02\x03\x04", b"\x05\x06\x07\x08"])]]
    )

    def answers(data: str) -> Answer:
        return {"result": "0x" + facets.hex()} if data == "0x" + FACETS_CALL.hex() else None

    server = ScriptedServer(node({}, answers))
    try:
        found = detect(server, SOME_CODE)
    finally:
        server.close()
    assert found is not None
    assert found.kind is ProxyKind.DIAMOND
    assert found.facets[0].address == FACET
    assert len(found.facets[0].selectors) == 2


def test_a_beacon_that_does_not_answer_is_said() -> None:
    """A beacon whose implementation() reverts leaves the implementation unknown, with why."""
    revert: Answer = {
        "error": {"code": -32015, "message": "VM Exception while processing transaction"}
    }
    server = ScriptedServer(node({BEACON_SLOT: word(BEACON)}, lambda _data: revert))
    try:
        found = detect(server, b"\x60\x80")
    finally:
        server.close()
    assert found is not None
    assert found.kind is ProxyKind.BEACON
    assert found.implementation is None
    assert found.beacon == BEACON
    assert "did not answer" in found.note


def test_a_word_that_is_no_address_is_no_proxy() -> None:
    """A slot holding a full 32-byte word (not an address) is not taken for an implementation."""
    server = ScriptedServer(node({IMPLEMENTATION_SLOT: "0x" + "ff" * 32}, lambda _data: None))
    try:
        assert detect(server, b"\x60\x80") is None
        assert detect(server, b"") is None  # no code: nothing asked
    finally:
        server.close()
