"""JSON-RPC batches against a scripted server: order, per-call errors, refusals, retries."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from typing import Any

import pytest

from explorer.rpc.batch import BatchGathering, BatchRefused
from explorer.rpc.client import RpcClient
from explorer.rpc.endpoint import Endpoint
from explorer.rpc.errors import NodeError
from explorer.services.probes import ReadCounts, read_together
from tests.helpers.rpc import with_client
from tests.helpers.scripted_server import Recorded, Reply, json_reply, scripted_server

UNSUPPORTED = {"code": -32600, "message": "batch requests are not supported"}
CALLS = [("eth_getBalance", ("0x" + "11" * 20, "0x10")), ("eth_getTransactionCount",
         ("0x" + "11" * 20, "0x10")), ("eth_blockNumber", ())]  # fmt: skip


def answering(request: Recorded) -> Reply:
    """Answer a batch in shuffled order: a number per call, an error for eth_blockNumber."""
    calls = request.json
    if not isinstance(calls, list):
        return json_reply({"jsonrpc": "2.0", "id": calls["id"], "result": "0x1"})
    answers: list[dict[str, Any]] = []
    for call in calls:
        if call["method"] == "eth_blockNumber":
            error = {"code": -32603, "message": "internal error"}
            answers.append({"jsonrpc": "2.0", "id": call["id"], "error": error})
        else:
            answers.append({"jsonrpc": "2.0", "id": call["id"], "result": hex(call["id"])})
    random.Random(7).shuffle(answers)
    return json_reply(answers)


def test_answers_come_back_in_the_order_asked_with_errors_in_their_place() -> None:
    with scripted_server(answering) as server:
        endpoint = Endpoint.parse(server.url)

        async def use(client: RpcClient) -> tuple[list[Any], int, int]:
            results = await client.batch(CALLS)
            return results, client.stats.total, len(server.requests)

        results, counted, requests = with_client(endpoint, use)
    sent = server.requests[0].json
    assert [call["method"] for call in sent] == [method for method, _ in CALLS]
    assert results[:2] == [hex(sent[0]["id"]), hex(sent[1]["id"])]
    assert isinstance(results[2], NodeError)
    assert counted == 3  # a quota counts calls
    assert requests == 1


@pytest.mark.parametrize(
    "refusal",
    [
        json_reply(
            {
                "jsonrpc": "2.0",
                "id": None,
                "error": {"code": -32600, "message": "batch requests are not supported"},
            },
            400,
        ),
        json_reply({"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "no"}}),
        Reply(400, b"<html>bad request</html>", {"Content-Type": "text/html"}),
    ],
)
def test_a_node_refusing_batches_is_told_and_read_one_by_one(refusal: Reply) -> None:
    def act(request: Recorded) -> Reply:
        return refusal if isinstance(request.json, list) else answering(request)

    with scripted_server(act) as server:
        endpoint = Endpoint.parse(server.url)

        async def use(client: RpcClient) -> tuple[list[Any], list[Any]]:
            with pytest.raises(BatchRefused):
                await client.batch(CALLS[:2])
            counts = ReadCounts()
            first = await read_together(client, CALLS[:2], counts)
            second = await read_together(client, CALLS[:2], counts)
            return first, second

        first, second = with_client(endpoint, use)
    assert first == second == ["0x1", "0x1"]
    kinds = ["batch" if isinstance(r.json, list) else "single" for r in server.requests]
    assert kinds == ["batch", "single", "single", "single", "single"]  # the refusal remembered


def test_a_rate_limited_batch_is_sent_again() -> None:
    replies = iter([Reply(429, b"slow down", {"Retry-After": "0"})])

    def act(request: Recorded) -> Reply:
        return next(replies, None) or answering(request)

    with scripted_server(act) as server:
        endpoint = Endpoint.parse(server.url)
        results = with_client(endpoint, lambda client: client.batch(CALLS[:2]))
    assert len(server.requests) == 2
    methods = [[call["method"] for call in json.loads(r.body)] for r in server.requests]
    assert methods[0] == methods[1] == ["eth_getBalance", "eth_getTransactionCount"]
    assert all(isinstance(result, str) for result in results)


def test_a_gathering_stopped_before_its_batch_leaves_no_call_waiting() -> None:
    """Cancelled while its batch is on the way, a gathering cancels every call it started."""

    async def scenario() -> list[asyncio.Task[Any]]:
        never: asyncio.Future[list[Any]] = asyncio.get_running_loop().create_future()

        async def send(_calls: Any) -> list[Any]:
            return await never  # the node never answers

        async def unused(_method: str, _params: Any) -> Any:
            raise AssertionError("nothing is asked alone")

        async def block_number(ask: Any) -> Any:
            return await ask("eth_blockNumber", [])

        gathering = BatchGathering(3, send, unused, lambda _count: None)
        before = asyncio.all_tasks()
        run = asyncio.ensure_future(gathering.run([block_number] * 3))
        await asyncio.sleep(0.01)
        started = asyncio.all_tasks() - before - {run}
        assert len(started) == 3  # one task per call, waiting for the batch
        run.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await run
        await asyncio.sleep(0)
        return [task for task in started if not task.done()]

    assert asyncio.run(scenario()) == []
