"""LogScanner against the devnet's history (plain and tiny limits) and a scripted bad node."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest

from explorer.chain.records import Log
from explorer.rpc.client import RpcClient
from explorer.rpc.errors import (
    AnswerTooLarge,
    AuthError,
    InvalidInput,
    MalformedResponse,
    NodeError,
)
from explorer.services.logexport import csv_fields
from explorer.services.logplan import is_limit_error
from explorer.services.logquery import LogQuery
from explorer.services.logresults import FailedChunk, ScanProgress
from explorer.services.logscan import LogScanner
from tests.helpers.devnet import Devnet
from tests.helpers.logs_node import (
    NO_RETRY,
    TRANSFER,
    answer_logs,
    collect,
    ranges,
    scripted,
    synthetic_log,
    with_client,
)
from tests.helpers.scripted_server import (
    Recorded,
    ScriptedServer,
    html,
    json_reply,
    rpc_error,
    slow,
)


async def sequential(client: RpcClient, query: LogQuery, last: int, step: int) -> list[Log]:
    """Scan with a plain loop of fixed-size requests, one at a time."""
    found: list[Log] = []
    for start in range(0, last + 1, step):
        raw = await client.call(
            "eth_getLogs", [query.filter_json(start, min(last, start + step - 1))]
        )
        found.extend(Log.from_json(item) for item in raw)
    return found


def keys(logs: list[Log]) -> list[tuple[int | None, int | None, str | None]]:
    """Return the identity of each log, in order."""
    return [(log.block_number, log.log_index, log.transaction_hash) for log in logs]


def test_full_history_transfer_scan_matches_manifest_and_sequential(devnet: Devnet) -> None:
    """Every Transfer of the history, in block order, same as one-at-a-time requests."""
    manifest = devnet.manifest()
    head = manifest["head_at_build"]
    query = LogQuery(topics=((TRANSFER,),), from_block=0, to_block=head)

    async def use(client: RpcClient) -> tuple[list[Log], list[Log], list[ScanProgress], int]:
        progress: list[ScanProgress] = []
        scanner = LogScanner(client, concurrency=4)
        scanned = await collect(scanner, query, progress)
        return scanned, await sequential(client, query, head, 2000), progress, scanner.requests

    scanned, plain, progress, requests = with_client(devnet.url(), use)
    assert len(scanned) == manifest["transfer_log_count"] > 0
    assert keys(scanned) == keys(plain)
    assert [log.raw for log in scanned] == [log.raw for log in plain]
    ordered = [(log.block_number or 0, log.log_index or 0) for log in scanned]
    assert ordered == sorted(ordered)
    assert 4 <= requests <= 8  # 2,000-block requests first, then longer ones in the quiet tail
    assert progress[-1].blocks_done == progress[-1].blocks_total == head + 1
    assert progress[-1].logs_found == len(scanned)
    assert progress[-1].fraction == 1.0
    assert [p.blocks_done for p in progress] == sorted(p.blocks_done for p in progress)


def test_tags_are_resolved_once_and_address_filter_applies(devnet: Devnet) -> None:
    """earliest/latest: one eth_blockNumber; only the token's Transfers come back."""
    manifest = devnet.manifest()
    token = manifest["token"]
    query = LogQuery(addresses=(token.upper().replace("0X", "0x"),), topics=((TRANSFER,),))

    async def use(client: RpcClient) -> tuple[list[Log], dict[str, int]]:
        logs = await collect(LogScanner(client), query)
        return logs, dict(client.stats.by_method)

    logs, by_method = with_client(devnet.url(), use)
    assert logs
    assert {log.address for log in logs} == {token}
    assert by_method.get("eth_blockNumber") == 1


def test_block_hash_query_is_one_request(devnet: Devnet) -> None:
    """A blockHash query sends exactly one eth_getLogs with the hash."""
    tx_hash = devnet.manifest()["token_transfer"]

    async def use(client: RpcClient) -> tuple[list[Log], int]:
        receipt = await client.get_transaction_receipt(tx_hash)
        assert receipt is not None
        assert receipt.block_hash is not None
        scanner = LogScanner(client)
        logs = await collect(scanner, LogQuery(block_hash=receipt.block_hash))
        assert all(log.block_hash == receipt.block_hash for log in logs)
        return logs, scanner.requests

    logs, requests = with_client(devnet.url(), use)
    assert requests == 1
    assert any(log.transaction_hash == tx_hash for log in logs)


