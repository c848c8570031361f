"""RNS (`*.rsk`) names resolved through the network's registry (docs/service.md §14)."""

from __future__ import annotations

from explorer.chain.namehash import namehash
from explorer.rpc.wrappers import TypedCalls

RESOLVER_SELECTOR = "0178b8bf"  # resolver(bytes32)
ADDR_SELECTOR = "3b3b57de"  # addr(bytes32)
ZERO_ADDRESS = "0x" + "00" * 20


class RnsError(Exception):
    """A name cannot be resolved; the message says why in one line."""


def _word_to_address(result: bytes) -> str:
    """Return the address in the last 20 bytes of a 32-byte ABI word."""
    if len(result) < 32:
        raise RnsError("the RNS contract returned a malformed answer")
    return "0x" + result[12:32].hex()


async def resolve_name(client: TypedCalls, registry: str | None, name: str) -> str:
    """Return the address a name points to; RnsError says why when there is none."""
    if registry is None:
        raise RnsError("this network has no RNS registry; names cannot be resolved here")
    if not await client.get_code(registry):
        raise RnsError(f"no RNS registry is deployed at {registry} on this network")
    node = namehash(name).hex()
    resolver = _word_to_address(
        await client.eth_call({"to": registry, "data": "0x" + RESOLVER_SELECTOR + node})
    )
    if resolver == ZERO_ADDRESS:
        raise RnsError(f"{name} is not registered (it has no resolver)")
    address = _word_to_address(
        await client.eth_call({"to": resolver, "data": "0x" + ADDR_SELECTOR + node})
    )
    if address == ZERO_ADDRESS:
        raise RnsError(f"{name} has a resolver but points to no address")
    return address
