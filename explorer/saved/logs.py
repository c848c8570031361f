"""Logs of settled ranges per filter: what part of a range is saved, and the holes to ask for."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any

from explorer.rpc.errors import MalformedResponse
from explorer.rpc.node_answers import Ask, NodeAnswer, SavedNote
from explorer.saved.bodies import result_of_body
from explorer.saved.log_ranges import LogRead, holes, with_range, within
from explorer.saved.reorg import ReorgWatch
from explorer.saved.schema import Segment
from explorer.saved.state import NotSaved, SessionState
from explorer.saved.store import ChainStore

TAIL_SECONDS = 30.0  # an unsettled tail read ahead answers the next range this long


@dataclass(frozen=True)
class Tail:
    """A filter's logs of the blocks up to the head, read ahead with the range before them."""

    first: int
    last: int
    head: int
    logs: list[Any]
    at: float


class LogCoverage:
    """eth_getLogs through the saved settled ranges of a filter: the node is asked for holes only.

    A range is saved per filter once it is N blocks deep; a later scan over it reads the saved
    logs and asks the node only for the blocks no saved range covers. A small hole just under
    the head is asked up to the head at once, and the blocks past the range kept a little
    while: a scan whose chunks cut the unsettled tail in two asks the node for it once.
    """

    def __init__(self, state: SessionState, reorgs: ReorgWatch) -> None:
        self.state = state
        self.reorgs = reorgs
        self._tails: dict[str, Tail] = {}

    async def answer(self, store: ChainStore, read: LogRead, ask: Ask, noted: SavedNote) -> Any:
        """Return the logs a filter matches, the saved ranges from the file."""
        state, first, last = self.state, read.first, read.last
        started = time.perf_counter()
        segments = [
            s for s in await store.segments(read.key, first, last) if not self.reorgs.stale(s.last)
        ]
        missing = holes(first, last, [(segment.first, segment.last) for segment in segments])
        if missing and state.offline:
            raise NotSaved.of("eth_getLogs")
        pieces: list[tuple[int, list[Any]]] = []
        for segment in segments:
            logs = await result_of_body(segment.body)
            if not isinstance(logs, list):
                raise MalformedResponse("saved logs are not an array")
            inside = segment.first >= first and segment.last <= last
            pieces.append(
                (max(segment.first, first), logs if inside else within(logs, first, last))
            )
        if segments:
            noted(sum(len(segment.body) for segment in segments), time.perf_counter() - started)
        asked = []
        for start, end in missing:
            ahead = self._tail(read.key, start, end)
            if ahead is not None:
                pieces.append((start, ahead))
            else:
                asked.append((start, self._reach(start, end)))
        answers = await asyncio.gather(
            *(ask("eth_getLogs", [with_range(read.log_filter, s, e)]) for s, e in asked)
        )
        for (start, end), fresh in zip(asked, answers, strict=True):
            if not isinstance(fresh.result, list):
                raise MalformedResponse(f"eth_getLogs returned {type(fresh.result).__name__}")
            self.reorgs.watch(fresh.result)
            if end > last:  # read ahead to the head: the rest answers the next range
                rest = within(fresh.result, last + 1, end)
                self._tails[read.key] = Tail(
                    last + 1, end, state.head or end, rest, time.monotonic()
                )
            pieces.append(
                (start, within(fresh.result, start, last) if end > last else fresh.result)
            )
            self._keep(store, read.key, start, end, fresh)
        pieces.sort(key=lambda piece: piece[0])
        return [log for _start, logs in pieces for log in logs]

    def _reach(self, start: int, end: int) -> int:
        """Return how far to ask a hole: up to the head when it is a small one just under it."""
        head, near = self.state.head, 2 * self.state.confirmations
        if head is not None and end < head <= end + near and end - start < near:
            return head
        return end

    def _tail(self, key: str, start: int, end: int) -> list[Any] | None:
        """Return a hole's logs from a tail read ahead (fresh, the head unchanged), or None."""
        tail = self._tails.get(key)
        fresh = tail is not None and time.monotonic() - tail.at < TAIL_SECONDS
        if tail is None or not fresh or tail.head != self.state.head:
            return None
        if start < tail.first or end > tail.last:
            return None
        return within(tail.logs, start, end)

    def _keep(self, store: ChainStore, key: str, start: int, end: int, fresh: NodeAnswer) -> None:
        """Save the settled part of a range the node answered."""
        state = self.state
        if state.head is None or not state.writable:
            return
        settled_last = min(end, state.head - state.confirmations)
        if settled_last < start:
            return
        if settled_last == end:
            store.put_segment(Segment(key, start, end, fresh.body))
        else:
            store.put_segment_logs(
                key, start, settled_last, within(fresh.result, start, settled_last)
            )
