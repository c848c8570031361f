"""The seed definition: history sizes, fixed addresses and the genesis state."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from eth_hash.auto import keccak

from explorer.devnet.bridge_genesis import bridge_account
from explorer.devnet.contracts import load_artifact

GENESIS_TIMESTAMP = 1_735_689_600  # 2025-01-01T00:00:00Z
BLOCK_INTERVAL = 30
RBTC = 10**18
MULTICALL3 = bytes.fromhex("ca11bde05977b3631167028862be2a173976ca11")
RNS_REGISTRIES = {
    30: bytes.fromhex("cb868aeabd31e2b66f74e9a55cf064abb31a4ad5"),
    31: bytes.fromhex("7d284aaac6e925aad802a53c0c69efe3764597b8"),
}
RNS_RESOLVER = keccak(b"explorer-devnet:rns-resolver")[:20]
RNS_NAMES = ("alice.rsk", "bob.rsk", "carol.rsk")


def seeded_timestamp(number: int) -> int:
    """Return the time the seeded history gives block number (one block every BLOCK_INTERVAL)."""
    return GENESIS_TIMESTAMP + BLOCK_INTERVAL * number


@dataclass(frozen=True)
class SeedSize:
    """How big the seeded history is; FULL for the app, SMALL for fast tests.

    The busy phases end at `busy_head`; a quiet tail follows up to `head`: blocks holding
    only their REMASC transaction, with a little activity every `tail_gap` blocks or so.
    """

    name: str
    head: int
    busy_head: int
    tail_gap: int
    users: int
    big_block_txs: int
    airdrops: int
    airdrop_size: int
    streams: int
    stream_parts: int
    empty_run: int


FULL = SeedSize(
    "full",
    head=12_000,
    busy_head=2600,
    tail_gap=24,
    users=20,
    big_block_txs=1000,
    airdrops=10,
    airdrop_size=100,
    streams=45,
    stream_parts=250,
    empty_run=50,
)
SMALL = SeedSize(
    "small",
    head=130,
    busy_head=90,
    tail_gap=5,
    users=6,
    big_block_txs=40,
    airdrops=2,
    airdrop_size=10,
    streams=2,
    stream_parts=10,
    empty_run=8,
)


def rns_registry(chain_id: int) -> bytes:
    """Return the RNS registry address of the network (RSK's own, the test one for other ids)."""
    return RNS_REGISTRIES.get(chain_id, RNS_REGISTRIES[31])


def genesis_state(
    chain_id: int, admin: bytes, funded: Sequence[bytes]
) -> dict[bytes, dict[str, object]]:
    """Funded accounts, Multicall3, the RNS registry and resolver run by admin, the Bridge."""
    owner = {0: int.from_bytes(admin, "big")}
    state = {address: _account(10_000_000 * RBTC) for address in (admin, *funded)}
    state[MULTICALL3] = _account(0, load_artifact("Multicall3").deployed_bytecode)
    state[rns_registry(chain_id)] = _account(
        0, load_artifact("RnsRegistry").deployed_bytecode, owner
    )
    state[RNS_RESOLVER] = _account(0, load_artifact("RnsResolver").deployed_bytecode, owner)
    state.update([bridge_account(chain_id)])  # the Bridge's coins and state (devnet/bridge_*)
    return state


def _account(
    balance: int, code: bytes = b"", storage: dict[int, int] | None = None
) -> dict[str, object]:
    """Return a genesis account entry for py-evm."""
    return {"balance": balance, "nonce": 0, "code": code, "storage": storage or {}}