def test_tiny_limits_split_until_they_fit_with_the_same_result(
    devnet: Devnet,
    devnet_limited: Devnet,
) -> None:
    """Over 10 blocks / 5 logs: splits until the limits are learnt, nothing lost or doubled.

    Few requests: the limited devnet counts a daily quota per key.
    """
    query = LogQuery(topics=((TRANSFER,),), from_block=1000, to_block=1100)

    async def use(client: RpcClient) -> tuple[list[Log], LogScanner]:
        scanner = LogScanner(client, concurrency=4)
        return await collect(scanner, query), scanner

    scanned, scanner = with_client(devnet_limited.url(), use)
    unlimited = with_client(devnet.url(), lambda c: collect(LogScanner(c), query))
    assert scanner.splits >= 1
    assert not scanner.failed
    assert (scanner.limits.free_span, scanner.limits.log_cap) == (10, 5)
    assert scanner.requests < 40
    assert len(scanned) == len(unlimited) > 20
    assert keys(scanned) == keys(unlimited)


def test_limit_error_detection() -> None:
    """-32012, -32011 and rskj's words count as limit errors; others do not."""
    assert is_limit_error(NodeError(-32012, "anything"))
    assert is_limit_error(NodeError(-32000, "Cannot query more than 2000 blocks at once."))
    assert is_limit_error(NodeError(-32000, "Filter returned more than 10000 logs."))
    assert is_limit_error(NodeError(-32000, "query returned too many results"))
    assert is_limit_error(AnswerTooLarge("the node's answer is larger than 32 MiB"))
    assert not is_limit_error(MalformedResponse("the node's answer is not JSON"))
    assert not is_limit_error(NodeError(-32602, "invalid params"))


def test_query_validation() -> None:
    """Bad addresses, topics, tags and empty OR-lists are InvalidInput before any request."""
    for bad in (
        LogQuery(addresses=("0x12",)),
        LogQuery(topics=(("0x1234",),)),
        LogQuery(topics=((),)),
        LogQuery(from_block="soon"),
        LogQuery(topics=(None, None, None, None, None)),
    ):
        with pytest.raises(InvalidInput):
            bad.checked()
    query = LogQuery(
        addresses=("0x" + "AB" * 20, "0x" + "ab" * 20, "0x" + "cd" * 20),
        topics=(None, (TRANSFER, "0x" + "11" * 32)),
    ).checked()
    assert query.filter_json(1, 2) == {
        "fromBlock": "0x1",
        "toBlock": "0x2",
        "address": ["0x" + "ab" * 20, "0x" + "cd" * 20],
        "topics": [None, [TRANSFER, "0x" + "11" * 32]],
    }


# --- a scripted node: one synthetic log per block, misbehaving on purpose ---------------


@pytest.fixture
def node() -> Iterator[ScriptedServer]:
    """Yield a scripted node that answers every eth_getLogs correctly."""
    yield from scripted(answer_logs)


def scan_with_splits(
    server: ScriptedServer, query: LogQuery, **options: Any
) -> tuple[list[Log], int]:
    """Scan a scripted node (no retries) with a scanner of these options; return (logs, splits)."""

    async def use(client: RpcClient) -> tuple[list[Log], int]:
        scanner = LogScanner(client, **options)
        return await collect(scanner, query), scanner.splits

    return with_client(server.url, use, retry=NO_RETRY)


