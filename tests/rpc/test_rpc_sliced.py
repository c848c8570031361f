"""Big answers are decoded in slices: the same values as json, other tasks run in between."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.rpc.answers import SLICED_BYTES
from explorer.rpc.endpoint import Endpoint
from explorer.rpc.envelope import parse_json
from explorer.rpc.errors import MalformedResponse
from explorer.rpc.sliced import parse_json_sliced
from tests.helpers.rpc import with_client
from tests.helpers.scripted_server import Reply, ScriptedServer, result

SCALARS = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=12,
)
LAYOUTS = st.sampled_from(
    [
        {},
        {"separators": (",", ":")},
        {"indent": 2},
        {"indent": "\t"},
        {"indent": "\r\n"},
        {"ensure_ascii": False},
    ]
)
LOG = {
    "address": "0x" + "ab" * 20,
    "topics": ["0x" + "11" * 32, "0x" + "22" * 32],
    "data": "0x" + "00" * 32,
    "blockNumber": "0x10",
    "logIndex": "0x0",
}


def sliced(body: bytes, per_slice: int = 3) -> Any:
    """Run parse_json_sliced on a fresh loop."""
    return asyncio.run(parse_json_sliced(body, per_slice))


def either(parse: Any, body: bytes) -> tuple[str, Any]:
    """Return ("ok", value) or ("malformed", None) for one parser."""
    try:
        return "ok", parse(body)
    except MalformedResponse:
        return "malformed", None


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.text(max_size=6), JSON, max_size=5) | JSON, LAYOUTS)
def test_any_json_decodes_as_json_does(value: Any, layout: dict[str, Any]) -> None:
    """Objects (with arrays sliced) and any other JSON give exactly json.loads's value."""
    body = json.dumps(value, **layout).encode()
    assert repr(sliced(body)) == repr(json.loads(body))


@settings(max_examples=400, deadline=None)
@given(
    st.binary(max_size=40)
    | st.builds(
        lambda value, cut, junk: json.dumps(value).encode()[:cut] + junk,
        st.dictionaries(st.text(max_size=3), JSON, max_size=3),
        st.integers(0, 60),
        st.sampled_from([b"", b"]", b"}", b",", b" x", b"[", b'"', b":1", b"\x80", b"} {}"]),
    )
)
def test_broken_bodies_fail_exactly_when_json_fails(body: bytes) -> None:
    """Truncated, padded or random bodies: malformed for both parsers or the same value."""
    ours, theirs = either(sliced, body), either(parse_json, body)
    assert repr(ours) == repr(theirs)


def test_a_big_array_lets_other_tasks_run_between_slices() -> None:
    """Another task gets turns while 5,000 items are decoded, 200 per slice."""
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "result": [LOG] * 5000}).encode()

    async def main() -> tuple[Any, int]:
        turns = 0
        decoding = asyncio.ensure_future(parse_json_sliced(body, 200))
        while not decoding.done():
            turns += 1
            await asyncio.sleep(0)
        return decoding.result(), turns

    value, turns = asyncio.run(main())
    assert value["result"] == [LOG] * 5000
    assert turns >= 5000 // 200 - 1


def test_client_returns_a_big_answer_whole(server: ScriptedServer, endpoint: Endpoint) -> None:
    """A result over the slicing threshold arrives intact through the client."""
    logs = [dict(LOG, logIndex=hex(i)) for i in range(4000)]
    assert len(json.dumps(logs)) > SLICED_BYTES
    server.script(result(logs))
    answer = with_client(endpoint, lambda client: client.call("eth_getLogs", [{}]))
    assert answer == logs


def test_client_reports_a_big_broken_answer_as_malformed(
    server: ScriptedServer, endpoint: Endpoint
) -> None:
    """A big body that is cut off is a MalformedResponse, as a small one is."""
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "result": [LOG] * 4000}).encode()
    server.script(lambda request: Reply(200, body[:-5], {"Content-Type": "application/json"}))
    with pytest.raises(MalformedResponse):
        with_client(endpoint, lambda client: client.call("eth_getLogs", [{}]))
