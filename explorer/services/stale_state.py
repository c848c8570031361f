"""Tell a node that answers `0x0` for state it does not keep from an account that was empty.

When the oldest change of an account goes from nothing (balance and nonce 0) to something,
either the account came to life there, or the node has no state before that block and
answers zeros. REMASC's balance tells which: the fees of every block accrue to it, so
between two blocks it can grow by at most the later block's fees. Two reads in one request.
"""

from __future__ import annotations

from explorer.chain.known import REMASC
from explorer.services.probes import ReadCounts, quantity, read_together
from explorer.services.reader import ChainReader


async def stale_state_reason(reader: ChainReader, block: int, counts: ReadCounts) -> str:
    """Return why the state before block looks missing, or '' when it looks true."""
    if block < 2:
        return ""
    calls = [("eth_getBalance", (REMASC, hex(block - 1))), ("eth_getBalance", (REMASC, hex(block)))]
    before, after = await read_together(reader.client, calls, counts)
    if isinstance(before, Exception) or isinstance(after, Exception):
        return ""
    grown = quantity(after, "a balance") - quantity(before, "a balance")
    header = await reader.block(block)
    fees = header.paid_fees if header is not None and header.paid_fees is not None else 0
    if grown > fees:
        return (
            f"REMASC's balance grew by {grown:,} wei in block {block:,}, more than the "
            f"block's fees ({fees:,}): the node answers 0x0 for old state it does not have"
        )
    return ""
