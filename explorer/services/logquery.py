"""What an eth_getLogs scan asks for: addresses, topics and a block range (or one block hash)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from explorer.chain.hexutil import HexFormatError, parse_address, parse_hash, to_quantity
from explorer.rpc.errors import InvalidInput

TAGS = ("earliest", "latest", "pending")

Topics = tuple[tuple[str, ...] | None, ...]


@dataclass(frozen=True)
class LogQuery:
    """What to scan: addresses, topics per position, and a block hash or range.

    Addresses match any of; topics per position are None (any) or a tuple (any of); the range is
    from/to numbers or tags.
    """

    addresses: tuple[str, ...] = ()
    topics: Topics = ()
    from_block: int | str = "earliest"
    to_block: int | str = "latest"
    block_hash: str | None = None

    def checked(self) -> LogQuery:
        """Return the query with canonical hex; InvalidInput on a malformed field."""
        try:
            addresses = tuple(dict.fromkeys(parse_address(a, "address") for a in self.addresses))
            topics = tuple(
                None if alts is None else tuple(parse_hash(t, f"topic {i}") for t in alts)
                for i, alts in enumerate(self.topics)
            )
            block_hash = None if self.block_hash is None else parse_hash(self.block_hash)
        except HexFormatError as exc:
            raise InvalidInput(str(exc)) from None
        if len(topics) > 4:
            raise InvalidInput("topics: at most 4 positions")
        if any(alts == () for alts in topics):
            raise InvalidInput("an OR-list of topics must not be empty")
        for bound in (self.from_block, self.to_block):
            if isinstance(bound, str) and bound not in TAGS:
                raise InvalidInput(f"block {bound!r} must be a number or one of {', '.join(TAGS)}")
            if isinstance(bound, int) and bound < 0:
                raise InvalidInput("block numbers must not be negative")
        return LogQuery(addresses, topics, self.from_block, self.to_block, block_hash)

    def filter_json(self, start: int | None = None, end: int | None = None) -> dict[str, Any]:
        """Return the eth_getLogs filter object for a block range (or the block hash)."""
        obj: dict[str, Any] = {}
        if self.block_hash is not None:
            obj["blockHash"] = self.block_hash
        else:
            obj["fromBlock"] = to_quantity(start if start is not None else 0)
            obj["toBlock"] = to_quantity(end if end is not None else 0)
        if len(self.addresses) == 1:
            obj["address"] = self.addresses[0]
        elif self.addresses:
            obj["address"] = list(self.addresses)
        if self.topics:
            obj["topics"] = [
                None if alts is None else (alts[0] if len(alts) == 1 else list(alts))
                for alts in self.topics
            ]
        return obj
