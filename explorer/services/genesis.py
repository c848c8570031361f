"""Which genesis block a network's node must have: known for the public chains, else pinned.

A chain is its chain id and its genesis block. The hosted and public networks have a known
genesis; for a custom endpoint the genesis seen at its first verification is remembered (per
endpoint and chain id, in the settings) and a later change is flagged; the Local devnet, whose
port changes every run, is remembered for the run.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Protocol

from explorer.rpc.endpoint import Endpoint
from explorer.services.networks import Network, NetworkKind


class GenesisPins(Protocol):
    """Where the genesis seen first is kept; explorer.settings.store.Settings is one."""

    def genesis_pin(self, pin_id: str) -> str:
        """Return the genesis hash remembered under pin_id ('' when none)."""

    def set_genesis_pin(self, pin_id: str, genesis: str) -> None:
        """Remember a genesis hash under pin_id."""


class MemoryPins:
    """Pins kept for this run only."""

    def __init__(self) -> None:
        self._pins: dict[str, str] = {}

    def genesis_pin(self, pin_id: str) -> str:
        """Return the genesis hash remembered under pin_id ('' when none)."""
        return self._pins.get(pin_id, "")

    def set_genesis_pin(self, pin_id: str, genesis: str) -> None:
        """Remember a genesis hash under pin_id."""
        self._pins[pin_id] = genesis


@dataclass(frozen=True)
class ExpectedGenesis:
    """The genesis a session's node must have, and how it is known."""

    hash: str | None  # None: not known yet (the first verification pins it)
    known: bool  # a public chain's genesis, not one pinned from an earlier answer
    pin_id: str = ""  # where a first answer is remembered ('' for a public chain)


class GenesisBook:
    """Says which genesis each network's node must have; remembers the first one seen."""

    def __init__(self, pins: GenesisPins | None = None) -> None:
        """Keep custom endpoints' pins in pins (this run only when None)."""
        self._lasting: GenesisPins = pins or MemoryPins()
        self._run = MemoryPins()

    def expected(self, network: Network, endpoint: Endpoint) -> ExpectedGenesis:
        """Return the genesis network's node at endpoint must have."""
        if network.genesis_hash is not None:
            return ExpectedGenesis(network.genesis_hash, known=True)
        pin_id = genesis_pin_id(network, endpoint)
        pinned = self._pins_for(network).genesis_pin(pin_id)
        return ExpectedGenesis(pinned or None, known=False, pin_id=pin_id)

    def remember(self, network: Network, expected: ExpectedGenesis, genesis: str) -> None:
        """Pin the genesis seen at a first verification (a known one needs no pin)."""
        if expected.known or expected.hash is not None or not expected.pin_id:
            return
        self._pins_for(network).set_genesis_pin(expected.pin_id, genesis)

    def _pins_for(self, network: Network) -> GenesisPins:
        """Return where a network's pins live: the settings, or this run for the devnet."""
        return self._run if network.kind is NetworkKind.DEVNET else self._lasting


def genesis_pin_id(network: Network, endpoint: Endpoint) -> str:
    """Return a stable id of an endpoint (without its key) and chain id, safe to store."""
    where = f"{endpoint.base_url.rstrip('/')}|{endpoint.url_form.name}|{network.chain_id}"
    return hashlib.sha256(where.encode()).hexdigest()[:16]
