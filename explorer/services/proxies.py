"""Proxies followed at a block: EIP-1967 (and its beacon), EIP-1822 (UUPS), clones, diamonds.

One round trip reads the standard slots beside whatever else the page reads; a beacon's
`implementation()` (and a diamond's `facets()`) is a second, only for those. A clone needs no
read at all: its code names its implementation (chain/minimal_proxy.py). Upgrade history comes
from the `Upgraded` / `BeaconUpgraded` logs in one `eth_getLogs` per address.
"""

from __future__ import annotations

import asyncio
import enum
from dataclasses import dataclass

from eth_abi.abi import decode
from eth_abi.exceptions import DecodingError
from eth_hash.auto import keccak

from explorer.chain.minimal_proxy import minimal_proxy
from explorer.rpc.errors import NodeError, RpcError
from explorer.rpc.params import BlockSelector, LogFilter
from explorer.rpc.wrappers import TypedCalls
from explorer.saved.cache import records_of
from explorer.services.contracts import PROXY_SLOTS, SlotValue

IMPLEMENTATION_SLOT = PROXY_SLOTS["EIP-1967 implementation"]
ADMIN_SLOT = PROXY_SLOTS["EIP-1967 admin"]
BEACON_SLOT = PROXY_SLOTS["EIP-1967 beacon"]
PROXIABLE_SLOT = int.from_bytes(keccak(b"PROXIABLE"), "big")  # EIP-1822
IMPLEMENTATION_CALL = keccak(b"implementation()")[:4]
FACETS_CALL = keccak(b"facets()")[:4]
UPGRADED = "0x" + keccak(b"Upgraded(address)").hex()
BEACON_UPGRADED = "0x" + keccak(b"BeaconUpgraded(address)").hex()
PUSH4 = 0x63
MAX_FACETS = 256
#: Contracts found to be proxies (this run; kept in the saved data too): a call to one is
#: decoded through it on the transaction page.
SEEN_PROXIES: set[str] = set()
PROXY_RECORD = "proxy"


class ProxyKind(enum.Enum):
    """The kinds of proxy followed, named as the page says them."""

    EIP1967 = "EIP-1967"
    BEACON = "EIP-1967 beacon"
    UUPS = "EIP-1822 UUPS"
    CLONE = "EIP-1167 clone"
    DIAMOND = "EIP-2535 diamond"


@dataclass(frozen=True)
class Facet:
    """One facet of a diamond: its address and the selectors it serves."""

    address: str
    selectors: tuple[bytes, ...]


@dataclass(frozen=True)
class Upgrade:
    """An `Upgraded` or `BeaconUpgraded` log: the new target and where it happened."""

    target: str
    block: int
    tx_hash: str
    beacon: bool = False


@dataclass(frozen=True)
class ProxyInfo:
    """What a proxy delegates to at a block; `implementation` is None when it could not say."""

    kind: ProxyKind
    implementation: str | None
    block: BlockSelector
    beacon: str | None = None
    admin: str | None = None
    variant: str = ""
    facets: tuple[Facet, ...] = ()
    note: str = ""  # why the implementation is unknown, or a caution


def _slot_address(word: bytes) -> str | None:
    """Return the address a slot holds (None for an empty slot)."""
    return SlotValue(0, word.rjust(32, b"\0")[-32:]).address if word else None


def has_selector(code: bytes, selector: bytes) -> bool:
    """Tell whether code pushes a selector (a dispatcher compares calldata with it)."""
    return bytes([PUSH4]) + selector in code


async def read_slots(client: TypedCalls, address: str, block: BlockSelector) -> dict[int, str]:
    """Read the four proxy slots concurrently; return the addresses they hold by slot."""
    slots = (IMPLEMENTATION_SLOT, BEACON_SLOT, ADMIN_SLOT, PROXIABLE_SLOT)
    words = await asyncio.gather(*(client.get_storage_at(address, s, block) for s in slots))
    found = {slot: _slot_address(word) for slot, word in zip(slots, words, strict=True)}
    return {slot: value for slot, value in found.items() if value}


async def call_address(
    client: TypedCalls, target: str, selector: bytes, block: BlockSelector
) -> str | None:
    """Call a no-argument function returning an address; None when it reverts or says nothing."""
    try:
        raw = await client.eth_call({"to": target, "data": "0x" + selector.hex()}, block)
    except NodeError:
        return None
    if len(raw) != 32:
        return None
    return _slot_address(raw)


