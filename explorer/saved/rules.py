"""What the saved-data cache may keep: each read's key, the block it rests on, what it sights.

The rules of issue 21 §1: blocks by hash; transactions, receipts, counts and state reads
(`eth_getBalance`, `eth_getTransactionCount`, `eth_call`, `eth_getCode`,
`eth_getStorageAt`) only at an explicit block at least N confirmations deep; never anything
at `latest` or `pending` or within N of the head. Log ranges are in `cache_logs.py`. Pure:
no IO, every number from the node range-checked by the chain parsers.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from explorer.chain.hexutil import HexFormatError, parse_hash, parse_quantity

DEFAULT_CONFIRMATIONS = 12  # RSK reorganisations are short (issue 21 §1)
TAGS = ("latest", "pending", "earliest", "safe", "finalized")

BLOCK_READS = ("eth_getBlockByHash", "eth_getBlockByNumber")
TX_READS = (
    "eth_getTransactionByHash",
    "eth_getTransactionReceipt",
    "eth_getTransactionByBlockHashAndIndex",
    "eth_getTransactionByBlockNumberAndIndex",
)
COUNT_READS = (
    "eth_getBlockTransactionCountByHash",
    "eth_getBlockTransactionCountByNumber",
    "eth_getUncleCountByBlockHash",
    "eth_getUncleCountByBlockNumber",
)
#: State reads and the position of their block parameter.
STATE_READS = {
    "eth_getBalance": 1,
    "eth_getTransactionCount": 1,
    "eth_call": 1,
    "eth_getCode": 1,
    "eth_getStorageAt": 2,
}
KEPT_METHODS = frozenset((*BLOCK_READS, *TX_READS, *COUNT_READS, *STATE_READS))


def call_key(method: str, params_json: str) -> str:
    """Return the key of a read: its method and its parameters as sent."""
    return f"{method} {params_json}"


def block_key(block_hash: str, full: bool) -> str:
    """Return the key a block is kept under: eth_getBlockByHash of its hash."""
    return call_key("eth_getBlockByHash", json.dumps([block_hash, full], separators=(",", ":")))


@dataclass(frozen=True)
class Anchor:
    """The block a read rests on: its height and hash, either of which may be unknown."""

    number: int | None
    block_hash: str | None


@dataclass(frozen=True)
class Placement:
    """Where an answer is kept: its key and the block it rests on."""

    key: str
    anchor: Anchor


def settled(number: int | None, head: int | None, confirmations: int) -> bool:
    """Tell whether a block is at least `confirmations` deep under head."""
    return number is not None and head is not None and head - number >= confirmations


def _number(value: object) -> int | None:
    """Return a block parameter's number, or None for a tag, a hash or anything else."""
    if isinstance(value, str) and value.startswith("0x") and len(value) < 66:
        try:
            return parse_quantity(value, "block")
        except HexFormatError:
            return None
    return None


def _hash(value: object) -> str | None:
    """Return a block parameter's hash (bare or EIP-1898 `{"blockHash": …}`), else None."""
    if isinstance(value, dict) and set(value) == {"blockHash"}:
        value = value["blockHash"]
    if isinstance(value, str) and len(value) == 66:
        try:
            return parse_hash(value, "block hash")
        except HexFormatError:
            return None
    return None


def request_anchor(method: str, params: Sequence[Any]) -> Anchor | None:
    """Return the block a read names in its parameters; None when it names a tag or none."""
    if method in STATE_READS:
        position = STATE_READS[method]
        value = params[position] if len(params) > position else None
    elif method in BLOCK_READS or method in COUNT_READS or method in TX_READS[2:]:
        value = params[0] if params else None
    else:
        return None
    number, block_hash = _number(value), _hash(value)
    if number is None and block_hash is None:
        return None
    return Anchor(number, block_hash)


