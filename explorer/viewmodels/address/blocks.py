"""Blocks typed by the user: one block (number or tag), or a range ending at the head by default."""

from __future__ import annotations

from explorer.chain.abi_input import AbiInputError, parse_input
from explorer.rpc.params import BlockSelector
from explorer.services.activity import DEFAULT_RANGE
from explorer.services.reader import ChainReader

BLOCK_HINT = "latest"
START_HINT = f"head − {DEFAULT_RANGE - 1:,}"


def parse_block_text(text: str) -> BlockSelector:
    """Parse a block typed by the user: empty or `latest`, a tag, a decimal or 0x number."""
    word = text.strip().lower()
    if word in ("", "latest", "pending", "earliest"):
        return word or "latest"
    try:
        number = parse_input("uint64", word)
    except AbiInputError:
        raise ValueError(f"{text!r} is not a block number or tag") from None
    assert isinstance(number, int)
    return number


async def resolve_range(reader: ChainReader, start_text: str, end_text: str) -> tuple[int, int]:
    """Resolve a typed range; the end defaults to the head, the start to DEFAULT_RANGE before it.

    Raises ValueError for text that is not a block or a range that ends before it starts.
    """
    end = parse_block_text(end_text) if end_text.strip() else "latest"
    if not isinstance(end, int):
        end = await reader.latest_number()
    start = parse_block_text(start_text) if start_text.strip() else max(0, end - DEFAULT_RANGE + 1)
    if not isinstance(start, int):
        start = 0
    if start > end:
        raise ValueError(f"the range starts ({start:,}) after it ends ({end:,})")
    return start, end
