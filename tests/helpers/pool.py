"""A transaction held pending on a running devnet: mining stopped (evm_stopMining) meanwhile."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import httpx
from eth_account import Account

from tests.helpers.devnet import Devnet
from tests.helpers.devnet_client import RawRpc

HOLDER_INDEX = -5  # a seeded account no other test sends from


@contextmanager
def pending_transfer(devnet: Devnet, network: str = "testnet") -> Iterator[str]:
    """Stop mining, send a 1-wei transfer and yield its hash.

    Mining resumes (and mines it) when the block ends.
    """
    manifest = devnet.manifest(network)
    sender = Account.from_key(manifest["private_keys"][HOLDER_INDEX])
    with httpx.Client(timeout=60) as http:
        rpc = RawRpc(http, devnet.url(network))
        rpc("evm_stopMining")
        try:
            fields = {
                "nonce": int(rpc("eth_getTransactionCount", sender.address, "pending"), 16),
                "gasPrice": int(rpc("eth_gasPrice"), 16),
                "gas": 21_000,
                "to": Account.from_key(manifest["private_keys"][0]).address,
                "value": 1,
                "data": b"",
                "chainId": manifest["chain_id"],
            }
            raw = sender.sign_transaction(fields).raw_transaction
            yield str(rpc("eth_sendRawTransaction", "0x" + raw.hex()))
        finally:
            rpc("evm_startMining")
