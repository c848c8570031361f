"""Demo traffic: a few everyday transactions before each interval-mined block (`--traffic`)."""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from eth_keys.datatypes import PrivateKey
from eth_typing import Address

from explorer.devnet.abi import call_data
from explorer.devnet.contracts import load_artifact
from explorer.devnet.errors import RpcFailure
from explorer.devnet.evm import DevnetVM

if TYPE_CHECKING:
    from explorer.devnet.manifest import SeedManifest
    from explorer.devnet.node import DevnetNode

log = logging.getLogger(__name__)

Handle = Callable[[str, list[Any]], Any]
GAS_PRICE = 65_000_000  # a little above the devnet's minimum gas price, as wallets pay
MAX_PER_BLOCK = 4
CREATION_EVERY = 12  # blocks, about: a contract creation now and then
FAILING_SHARE = 0.15  # of the reverter calls: `poke(x)` fails for x >= 10


class Traffic:
    """Signs and submits transfers, token transfers, contract calls and creations.

    It drives the node through its public methods only (nonces from
    `eth_getTransactionCount … pending`, submission by `eth_sendRawTransaction`), so
    every transaction passes the pool's admission checks like a wallet's would.
    """

    def __init__(
        self, handle: Handle, manifest: SeedManifest, waiting: set[str], seed: int = 0
    ) -> None:
        self._handle = handle
        self._chain_id = manifest.chain_id
        self._token = manifest.token
        self._reverter = manifest.reverter
        self._random = random.Random(f"explorer-devnet-traffic/{manifest.chain_id}/{seed}")
        self._accounts = [
            (address, key)
            for address, key in zip(manifest.accounts, manifest.private_keys, strict=True)
            if address not in waiting  # their waiting transactions stay as the seed left them
        ]
        self.sent = 0

    def __call__(self) -> None:
        """Submit this block's transactions (called by the node before it mines)."""
        if len(self._accounts) < 2:
            return
        for _ in range(self._random.randint(1, MAX_PER_BLOCK)):
            try:
                self._submit(self._next_transaction())
            except RpcFailure as failure:  # e.g. a balance spent: skip it, as a wallet would
                log.info("devnet traffic: a transaction was refused: %s", failure.message)

    def _next_transaction(self) -> dict[str, Any]:
        """Return the fields of a random everyday transaction (unsigned, without nonce)."""
        (sender, key), (receiver, _) = self._random.sample(self._accounts, 2)
        roll = self._random.random()
        fields: dict[str, Any] = {"from": sender, "key": key, "value": 0, "data": b""}
        if roll < 1 / CREATION_EVERY:
            bytecode = load_artifact("Reverter").bytecode
            return fields | {"to": None, "data": bytecode, "gas": 1_000_000}
        if roll < 0.35:
            amount = self._random.randrange(1, 10**4) * 10**18
            data = call_data("transfer(address,uint256)", bytes.fromhex(receiver[2:]), amount)
            return fields | {"to": self._token, "data": data, "gas": 80_000}
        if roll < 0.55:
            fails = self._random.random() < FAILING_SHARE
            argument = self._random.randrange(10, 20) if fails else self._random.randrange(10)
            data = call_data("poke(uint256)", argument)
            return fields | {"to": self._reverter, "data": data, "gas": 100_000}
        value = self._random.randrange(1, 10**6) * 10**12
        return fields | {"to": receiver, "value": value, "gas": 21_000}

    def _submit(self, fields: dict[str, Any]) -> None:
        """Sign the transaction with the sender's next nonce (py-evm, EIP-155) and submit it."""
        sender, key = fields.pop("from"), fields.pop("key")
        nonce = int(self._handle("eth_getTransactionCount", [sender, "pending"]), 16)
        to = fields["to"]
        unsigned = DevnetVM.create_unsigned_transaction(
            nonce=nonce,
            gas_price=GAS_PRICE + 1_000_000 * self._random.randrange(5),
            gas=fields["gas"],
            to=Address(bytes.fromhex(to[2:]) if to else b""),
            value=fields["value"],
            data=fields["data"],
        )
        signed = unsigned.as_signed_transaction(
            PrivateKey(bytes.fromhex(key[2:])), chain_id=self._chain_id
        )
        self._handle("eth_sendRawTransaction", ["0x" + signed.encode().hex()])
        self.sent += 1


def start_traffic(node: DevnetNode) -> Traffic:
    """Make the node submit demo traffic before each block it mines on its interval."""
    if node.instant_mining:
        raise ValueError("demo traffic needs interval mining (--block-time)")
    pool = node.pool
    waiting = {"0x" + bytes(tx.sender).hex() for tx in (*pool.pending(), *pool.queued())}
    traffic = Traffic(node.handle, node.manifest, waiting)
    node.before_mining = traffic
    return traffic
