"""The log scanner learns a node's eth_getLogs limits from its refusals and remembers them.

Scripted nodes answer as rskj's LogFilter.java does (a span cap and a log cap, separately), as
the hosted service's rule of docs/service.md §8 (one message naming both), and with rskj's
-32011 size limit (JsonRpcResponseLimitError.java, an envelope without `jsonrpc` or `id`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from explorer.chain.records import Log
from explorer.rpc.client import RpcClient
from explorer.rpc.errors import NodeError
from explorer.services.logplan import NodeLimits, is_limit_error, limits_of
from explorer.services.logquery import LogQuery
from explorer.services.logscan import LogScanner
from tests.helpers.devnet import PROFILES, Devnet
from tests.helpers.logs_node import (
    NO_RETRY,
    TRANSFER,
    collect,
    ranges,
    synthetic_log,
    with_client,
)
from tests.helpers.scripted_server import Recorded, Reply, ScriptedServer, json_reply

SPARSE = 100  # a log every 100 blocks


def logs_between(start: int, end: int, every: int = SPARSE) -> list[dict[str, Any]]:
    """Return the scripted logs of a range: one every `every` blocks."""
    first = -(-start // every) * every
    return [synthetic_log(block) for block in range(first, end + 1, every)]


def rskj_node(request: Recorded) -> Reply:
    """Return rskj's rules: `to - from` over 5,000 is -32012, and so are more than 20,000 logs."""
    if request.rpc_method == "eth_blockNumber":
        return json_reply({"jsonrpc": "2.0", "id": request.rpc_id, "result": hex(99_999)})
    flt = request.params[0]
    start, end = int(flt["fromBlock"], 16), int(flt["toBlock"], 16)
    if end - start > 5000:
        error = {"code": -32012, "message": "Cannot query more than 5000 blocks at once"}
        return json_reply({"jsonrpc": "2.0", "id": request.rpc_id, "error": error})
    return json_reply({"jsonrpc": "2.0", "id": request.rpc_id, "result": logs_between(start, end)})


@pytest.fixture
def rskj() -> Iterator[ScriptedServer]:
    """Yield a scripted node with rskj's log limits and a sparse history of 100,000 blocks."""
    server = ScriptedServer(rskj_node)
    try:
        yield server
    finally:
        server.close()


def refusals(server: ScriptedServer) -> int:
    """How many eth_getLogs requests asked for more than 5,001 blocks."""
    return sum(1 for start, end in ranges(server) if end - start > 5000)


def test_a_span_cap_is_learnt_with_one_wasted_request(rskj: ScriptedServer) -> None:
    """Long sparse ranges grow past 2,000 blocks one probe at a time.

    The first refusal names the cap, and no request after it passes the cap.
    """
    query = LogQuery(from_block=0, to_block=99_999)

    async def use(client: RpcClient) -> tuple[list[Log], LogScanner]:
        scanner = LogScanner(client, concurrency=4)
        return await collect(scanner, query), scanner

    logs, scanner = with_client(rskj.url, use, retry=NO_RETRY)
    assert [log.block_number for log in logs] == list(range(0, 100_000, SPARSE))
    assert refusals(rskj) == scanner.splits == 1
    assert scanner.limits.span_cap == 5000
    refused_at = next(i for i, (start, end) in enumerate(ranges(rskj)) if end - start > 5000)
    assert max(end - start + 1 for start, end in ranges(rskj)[refused_at + 1 :]) == 5000


def test_a_refused_request_is_cut_to_the_cap_and_the_rest_handed_back(
    rskj: ScriptedServer,
) -> None:
    """One request at a time: the refused range is cut to the cap, the rest handed back.

    The refused 8,000 blocks are asked again as 5,000 (not halves), and the plan goes on from there.
    """
    query = LogQuery(from_block=0, to_block=29_999)
    logs, splits = with_client(rskj.url, lambda c: _scan(c, query), retry=NO_RETRY)
    assert len(logs) == 300
    assert splits == 1
    asked = ranges(rskj)
    refused = next(i for i, (start, end) in enumerate(asked) if end - start > 5000)
    start = asked[refused][0]
    assert asked[refused + 1] == (start, start + 4999)


async def _scan(client: RpcClient, query: LogQuery) -> tuple[list[Log], int]:
    """Scan one request at a time; return the logs and the refused requests."""
    scanner = LogScanner(client, concurrency=1)
    return await collect(scanner, query), scanner.splits


def test_the_limits_are_remembered_per_client(rskj: ScriptedServer) -> None:
    """A second scan through the same client (one endpoint) wastes nothing.

    Another client starts afresh.
    """
    query = LogQuery(from_block=0, to_block=49_999)

    async def use(client: RpcClient) -> tuple[int, int, NodeLimits]:
        first, second = LogScanner(client), LogScanner(client)
        await collect(first, query)
        await collect(second, query)
        return first.splits, second.splits, limits_of(client)

    first, second, learnt = with_client(rskj.url, use, retry=NO_RETRY)
    assert (first, second) == (1, 0)
    assert learnt.span_cap == 5000
    fresh = with_client(rskj.url, lambda client: _splits(client, query), retry=NO_RETRY)
    assert fresh == 1


