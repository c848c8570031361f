"""JSON-RPC batches: several calls in one HTTP request, each answered on its own (JSON-RPC 2.0 §6).

The service's description does not say whether it takes batches (§4.1: "not shown"); rskj does,
up to `rpc.providers.web.max_batch_requests_size` (50) calls. A node that refuses one answers a
single error object or an HTTP error instead of an array: `BatchRefused`, so the caller can
send the calls one by one instead. With saved data in front of the node (the client's
`answers`), `BatchGathering` lets it answer what it keeps and sends only the rest, together.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from typing import Any

import httpx

from explorer.rpc.answers import http_error
from explorer.rpc.envelope import encode_request, is_error_envelope, node_error, parse_json
from explorer.rpc.errors import MalformedResponse, NodeError, RpcError
from explorer.rpc.transport import HttpAnswer

MAX_BATCH = 50  # rskj's default limit on calls in one batch
Checked = tuple[str, list[Any]]  # a method and its checked JSON params
_compact = json.JSONEncoder(separators=(",", ":"), ensure_ascii=True).encode


class BatchRefused(MalformedResponse):
    """The node answered a batch with something other than an array of answers."""


def encode_batch(ids: Sequence[int], calls: Sequence[tuple[str, str]]) -> bytes:
    """Return the body of a batch: (method, params as JSON) calls under the given ids."""
    parts = [encode_request(i, name, params) for i, (name, params) in zip(ids, calls, strict=True)]
    return b"[" + b",".join(parts) + b"]"


def _answer_of(item: Mapping[str, Any]) -> tuple[Any, bytes] | NodeError:
    """Return one answer's result with its envelope as bytes, or the NodeError it carries."""
    if item.get("error") is not None:
        return node_error(item)
    if "result" not in item:
        raise MalformedResponse("an answer in the batch has neither result nor error")
    return item["result"], _compact(dict(item)).encode()


def results_of_batch(
    answer: HttpAnswer, url: httpx.URL, ids: Sequence[int]
) -> list[tuple[Any, bytes] | NodeError]:
    """Return each call's (result, envelope) or NodeError in the order of ids.

    BatchRefused when the node does not answer batches; other HTTP failures as single calls have.
    """
    status = answer.status
    if not 200 <= status < 300:
        if not 400 <= status < 500 or status in (401, 403, 429):
            raise http_error(answer, url)  # not about batches: auth, rate limit, server, redirect
        value: Any = None
        if answer.body.lstrip()[:1] == b"{":
            try:
                value = parse_json(answer.body)
            except MalformedResponse:
                value = None
        error: RpcError = node_error(value) if is_error_envelope(value) else http_error(answer, url)
        raise BatchRefused(f"the node refused a batch: {error.message}")
    value = parse_json(answer.body)
    if not isinstance(value, list):
        reason = node_error(value).message if is_error_envelope(value) else "no array"
        raise BatchRefused(f"the node answered a batch with {reason}")
    by_id: dict[Any, Any] = {}
    for item in value:
        if not isinstance(item, Mapping) or "id" not in item:
            raise MalformedResponse("an answer in the batch is not a JSON-RPC object")
        by_id[item["id"]] = item
    missing = [i for i in ids if i not in by_id]
    if missing:
        raise MalformedResponse(f"the batch's answer lacks request id {missing[0]}")
    return [_answer_of(by_id[i]) for i in ids]


def raise_first(results: Sequence[Any]) -> list[Any]:
    """Return the results when none is an error, else raise the first error."""
    for result in results:
        if isinstance(result, RpcError):
            raise result
    return list(results)


SendBatch = Callable[[list[Checked]], Awaitable[list[tuple[Any, bytes] | NodeError]]]
AskOne = Callable[[str, Sequence[Any]], Awaitable[Any]]
Answering = Callable[[AskOne], Coroutine[Any, Any, Any]]  # one call through the saved data


class BatchGathering:
    """Gathers the calls the saved data asks the node for, and sends them as one batch.

    Each call runs through the saved data (`answer(index, ask)`); once every call has been
    answered or has asked, the asked ones go out together. A call that asks again later (a
    log range with several holes) is sent on its own through `single`.
    """

    def __init__(
        self, count: int, send: SendBatch, single: AskOne, sent: Callable[[int], None]
    ) -> None:
        self._count = count
        self._send = send
        self._single = single
        self._told = sent
        self._waiting: set[int] = set()  # calls answered, failed or waiting for the node
        self._asked: list[tuple[int, Checked, asyncio.Future[Any]]] = []
        self._ready = asyncio.Event()
        self._sent = False
        self.refused: BatchRefused | None = None

    def asker(self, index: int) -> AskOne:
        """Return the `ask` the saved data uses for call number index."""

        async def ask(method: str, params: Sequence[Any]) -> Any:
            if self._sent:
                return await self._single(method, params)
            future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
            self._asked.append((index, (method, list(params)), future))
            self._settle(index)
            return await future

        return ask

    def _settle(self, index: int) -> None:
        """Note that call index needs nothing more before the batch can go."""
        self._waiting.add(index)
        if len(self._waiting) >= self._count:
            self._ready.set()

    async def run(
        self, answers: Sequence[Callable[[AskOne], Coroutine[Any, Any, Any]]]
    ) -> list[Any]:
        """Return every call's result (or RpcError), sending what the saved data lacks at once."""

        async def one(index: int) -> Any:
            try:
                return await answers[index](self.asker(index))
            finally:
                self._settle(index)

        tasks = [asyncio.ensure_future(one(index)) for index in range(self._count)]
        try:
            await self._ready.wait()
            await self._flush()
            results = await asyncio.gather(*tasks, return_exceptions=True)
        finally:  # stopped (cancelled) midway: no call is left waiting for a batch never sent
            for task in tasks:
                task.cancel()
        if self.refused is not None:
            raise self.refused
        for result in results:
            if isinstance(result, BaseException) and not isinstance(result, RpcError):
                raise result
        return list(results)

    async def _flush(self) -> None:
        """Send the calls asked so far in one batch and hand each its answer."""
        asked, self._sent = list(self._asked), True
        self._told(len(asked))
        if not asked:
            return
        try:
            answers = await self._send([call for _index, call, _future in asked])
        except BatchRefused as refused:
            self.refused = refused
            for _index, _call, future in asked:
                future.set_exception(refused)
            return
        except RpcError as error:
            for _index, _call, future in asked:
                future.set_exception(error)
            return
        for (_index, _call, future), answer in zip(asked, answers, strict=True):
            if isinstance(answer, NodeError):
                future.set_exception(answer)
            else:
                future.set_result(answer)