def answer_anchor(result: Any) -> Anchor | None:
    """Return the block a block, transaction or receipt answer says it belongs to."""
    if not isinstance(result, dict):
        return None
    number_field, hash_field = (
        ("number", "hash") if "parentHash" in result else ("blockNumber", "blockHash")
    )
    raw_number, raw_hash = result.get(number_field), result.get(hash_field)
    if raw_number is None or raw_hash is None:
        return None  # pending
    try:
        return Anchor(
            parse_quantity(raw_number, "block number"), parse_hash(raw_hash, "block hash")
        )
    except HexFormatError:
        return None


def placement(
    method: str, params: Sequence[Any], params_json: str, result: Any
) -> Placement | None:
    """Return where an answer may be kept (settled or not yet), or None when never.

    A block is kept under its hash whichever way it was asked (a tag too); everything else
    under its own call. Not found (`null`), pending answers and reads at a tag are never kept.
    """
    if method not in KEPT_METHODS or result is None:
        return None
    if method in BLOCK_READS:
        anchor = answer_anchor(result)
        if anchor is None or anchor.block_hash is None or len(params) < 2:
            return None
        return Placement(block_key(anchor.block_hash, params[1] is True), anchor)
    if method in TX_READS:
        anchor = answer_anchor(result)
        return None if anchor is None else Placement(call_key(method, params_json), anchor)
    anchor = request_anchor(method, params)
    return None if anchor is None else Placement(call_key(method, params_json), anchor)


def lookup_key(method: str, params: Sequence[Any], params_json: str) -> str | None:
    """Return the key to look a read up under (None: this read is never answered from saved data).

    A block by number is found through the number → hash map, so it has no key of its own.
    """
    if method not in KEPT_METHODS or method == "eth_getBlockByNumber":
        return None
    at_a_block = method in STATE_READS or method in COUNT_READS or method in TX_READS[2:]
    if at_a_block and request_anchor(method, params) is None:
        return None  # at a tag: asked every time
    if method == "eth_getBlockByHash":
        block_hash = _hash(params[0]) if params else None
        return (
            None
            if block_hash is None or len(params) < 2
            else block_key(block_hash, params[1] is True)
        )
    return call_key(method, params_json)


def null_if(method: str, params: Sequence[Any]) -> str | None:
    """Return the key whose saved answer shows a read would answer null, else None.

    A hash saved as a settled transaction's is no block's hash: a search asking both for a
    transaction's hash need not ask the node for the block.
    """
    if method != "eth_getBlockByHash" or not params or _hash(params[0]) is None:
        return None
    return call_key("eth_getTransactionByHash", json.dumps([params[0]], separators=(",", ":")))


def block_by_number(method: str, params: Sequence[Any]) -> tuple[int, bool] | None:
    """Return (number, full) of an eth_getBlockByNumber at an explicit number, else None."""
    if method != "eth_getBlockByNumber" or len(params) < 2:
        return None
    number = _number(params[0])
    return None if number is None else (number, params[1] is True)


def sightings(result: Any) -> list[tuple[int, str]]:
    """Return the (height, hash) pairs an answer reports: to notice a reorganisation.

    A block reports itself and its parent; a transaction, receipt or log its block.
    """
    items: Iterable[Any] = result if isinstance(result, list) else (result,)
    seen: dict[int, str] = {}
    for item in items:
        anchor = answer_anchor(item)
        if anchor is None or anchor.number is None or anchor.block_hash is None:
            continue
        seen[anchor.number] = anchor.block_hash
        if "parentHash" in item and anchor.number > 0:
            try:
                seen.setdefault(anchor.number - 1, parse_hash(item["parentHash"], "parent hash"))
            except HexFormatError:
                continue
    return sorted(seen.items())


def parents(result: Any) -> list[tuple[int, str]]:
    """Return the (height, parent hash) of each block an answer holds."""
    items: Iterable[Any] = result if isinstance(result, list) else (result,)
    found: list[tuple[int, str]] = []
    for item in items:
        anchor = answer_anchor(item)
        if anchor is None or anchor.number is None or "parentHash" not in item:
            continue
        try:
            found.append((anchor.number, parse_hash(item["parentHash"], "parent hash")))
        except HexFormatError:
            continue
    return found