async def read_facets(client: TypedCalls, address: str, block: BlockSelector) -> tuple[Facet, ...]:
    """Call a diamond's `facets()`; () when it does not answer as EIP-2535 says."""
    try:
        raw = await client.eth_call({"to": address, "data": "0x" + FACETS_CALL.hex()}, block)
        (entries,) = decode(["(address,bytes4[])[]"], raw)
    except (NodeError, DecodingError, OverflowError, ValueError):
        return ()
    return tuple(Facet(str(a).lower(), tuple(s)) for a, s in entries[:MAX_FACETS])


def _clone(code: bytes, block: BlockSelector) -> ProxyInfo | None:
    """Return the proxy a clone's code names, needing no read."""
    clone = minimal_proxy(code)
    if clone is None:
        return None
    return ProxyInfo(ProxyKind.CLONE, clone.implementation, block, variant=clone.variant)


async def detect_proxy(
    client: TypedCalls, address: str, code: bytes, block: BlockSelector
) -> ProxyInfo | None:
    """Return what the contract delegates to at block, or None when it is no proxy."""
    found = await _detect(client, address, code, block)
    if found is not None and address not in SEEN_PROXIES:
        SEEN_PROXIES.add(address)
        if (saved := records_of(client)) is not None:
            saved.keep(PROXY_RECORD, address, found.kind.name)
    return found


async def known_proxy(client: TypedCalls, address: str) -> bool:
    """Tell whether the contract was seen to be a proxy (in this run or the saved data)."""
    if address in SEEN_PROXIES:
        return True
    saved = records_of(client)
    kept = await saved.get(PROXY_RECORD, address) if saved is not None else None
    if isinstance(kept, str):
        SEEN_PROXIES.add(address)
    return isinstance(kept, str)


async def _detect(
    client: TypedCalls, address: str, code: bytes, block: BlockSelector
) -> ProxyInfo | None:
    """Return the proxy the code and slots say, or None."""
    if not code:
        return None
    if (clone := _clone(code, block)) is not None:
        return clone
    diamond = has_selector(code, FACETS_CALL)
    slots, facets = await asyncio.gather(
        read_slots(client, address, block),
        read_facets(client, address, block) if diamond else _no_facets(),
    )
    admin = slots.get(ADMIN_SLOT)
    if beacon := slots.get(BEACON_SLOT):
        implementation = await call_address(client, beacon, IMPLEMENTATION_CALL, block)
        note = "" if implementation else "the beacon did not answer implementation()"
        return ProxyInfo(ProxyKind.BEACON, implementation, block, beacon, admin, note=note)
    if implementation := slots.get(IMPLEMENTATION_SLOT):
        return ProxyInfo(ProxyKind.EIP1967, implementation, block, admin=admin)
    if implementation := slots.get(PROXIABLE_SLOT):
        return ProxyInfo(ProxyKind.UUPS, implementation, block, admin=admin)
    if facets:
        return ProxyInfo(ProxyKind.DIAMOND, None, block, facets=facets)
    return None


async def _no_facets() -> tuple[Facet, ...]:
    """Return no facets (the code has no facets() selector)."""
    return ()


async def upgrade_history(
    client: TypedCalls, proxy: ProxyInfo, address: str, until: BlockSelector
) -> tuple[Upgrade, ...]:
    """Return the proxy's (or its beacon's) upgrades up to a block, oldest first."""
    where = proxy.beacon if proxy.kind is ProxyKind.BEACON and proxy.beacon else address
    topics = [[UPGRADED, BEACON_UPGRADED]]
    logs = await client.get_logs(LogFilter(0, until, address=where, topics=topics))
    upgrades = []
    for log in logs:
        if len(log.topics) < 2 or log.block_number is None:
            continue
        target = "0x" + log.topics[1][-40:]
        beacon = log.topics[0] == BEACON_UPGRADED
        upgrades.append(
            Upgrade(target.lower(), log.block_number, log.transaction_hash or "", beacon)
        )
    return tuple(sorted(upgrades, key=lambda u: u.block))


def since(proxy: ProxyInfo, upgrades: tuple[Upgrade, ...]) -> Upgrade | None:
    """Return the upgrade that set the current implementation (the last one naming it)."""
    current = proxy.implementation
    for upgrade in reversed(upgrades):
        if upgrade.target == current and not upgrade.beacon:
            return upgrade
    return None


async def history_or_reason(
    client: TypedCalls, proxy: ProxyInfo, address: str, until: BlockSelector
) -> tuple[tuple[Upgrade, ...], str]:
    """Return the upgrade history, or () and why it could not be read."""
    if proxy.kind not in (ProxyKind.EIP1967, ProxyKind.BEACON, ProxyKind.UUPS):
        return (), ""
    try:
        return await upgrade_history(client, proxy, address, until), ""
    except RpcError as error:
        return (), f"the upgrade history could not be read: {error.message}"