async def _splits(client: RpcClient, query: LogQuery) -> int:
    """Scan with a new scanner; return its refused requests."""
    scanner = LogScanner(client)
    await collect(scanner, query)
    return scanner.splits


def test_a_scanner_told_the_limits_never_probes(rskj: ScriptedServer) -> None:
    """Limits given in advance: requests go straight to 5,000 blocks and none is refused."""
    query = LogQuery(from_block=0, to_block=99_999)

    async def use(client: RpcClient) -> int:
        scanner = LogScanner(client, limits=NodeLimits(span_cap=5000, log_cap=20000))
        await collect(scanner, query)
        return scanner.splits

    assert with_client(rskj.url, use, retry=NO_RETRY) == 0
    assert refusals(rskj) == 0


def service_node(request: Recorded) -> Reply:
    """Return the service's rule at a small scale.

    Any 200 blocks, or longer with at most 50 logs.
    """
    if request.rpc_method == "eth_blockNumber":
        return json_reply({"jsonrpc": "2.0", "id": request.rpc_id, "result": hex(9_999)})
    flt = request.params[0]
    start, end = int(flt["fromBlock"], 16), int(flt["toBlock"], 16)
    logs = logs_between(start, end, every=2 if start < 4000 else SPARSE)
    if end - start + 1 > 200 and len(logs) > 50:
        message = "Cannot query more than 200 blocks at once. Filter returned more than 50 logs."
        error = {"code": -32012, "message": message}
        return json_reply({"jsonrpc": "2.0", "id": request.rpc_id, "error": error})
    return json_reply({"jsonrpc": "2.0", "id": request.rpc_id, "result": logs})


def test_the_service_rule_is_read_from_one_message() -> None:
    """'more than N blocks … more than M logs' in one breath: any N blocks, M logs beyond."""
    server = ScriptedServer(service_node)
    try:
        query = LogQuery(from_block=0, to_block=9_999)

        async def use(client: RpcClient) -> LogScanner:
            scanner = LogScanner(client, concurrency=2, max_blocks=400)
            found = await collect(scanner, query)
            expected = list(range(0, 4000, 2)) + list(range(4000, 10_000, SPARSE))
            assert [log.block_number for log in found] == expected
            return scanner

        scanner = with_client(server.url, use, retry=NO_RETRY)
    finally:
        server.close()
    assert (scanner.limits.free_span, scanner.limits.log_cap, scanner.limits.span_cap) == (
        200,
        50,
        None,
    )
    assert scanner.splits <= 2


def test_a_size_limit_without_numbers_splits_and_caps_the_logs() -> None:
    """-32011 "Response size limit …" (no jsonrpc, no id): halved, and fewer logs asked for."""

    def sized(request: Recorded) -> Reply:
        flt = request.params[0]
        start, end = int(flt["fromBlock"], 16), int(flt["toBlock"], 16)
        logs = [synthetic_log(block) for block in range(start, end + 1)]
        if len(logs) > 120:
            error = {"code": -32011, "message": "Response size limit of 60000 bytes exceeded"}
            return json_reply({"error": error})
        return json_reply({"jsonrpc": "2.0", "id": request.rpc_id, "result": logs})

    server = ScriptedServer(sized)
    try:
        query = LogQuery(from_block=0, to_block=1999)

        async def use(client: RpcClient) -> LogScanner:
            scanner = LogScanner(client, concurrency=1, max_blocks=100, target_logs=1000)
            found = await collect(scanner, query)
            assert [log.block_number for log in found] == list(range(2000))
            return scanner

        scanner = with_client(server.url, use, retry=NO_RETRY)
    finally:
        server.close()
    assert 1 <= scanner.splits <= 2
    assert scanner.limits.log_cap == 200  # half of what the refused request should have held


@pytest.mark.parametrize(
    ("code", "message"),
    [
        (-32012, "Cannot query more than 5000 blocks at once"),
        (-32012, "Filter returned more than 20000 logs."),
        (-32011, "Response size limit of 10485760 bytes exceeded"),
        (-32011, "Execution has got timeout out."),
        (-32005, "query returned more than 10000 results"),
        (-32000, "block range is too wide"),
    ],
)
def test_limit_errors_of_every_node(code: int, message: str) -> None:
    """The limit words of rskj and of other nodes are all limit errors."""
    assert is_limit_error(NodeError(code, message))


@pytest.mark.parametrize("devnet", PROFILES, indirect=True)
def test_whole_history_scan_on_each_profile(devnet: Devnet) -> None:
    """The whole history's Transfers on the service and on a bare rskj node, nothing lost."""
    manifest = devnet.manifest()
    query = LogQuery(topics=((TRANSFER,),), from_block=0, to_block=manifest["head_at_build"])

    async def use(client: RpcClient) -> tuple[int, LogScanner]:
        scanner = LogScanner(client, concurrency=1)
        return len(await collect(scanner, query)), scanner

    found, scanner = with_client(devnet.url(), use)
    assert found == manifest["transfer_log_count"]
    assert scanner.splits <= 1
    if devnet.profile == "rskj":
        assert scanner.limits.span_cap == 5000
