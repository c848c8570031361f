"""A chain's identity for its saved data: the chain id the check confirmed and the genesis hash."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from explorer.chain.hexutil import HexFormatError, parse_hash
from explorer.rpc.errors import MalformedResponse
from explorer.services.chaincheck import ChainCheck

BlockZeroRead = Callable[[], Awaitable[Any]]


async def genesis_hash(check: ChainCheck | None, read_block_zero: BlockZeroRead) -> str:
    """Return the chain's genesis hash: the one the chain check carries, else block 0's (a read).

    The chain check will carry it (issue 19: `ChainCheck.genesis_hash`, read in the same round
    trip as eth_chainId); until it does, block 0 is read once per session through
    read_block_zero (`eth_getBlockByNumber("0x0", false)`, its raw result).
    """
    carried = getattr(check, "genesis_hash", None)
    if isinstance(carried, str) and carried:
        return carried.lower()
    block = await read_block_zero()
    if not isinstance(block, dict):
        raise MalformedResponse("the node has no block 0, so its chain cannot be told apart")
    try:
        return parse_hash(block.get("hash"), "genesis hash")
    except HexFormatError as error:
        raise MalformedResponse(f"block 0 has no readable hash: {error}") from None
