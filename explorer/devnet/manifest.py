"""SeedManifest: facts about the seeded history, for tests and demos."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class SeedManifest:
    """Where the interesting things of the seeded history are (hex strings, lowercase)."""

    chain_id: int
    head_at_build: int
    accounts: tuple[str, ...]
    private_keys: tuple[str, ...]  # devnet keys, for tests only
    token: str
    collectible: str
    reverter: str
    multicall: str = ""
    rns_registry: str = ""
    rns_resolver: str = ""
    rns_names: tuple[tuple[str, str], ...] = ()  # (name, address)
    plain_transfer: str = ""
    token_transfer: str = ""
    approval: str = ""
    nft_mint: str = ""
    nft_transfer: str = ""
    contract_creation: str = ""
    failed_tx: str = ""
    pending_txs: tuple[str, ...] = ()
    big_block: int = 0
    big_block_tx_count: int = 0
    empty_runs: tuple[tuple[int, int], ...] = ()  # inclusive ranges of blocks with only REMASC
    uncle_blocks: tuple[int, ...] = ()
    transfer_log_count: int = 0
    bridge: Mapping[str, Any] = field(default_factory=dict)  # the peg's history (history_bridge)
    inside: Mapping[str, Any] = field(default_factory=dict)  # inside transactions (history_inside)
    # the address-history stories (devnet/history_stories.py)
    payout: str = ""  # a contract paying RBTC out inside calls others send
    contract_paid: str = ""  # an account that only ever receives value from contracts
    busy_account: str = ""  # hundreds of balance changes
    counted_accounts: tuple[tuple[int, str], ...] = ()  # (balance changes, address)
    miners: tuple[str, ...] = ()  # the blocks' coinbases (REMASC pays them)
    proxies: Mapping[str, Any] = field(default_factory=dict)  # devnet/history_proxies.py

    def to_json(self) -> dict[str, Any]:
        """Return a JSON-ready dict of every field."""
        return dataclasses.asdict(self)