def test_failed_chunk_is_reported_then_retried(node: ScriptedServer) -> None:
    """A chunk that keeps failing is skipped and reported; retry_failed fills the gap."""
    node.script(answer_logs, html(502))  # the second request fails (no client retries)
    query = LogQuery(from_block=0, to_block=799)

    async def use(client: RpcClient) -> tuple[list[Log], list[FailedChunk], list[Log], int]:
        scanner = LogScanner(client, concurrency=1, max_blocks=200, target_logs=200)
        first = await collect(scanner, query)
        failed = list(scanner.failed)
        again = [log async for batch in scanner.retry_failed() for log in batch]
        return first, failed, again, len(scanner.failed)

    first, failed, again, still = with_client(node.url, use, retry=NO_RETRY)
    assert [(f.start, f.end) for f in failed] == [(200, 399)]
    assert failed[0].error.kind.value == "server"
    assert len(first) == 600
    assert not any(200 <= (log.block_number or 0) <= 399 for log in first)
    assert [log.block_number for log in again] == list(range(200, 400))
    assert still == 0


def test_results_come_in_block_order_when_answers_do_not(node: ScriptedServer) -> None:
    """The first chunk answers last; batches still arrive in block order."""
    node.script(slow(0.3, answer_logs))
    query = LogQuery(from_block=0, to_block=399)

    async def use(client: RpcClient) -> list[Log]:
        return await collect(LogScanner(client, concurrency=4, max_blocks=100), query)

    logs = with_client(node.url, use, retry=NO_RETRY)
    assert [log.block_number for log in logs] == list(range(400))


def test_duplicates_are_dropped(node: ScriptedServer) -> None:
    """A node answering overlapping logs: each (tx hash, log index) once."""

    def overlapping(request: Recorded) -> Any:
        flt = request.params[0]
        start, end = int(flt["fromBlock"], 16), int(flt["toBlock"], 16)
        logs = [synthetic_log(b) for b in range(max(0, start - 5), end + 1)]
        return json_reply({"jsonrpc": "2.0", "id": request.rpc_id, "result": logs})

    node.fallback = overlapping
    query = LogQuery(from_block=0, to_block=299)
    logs = with_client(node.url, lambda c: collect(LogScanner(c, max_blocks=50), query))
    assert [log.block_number for log in logs] == list(range(300))


def test_repeats_in_one_answer_are_dropped_but_pending_logs_kept(node: ScriptedServer) -> None:
    """A log sent twice in one answer shows once.

    Logs without a transaction hash or index (pending) are never taken for repeats.
    """
    pending = {**synthetic_log(7), "transactionHash": None, "logIndex": None}

    def repeating(request: Recorded) -> Any:
        flt = request.params[0]
        start, end = int(flt["fromBlock"], 16), int(flt["toBlock"], 16)
        logs = [synthetic_log(b) for b in range(start, end + 1) for _ in range(2)]
        extra = [pending, pending] if start <= 7 <= end else []
        return json_reply({"jsonrpc": "2.0", "id": request.rpc_id, "result": logs + extra})

    node.fallback = repeating
    query = LogQuery(from_block=0, to_block=99)
    logs = with_client(node.url, lambda c: collect(LogScanner(c, max_blocks=25), query))
    hashes = [log.transaction_hash for log in logs]
    assert [h for h in hashes if h is not None] == ["0x" + f"{b + 1:064x}" for b in range(100)]
    assert hashes.count(None) == 2


def test_limit_message_without_the_code_splits(node: ScriptedServer) -> None:
    """The rskj text 'Cannot query more than N blocks' under another code still splits the range."""

    def limited(request: Recorded) -> Any:
        flt = request.params[0]
        if int(flt["toBlock"], 16) - int(flt["fromBlock"], 16) + 1 > 30:
            return rpc_error(-32000, "Cannot query more than 30 blocks at once.")(request)
        return answer_logs(request)

    node.fallback = limited
    query = LogQuery(from_block=0, to_block=199)

    logs, splits = scan_with_splits(node, query, max_blocks=200)
    assert [log.block_number for log in logs] == list(range(200))
    assert splits >= 4
    fitting = [end - start + 1 for start, end in ranges(node) if end - start < 30]
    assert sum(fitting) == 200  # every block once, by a request within the limit


