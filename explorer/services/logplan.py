"""Range planning for eth_getLogs.

Each node's limits learnt from its answers, chunk sizes learnt from log density.

The hosted service answers any range with at most 10,000 logs, or up to 2,000 blocks with any
number (docs/service.md §8); rskj refuses more than 5,000 blocks or 20,000 logs in any range
(§11, LogFilter.java). Neither is assumed: a range over `max_blocks` is first tried by one
request at a time, and a refusal's words ("Cannot query more than N blocks at once",
"Filter returned more than N logs.") set the node's limits for every later request to it.
"""

from __future__ import annotations

import asyncio
import math
import re
import weakref
from dataclasses import dataclass
from typing import Any

from explorer.chain.records import Log
from explorer.rpc.errors import AnswerTooLarge, NodeError, RpcError
from explorer.rpc.nodefailures import NodeFailure

MAX_BLOCKS = 2000
MAX_SPAN = 32 * MAX_BLOCKS  # blocks in one request, however sparse the range
TARGET_LOGS = 2500  # a quarter of the service's 10,000-log cap for longer ranges
GROWTH = 4
LIMIT_FAILURES = (NodeFailure.LOG_LIMIT, NodeFailure.ANSWER_TOO_LARGE, NodeFailure.TIMEOUT)
_BLOCKS_WORDS = re.compile(r"more than (\d[\d,]*) blocks", re.IGNORECASE)
_LOGS_WORDS = re.compile(r"more than (\d[\d,]*) (?:logs|results)", re.IGNORECASE)


def is_limit_error(error: RpcError) -> bool:
    """Tell whether an error says the query was too big (split it and go on).

    That is the node's limit errors, or an answer over the client's size cap.
    """
    if isinstance(error, AnswerTooLarge):
        return True
    return isinstance(error, NodeError) and error.failure in LIMIT_FAILURES


def _number(pattern: re.Pattern[str], text: str) -> int | None:
    """Return the number a limit's words name, if any."""
    found = pattern.search(text)
    return int(found.group(1).replace(",", "")) if found else None


