"""Signed transactions from the devnet's seeded accounts, the raw calls that steer its pool.

A pytest plugin (tests/conftest.py): the `pool` fixture.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest

from explorer.chain.checksum import to_checksum_address
from tests.helpers.devnet import Devnet
from tests.helpers.devnet_client import RawRpc

# Seeded accounts these tests send from: none other sends from them (the seed's queued
# transactions are users 4 and 5; other tests send from 1 and the last six, and to 0).
SENDERS = {"pending": 7, "gap": 8, "funds": 9, "dropped": 10, "replaced": 11, "broadcast": 12}
SENDERS |= {"cli": 13, "cli-report": 14, "search": 6, "web3": 2, "eth-account": 3}
PRICE = 66_000_000  # the devnet's eth_gasPrice (its minimum gas price is 60,000,000)


def seeded_account(private_key: str) -> Any:
    """Return the eth-account account of a key (imported here: it costs every pytest a second)."""
    from eth_account import Account

    return Account.from_key(private_key)


class Pool:
    """Raw JSON-RPC on one devnet network: nonces, sends and the evm mining controls."""

    def __init__(self, devnet: Devnet, network: str = "testnet") -> None:
        self.devnet = devnet
        self.manifest = devnet.manifest(network)
        self.http = httpx.Client(timeout=60)
        self.rpc = RawRpc(self.http, devnet.url(network))

    def account(self, sender: str) -> Any:
        """Return the eth-account account of a named sender."""
        return seeded_account(self.manifest["private_keys"][SENDERS[sender]])

    def next_nonce(self, sender: str) -> int:
        """Return the sender's next nonce, its pending transactions counted."""
        return int(self.rpc("eth_getTransactionCount", self.account(sender).address, "pending"), 16)

    def mined_nonce(self, sender: str) -> int:
        """Return the sender's next nonce to be mined."""
        return int(self.rpc("eth_getTransactionCount", self.account(sender).address, "latest"), 16)

    def sign(self, sender: str, ahead: int = 0, **fields: Any) -> str:
        """Sign a 1-wei transfer from sender, `ahead` nonces past its next one, as hex."""
        values: dict[str, Any] = {
            "nonce": self.next_nonce(sender) + ahead,
            "gasPrice": PRICE,
            "gas": 21_000,
            "to": seeded_account(self.manifest["private_keys"][0]).address,
            "value": 1,
            "data": b"",
            "chainId": self.manifest["chain_id"],
        }
        values.update(fields)
        if isinstance(values["to"], str):
            values["to"] = to_checksum_address(values["to"], None)  # EIP-55, as eth-account wants
        raw = self.account(sender).sign_transaction(values).raw_transaction
        return "0x" + bytes(raw).hex()

    def send(self, raw: str) -> str:
        """Send a signed transaction; return the hash the node answers."""
        return str(self.rpc("eth_sendRawTransaction", raw))

    def mine(self, blocks: int = 1) -> None:
        """Mine blocks now (evm_mine)."""
        for _ in range(blocks):
            self.rpc("evm_mine")

    @contextmanager
    def held(self) -> Iterator[None]:
        """Hold mining for the block (evm_stopMining); what waits is mined after."""
        self.rpc("evm_stopMining")
        try:
            yield
        finally:
            self.rpc("evm_startMining")

    def close(self) -> None:
        """Close the HTTP client."""
        self.http.close()


@pytest.fixture
def pool(devnet: Devnet) -> Iterator[Pool]:
    """Yield raw access to the devnet's test network pool."""
    raw = Pool(devnet)
    yield raw
    raw.close()