def test_cancel_stops_requests(node: ScriptedServer) -> None:
    """Cancelling the scanning task sends nothing more and cancels what is in flight."""

    def slow(request: Recorded) -> Any:
        time.sleep(0.3)
        return answer_logs(request)

    node.fallback = slow
    query = LogQuery(from_block=0, to_block=99_999)

    async def use(client: RpcClient) -> tuple[int, int]:
        scanner = LogScanner(client, concurrency=3, max_blocks=100)
        task = asyncio.ensure_future(collect(scanner, query))
        while len(node.requests) < 3:
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        sent = scanner.requests
        await asyncio.sleep(1.0)
        return sent, len(node.requests)

    sent, arrived = with_client(node.url, use, retry=NO_RETRY)
    assert sent <= 6
    assert arrived == sent


def test_a_closed_scan_cancels_its_requests_at_once(node: ScriptedServer) -> None:
    """Closing the scan after a batch cancels every request task it started, at once.

    The scan's inner generator is closed with it (an abandoned one would await in its cleanup
    when the garbage collector finalises it, which Python reports as an ignored GeneratorExit).
    """

    def first_fast_then_slow(request: Recorded) -> Any:
        if int(request.params[0]["fromBlock"], 16) > 0:
            time.sleep(0.3)
        return answer_logs(request)

    node.fallback = first_fast_then_slow
    query = LogQuery(from_block=0, to_block=99_999)

    async def use(client: RpcClient) -> int:
        scan = LogScanner(client, concurrency=3, max_blocks=100).scan(query)
        await anext(scan)
        await scan.aclose()
        others = asyncio.all_tasks() - {asyncio.current_task()}
        return sum(1 for task in others if not task.cancelling())  # shared calls: cancelled

    assert with_client(node.url, use, retry=NO_RETRY) == 0


def test_progress_eta_and_csv_fields(node: ScriptedServer) -> None:
    """Progress counts blocks and logs with an ETA; CSV rows have the header's ten fields."""
    query = LogQuery(from_block=0, to_block=999)
    progress: list[ScanProgress] = []
    logs = with_client(
        node.url, lambda c: collect(LogScanner(c, concurrency=2, max_blocks=100), query, progress)
    )
    assert len(logs) == 1000
    assert progress[-1].logs_found == 1000
    assert progress[0].eta is not None
    assert progress[-1].eta == 0.0
    assert csv_fields(logs[0]) == [
        "0",
        "0x" + f"{1:064x}",
        "0",
        "0x" + "aa" * 20,
        TRANSFER,
        "",
        "",
        "",
        "0x",
        "",
    ]


def test_auth_error_ends_the_scan(node: ScriptedServer) -> None:
    """A refused key fails every range alike: the scan stops at once instead of going on."""
    node.fallback = html(403)
    query = LogQuery(from_block=0, to_block=99_999)

    async def use(client: RpcClient) -> int:
        scanner = LogScanner(client, concurrency=2, max_blocks=100)
        with pytest.raises(AuthError):
            await collect(scanner, query)
        return scanner.requests

    assert with_client(node.url, use, retry=NO_RETRY) <= 4


def sparse_then_dense(request: Recorded) -> Any:
    """Return logs every 100 blocks below 8,000 and every block from there.

    Over 2,000 blocks a range may hold at most 1,000 logs (-32012 otherwise), like the service's
    rule at a smaller scale.
    """
    if request.rpc_method == "eth_blockNumber":
        return json_reply({"jsonrpc": "2.0", "id": request.rpc_id, "result": hex(15_999)})
    flt = request.params[0]
    start, end = int(flt["fromBlock"], 16), int(flt["toBlock"], 16)
    blocks = [b for b in range(start, end + 1) if b >= 8000 or b % 100 == 0]
    if end - start + 1 > 2000 and len(blocks) > 1000:
        return rpc_error(-32012, "Filter returned more than 1000 logs.")(request)
    logs = [synthetic_log(b) for b in blocks]
    return json_reply({"jsonrpc": "2.0", "id": request.rpc_id, "result": logs})