@dataclass
class NodeLimits:
    """What a node's answers have taught about its eth_getLogs limits (None: not known).

    `span_cap`: no range over this many blocks (rskj). `free_span` with `log_cap`: any number
    of logs up to free_span blocks, at most log_cap beyond (the service). `log_cap` alone: at
    most that many logs in any answer (rskj). `proven`: the longest range answered so far.
    """

    span_cap: int | None = None
    free_span: int | None = None
    log_cap: int | None = None
    proven: int = 0

    @property
    def span_known(self) -> bool:
        """Tell whether the node's rule for long ranges is known (no probing needed)."""
        return self.span_cap is not None or (
            self.free_span is not None and self.log_cap is not None
        )

    def fitting(self, density: float) -> int | None:
        """Return the longest range sure to pass a known log cap at this density.

        A quarter of the cap, for density that varies; any length up to a free span; None
        when no cap is known.
        """
        if self.log_cap is None:
            return None
        return max(1, int(self.log_cap / 4 / max(density, 1e-9)), self.free_span or 0)

    def answered(self, blocks: int) -> None:
        """Note a range the node answered."""
        self.proven = max(self.proven, blocks)

    def refused(self, error: RpcError, blocks: int, expected_logs: float | None) -> None:
        """Learn what a limit error says about the node's limits."""
        text = error.node_message if isinstance(error, NodeError) else ""
        failure = error.failure if isinstance(error, NodeError) else NodeFailure.ANSWER_TOO_LARGE
        span, logs = _number(_BLOCKS_WORDS, text), _number(_LOGS_WORDS, text)
        if span is not None and logs is not None:  # both in one breath: the service's rule
            self.free_span, self.log_cap = span, _lower(self.log_cap, logs)
        elif span is not None:
            self.span_cap = _lower(self.span_cap, span)
        elif logs is not None:
            self.log_cap = _lower(self.log_cap, logs)
        elif failure is NodeFailure.LOG_LIMIT and blocks > self.proven:
            self.span_cap = _lower(self.span_cap, max(self.proven, blocks // 2, 1))
        elif expected_logs:  # too big or too slow an answer: fewer logs a request
            self.log_cap = _lower(self.log_cap, max(1, int(expected_logs) // 2))

    def ceiling(self, presumed: int, probing: bool) -> int:
        """Return the longest range a new request may ask for.

        Within a known span cap; over the longest range known to work only for one probe at a time
        (`probing`: one is out).
        """
        hard = min(self.span_cap or MAX_SPAN, MAX_SPAN)
        if self.span_known or not probing:
            return hard
        return min(hard, max(presumed, self.proven))


def _lower(current: int | None, new: int) -> int:
    """Return the lower of a known value and a new one."""
    return new if current is None else min(current, new)


_LEARNT: weakref.WeakKeyDictionary[Any, NodeLimits] = weakref.WeakKeyDictionary()


def limits_of(client: Any) -> NodeLimits:
    """Return what the scans through this client (one endpoint) have learnt so far."""
    try:
        return _LEARNT.setdefault(client, NodeLimits())
    except TypeError:  # not weakly referable: nothing is remembered
        return NodeLimits()


@dataclass
class Chunk:
    """One block range, waiting or in flight; `logs` once done, `error` once failed."""

    start: int
    end: int
    task: asyncio.Task[list[Log]] | None = None
    logs: list[Log] | None = None
    error: RpcError | None = None
    probe: bool = False  # longer than any range the node is known to answer

    @property
    def blocks(self) -> int:
        """Return the number of blocks in the range."""
        return self.end - self.start + 1

    @property
    def in_flight(self) -> bool:
        """Tell whether its request was sent and has not ended."""
        return self.task is not None and not self.task.done()

    @property
    def settled(self) -> bool:
        """Tell whether it is done or failed (its place in block order can be passed)."""
        return self.logs is not None or self.error is not None


@dataclass(frozen=True)
class ChunkSizing:
    """How many blocks a request asks for: at first, and after the density of a finished one.

    At most `max_blocks` at first; then about `target_logs` logs a request, growing at most
    `growth` times a step, up to MAX_SPAN and within the node's limits.
    """

    max_blocks: int = MAX_BLOCKS
    target_logs: int = TARGET_LOGS
    initial_blocks: int = MAX_BLOCKS
    growth: float = GROWTH

    def first(self, total: int, slots: int) -> int:
        """Return the first requests' size: small enough that every slot gets one."""
        return min(self.initial_blocks, self.max_blocks, max(1, -(-total // slots)))

    def after(self, blocks: int, found: int, target: int) -> int:
        """Return the next size after a request of `blocks` blocks found `found` logs."""
        wanted = int(blocks * target / max(found, 1))
        return max(1, min(wanted, int(blocks * self.growth), MAX_SPAN))


@dataclass
class RangePlan:
    """The blocks not yet requested (cursor..last).

    The size of the next request, and the node's limits it keeps to.
    """

    sizing: ChunkSizing
    size: int
    cursor: int = 0
    last: int = -1
    limits: NodeLimits | None = None
    density: float | None = None  # logs per block of the last finished request

    def __post_init__(self) -> None:
        """Start with no limits known when none are given."""
        if self.limits is None:
            self.limits = NodeLimits()

    @property
    def node(self) -> NodeLimits:
        """Return the node's limits."""
        assert self.limits is not None
        return self.limits

    @property
    def exhausted(self) -> bool:
        """Tell whether every block has been carved into a chunk."""
        return self.cursor > self.last

    def carve(self, free: int, probing: bool = False) -> Chunk:
        """Take the next chunk for one of `free` slots.

        The chunk size, or the rest shared evenly by the free slots when it fits in them; never over
        the node's ceiling.
        """
        left = self.last - self.cursor + 1
        size = self.size if left > self.size * free else math.ceil(left / free)
        safe = max(self.sizing.max_blocks, self.node.proven)
        size = min(size, self.node.ceiling(self.sizing.max_blocks, probing))
        chunk = Chunk(self.cursor, min(self.last, self.cursor + size - 1))
        chunk.probe = not self.node.span_known and chunk.blocks > safe
        self.cursor = chunk.end + 1
        return chunk

    def learn(self, blocks: int, found: int) -> None:
        """Size the next chunks after the density of a finished one."""
        self.node.answered(blocks)
        self.density = found / blocks
        size = self.sizing.after(blocks, found, self.sizing.target_logs)
        fitting = self.node.fitting(self.density)
        self.size = size if fitting is None else min(size, fitting)

    def split(self, chunk: Chunk, error: RpcError) -> list[Chunk]:
        """Learn from a refused chunk and return it cut to what the node now allows.

        Pieces within a span cap its words named, else halves (and, under a log cap, short enough
        for the density seen). A piece past the cap is handed back to the plan when the chunk is the
        last one carved; later chunks are no larger.
        """
        expected = None if self.density is None else self.density * chunk.blocks
        self.node.refused(error, chunk.blocks, expected)
        cap = self.node.span_cap
        most = cap if cap is not None and chunk.blocks > cap else chunk.blocks // 2
        fitting = None if self.density is None else self.node.fitting(self.density)
        most = max(1, most if fitting is None else min(most, fitting))
        self.size = max(1, min(self.size, most))
        if chunk.end + 1 == self.cursor:  # nothing carved after it: give the rest back
            self.cursor = chunk.start + most
            return [Chunk(chunk.start, self.cursor - 1)]
        parts = math.ceil(chunk.blocks / most)
        step = math.ceil(chunk.blocks / parts)
        return [
            Chunk(start, min(chunk.end, start + step - 1))
            for start in range(chunk.start, chunk.end + 1, step)
        ]
