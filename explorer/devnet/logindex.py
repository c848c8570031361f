"""eth_getLogs answers from mined blocks' logs, summarised and encoded once per block."""

from __future__ import annotations

import json
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from explorer.devnet.blockdata import DevBlock, LogRecord
from explorer.devnet.encoded import EncodedLogs
from explorer.devnet.errors import LOG_LIMIT_EXCEEDED, RpcFailure
from explorer.devnet.logs import BloomQuery, LogFilter, LogLimits, LogSummary
from explorer.devnet.shapes import Json, log_json


@dataclass(frozen=True, slots=True)
class BlockLogs:
    """A block's logs in order, the transaction of each, and what they hold."""

    records: tuple[LogRecord, ...]
    tx_indexes: tuple[int, ...]
    summary: LogSummary

    @classmethod
    def of(cls, block: DevBlock) -> BlockLogs:
        """Flatten a block's receipts' logs."""
        pairs = [(log, i) for i, receipt in enumerate(block.receipts) for log in receipt.logs]
        records = tuple(log for log, _ in pairs)
        return cls(records, tuple(i for _, i in pairs), LogSummary.of(records))


@dataclass(frozen=True, slots=True)
class BlockText:
    """A block's log objects and their compact JSON joined by commas, with where each ends."""

    objects: tuple[Json, ...]
    text: bytes
    ends: tuple[int, ...]

    @classmethod
    def of(cls, block: DevBlock, logs: BlockLogs) -> BlockText:
        """Make the objects and text of a block's logs."""
        objects = tuple(
            log_json(log, block, tx_index, log_index)
            for log_index, (log, tx_index) in enumerate(
                zip(logs.records, logs.tx_indexes, strict=True)
            )
        )
        texts = [json.dumps(obj, separators=(",", ":")).encode() for obj in objects]
        ends, end = [], -1
        for text in texts:
            end += len(text) + 1
            ends.append(end)
        return cls(objects, b",".join(texts), tuple(ends))

    def runs(self, picked: Sequence[int]) -> Iterator[bytes]:
        """Yield the text of some logs (ascending positions), one slice per run of neighbours."""
        start = 0
        for at, index in enumerate(picked):
            if at == 0 or picked[at - 1] != index - 1:
                start = 0 if index == 0 else self.ends[index - 1] + 1
            if at == len(picked) - 1 or picked[at + 1] != index + 1:
                yield self.text[start : self.ends[index]]


class LogIndex:
    """The logs of a growing chain of mined blocks, each block read and encoded at most once."""

    def __init__(self) -> None:
        self._holding: list[int] = []  # numbers of the blocks whose bloom is not empty
        self._seen = 0  # blocks of the chain looked at so far
        self._logs: dict[bytes, BlockLogs] = {}
        self._texts: dict[bytes, BlockText] = {}

    def collect(
        self,
        chain: Sequence[DevBlock],
        first: int,
        last: int,
        log_filter: LogFilter,
        limits: LogLimits,
    ) -> EncodedLogs:
        """Return the matching logs of blocks first..last; -32012 when over the limits."""
        # Blocks whose bloom rules out a match are skipped unread; a whole block that matches
        # is sent as one piece of text; text is made once the limits are known to hold.
        too_long = limits.span_failure(first, last)
        if too_long is not None:
            raise RpcFailure(LOG_LIMIT_EXCEEDED, too_long)
        blocks = last - first + 1
        query = BloomQuery.of(log_filter)
        found: list[tuple[DevBlock, BlockLogs, Sequence[int]]] = []
        count = 0
        for block in self._holding_logs(chain, first, last):
            if not query.admits(block.logs_bloom):
                continue
            logs = self._block_logs(block)
            picked = log_filter.pick(logs.records, logs.summary)
            count += len(picked)
            too_many = limits.count_failure(blocks, count)
            if too_many is not None:
                raise RpcFailure(LOG_LIMIT_EXCEEDED, too_many)
            if picked:
                found.append((block, logs, picked))
        objects: list[Json] = []
        pieces: list[bytes] = []
        for block, logs, picked in found:
            text = self._block_text(block, logs)
            if len(picked) == len(text.objects):  # the whole block: its text is one piece
                objects.extend(text.objects)
                pieces.append(text.text)
            else:
                objects.extend(text.objects[i] for i in picked)
                pieces.extend(text.runs(picked))
        return EncodedLogs(objects, pieces)

    def _holding_logs(self, chain: Sequence[DevBlock], first: int, last: int) -> Iterator[DevBlock]:
        """Return the blocks first..last whose bloom is not empty (the chain only grows)."""
        for number in range(self._seen, len(chain)):
            if chain[number].logs_bloom:
                self._holding.append(number)
        self._seen = len(chain)
        start, stop = bisect_left(self._holding, first), bisect_right(self._holding, last)
        return (chain[number] for number in self._holding[start:stop])

    def _block_logs(self, block: DevBlock) -> BlockLogs:
        """Return a block's flattened logs, made once."""
        logs = self._logs.get(block.hash)
        if logs is None:
            logs = self._logs[block.hash] = BlockLogs.of(block)
        return logs

    def _block_text(self, block: DevBlock, logs: BlockLogs) -> BlockText:
        """Return a block's log objects and text, made once."""
        text = self._texts.get(block.hash)
        if text is None:
            text = self._texts[block.hash] = BlockText.of(block, logs)
        return text