def test_sparse_ranges_get_long_requests_and_few_of_them(node: ScriptedServer) -> None:
    """Sparse logs, one request at a time: requests grow past 2,000 blocks, three in all."""
    node.fallback = answer_sparse
    query = LogQuery(from_block=0, to_block=19_999)

    logs, splits = scan_with_splits(node, query, concurrency=1)
    assert [log.block_number for log in logs] == list(range(0, 20_000, 100))
    spans = [end - start + 1 for start, end in sorted(ranges(node))]
    assert spans == [2000, 8000, 10_000]  # grown four-fold, then the rest at once
    assert splits == 0


def test_sparse_ranges_in_parallel_grow_and_no_tail_shrinks(node: ScriptedServer) -> None:
    """Sparse logs, four slots: after the first four 2,000-block answers requests grow.

    How many follow, and how small the last ones are, depends on which answers end first: the
    rest is shared by the slots free at that moment (one run on a busy machine ended in four
    750-block requests). One request at a time, the rest is taken whole (the test above).
    """
    node.fallback = answer_sparse
    query = LogQuery(from_block=0, to_block=19_999)

    logs, splits = scan_with_splits(node, query, concurrency=4)
    assert [log.block_number for log in logs] == list(range(0, 20_000, 100))
    spans = [end - start + 1 for start, end in sorted(ranges(node))]
    assert spans[:4] == [2000] * 4
    assert max(spans[4:]) >= 3000, spans  # at least the 12,000 blocks left shared by 4
    assert sum(spans) == 20_000  # every block asked once
    assert splits == 0


def answer_sparse(request: Recorded) -> Any:
    """Answer with a log every 100 blocks, whatever the range."""
    flt = request.params[0]
    start, end = int(flt["fromBlock"], 16), int(flt["toBlock"], 16)
    logs = [synthetic_log(b) for b in range(start, end + 1) if b % 100 == 0]
    return json_reply({"jsonrpc": "2.0", "id": request.rpc_id, "result": logs})


def test_a_long_request_into_a_dense_range_splits_until_it_fits(node: ScriptedServer) -> None:
    """Grown long in the sparse part, a request meets the dense part.

    It fails with -32012 and is split; every log still comes once and in order.
    """
    node.fallback = sparse_then_dense
    query = LogQuery(from_block=0, to_block=15_999)

    logs, splits = scan_with_splits(node, query, concurrency=1)
    expected = [b for b in range(16_000) if b >= 8000 or b % 100 == 0]
    assert [log.block_number for log in logs] == expected
    assert splits >= 1
    assert max(end - start + 1 for start, end in ranges(node)) > 2000


def test_slots_are_refilled_while_the_consumer_holds_a_batch(node: ScriptedServer) -> None:
    """The scanner sends every request even when the consumer stops asking.

    The consumer keeps the first batch and asks for nothing more; 4 in flight is kept by the
    requests' own ends.
    """
    query = LogQuery(from_block=0, to_block=999)

    async def use(client: RpcClient) -> list[Log]:
        scanner = LogScanner(client, concurrency=2, max_blocks=100, target_logs=100, growth=1)
        batches = scanner.scan(query)
        first = await anext(batches)

        async def every_range_sent() -> None:
            while sum(end - start + 1 for start, end in ranges(node)) < 1000:
                await asyncio.sleep(0.01)

        await asyncio.wait_for(every_range_sent(), timeout=20)
        return first + [log async for batch in batches for log in batch]

    logs = with_client(node.url, use, retry=NO_RETRY)
    assert [log.block_number for log in logs] == list(range(1000))


def test_an_answer_over_the_size_cap_splits_the_range(node: ScriptedServer) -> None:
    """Ranges whose answers pass the client's size cap are split until the answers fit."""
    query = LogQuery(from_block=0, to_block=399)

    async def use(client: RpcClient) -> tuple[list[Log], LogScanner]:
        scanner = LogScanner(client, concurrency=2, max_blocks=200)
        return await collect(scanner, query), scanner

    one_log = len(json.dumps(synthetic_log(0)))
    logs, scanner = with_client(node.url, use, retry=NO_RETRY, max_response_bytes=one_log * 40)
    assert [log.block_number for log in logs] == list(range(400))
    assert scanner.splits >= 4
    assert not scanner.failed
    assert max(end - start + 1 for start, end in ranges(node)) >= 100
