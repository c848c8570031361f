"""A chain's identity for its saved data: the chain id the check confirmed and the genesis hash."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from explorer.chain.hexutil import HexFormatError, parse_hash
from explorer.rpc.errors import MalformedResponse

BlockZeroRead = Callable[[], Awaitable[Any]]


async def genesis_hash(carried: str | None, read_block_zero: BlockZeroRead) -> str:
    """Return the chain's genesis hash: the one the chain check carried, else block 0's (a read).

    The chain check carries it (`ChainCheck.genesis_hash` or a `ProbeResult`'s, read in the
    same round trip as eth_chainId); a check that does not have it (a node that gives no
    block 0) leaves one read of `eth_getBlockByNumber("0x0", false)` through read_block_zero.
    """
    if carried:
        return carried.lower()
    block = await read_block_zero()
    if not isinstance(block, dict):
        raise MalformedResponse("the node has no block 0, so its chain cannot be told apart")
    try:
        return parse_hash(block.get("hash"), "genesis hash")
    except HexFormatError as error:
        raise MalformedResponse(f"block 0 has no readable hash: {error}") from None
