"""Range planning for eth_getLogs: the service's limits, chunk sizes learnt from log density."""

from __future__ import annotations

import asyncio
import math
from dataclasses import dataclass

from explorer.chain.records import Log
from explorer.rpc.errors import AnswerTooLarge, NodeError, RpcError

LIMIT_CODES = (-32012, -32011)
LIMIT_WORDS = ("more than", "too many", "limit exceeded", "range too")
MAX_BLOCKS = 2000
MAX_SPAN = 32 * MAX_BLOCKS  # blocks in one request, however sparse the range
TARGET_LOGS = 2500  # a quarter of the service's 10,000-log cap for longer ranges
GROWTH = 4


def is_limit_error(error: RpcError) -> bool:
    """Tell whether an error says the query was too big (split it and go on).

    That is the node's limit errors, or an answer over the client's size cap.
    """
    if isinstance(error, AnswerTooLarge):
        return True
    if not isinstance(error, NodeError):
        return False
    text = error.node_message.lower()
    return error.code in LIMIT_CODES or any(word in text for word in LIMIT_WORDS)


@dataclass
class Chunk:
    """One block range, waiting or in flight; `logs` once done, `error` once failed."""

    start: int
    end: int
    task: asyncio.Task[list[Log]] | None = None
    logs: list[Log] | None = None
    error: RpcError | None = None

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
    `growth` times a step, over max_blocks (up to MAX_SPAN) only while the results stay
    well under the service's 10,000-log cap (it allows longer ranges then).
    """

    max_blocks: int = MAX_BLOCKS
    target_logs: int = TARGET_LOGS
    initial_blocks: int = MAX_BLOCKS
    growth: float = GROWTH

    def first(self, total: int, slots: int) -> int:
        """Return the first requests' size: small enough that every slot gets one."""
        return min(self.initial_blocks, self.max_blocks, max(1, -(-total // slots)))

    def after(self, blocks: int, found: int) -> int:
        """Return the next size after a request of `blocks` blocks found `found` logs."""
        wanted = int(blocks * self.target_logs / max(found, 1))
        return max(1, min(wanted, int(blocks * self.growth), MAX_SPAN))


@dataclass
class RangePlan:
    """The blocks not yet requested (cursor..last) and the size of the next request."""

    sizing: ChunkSizing
    size: int
    cursor: int = 0
    last: int = -1

    @property
    def exhausted(self) -> bool:
        """Tell whether every block has been carved into a chunk."""
        return self.cursor > self.last

    def carve(self, free: int) -> Chunk:
        """Take the next chunk for one of `free` slots.

        That is the chunk size, or the rest shared evenly by the free slots when it fits in
        them.
        """
        left = self.last - self.cursor + 1
        size = self.size if left > self.size * free else math.ceil(left / free)
        chunk = Chunk(self.cursor, min(self.last, self.cursor + size - 1))
        self.cursor = chunk.end + 1
        return chunk

    def learn(self, blocks: int, found: int) -> None:
        """Size the next chunks after the density of a finished one."""
        self.size = self.sizing.after(blocks, found)

    def split(self, chunk: Chunk) -> list[Chunk]:
        """Return a chunk over the limits as its two halves; later chunks are no larger."""
        middle = (chunk.start + chunk.end) // 2
        self.size = max(1, min(self.size, chunk.blocks // 2))
        return [Chunk(chunk.start, middle), Chunk(middle + 1, chunk.end)]
