"""What the watchlist's tests share: sending on the devnet, its head, checks run to the end."""

from __future__ import annotations

import secrets

import httpx
from eth_account import Account
from eth_utils.address import to_checksum_address
from pytestqt.qtbot import QtBot

from explorer.viewmodels.watchlist import WatchlistViewModel
from tests.helpers.devnet import Devnet
from tests.helpers.devnet_client import RawRpc

SENDER_INDEX = 4  # a seeded account no other test sends from


def send(devnet: Devnet, to: str, value: int = 0, data: str = "0x") -> int:
    """Send from the test's own account (mined at once); return the block it landed in."""
    manifest = devnet.manifest("testnet")
    sender = Account.from_key(manifest["private_keys"][SENDER_INDEX])
    with httpx.Client(timeout=60) as http:
        rpc = RawRpc(http, devnet.url("testnet"))
        fields = {
            "nonce": int(rpc("eth_getTransactionCount", sender.address, "pending"), 16),
            "gasPrice": int(rpc("eth_gasPrice"), 16),
            "gas": 100_000,
            "to": to_checksum_address(to),
            "value": value,
            "data": data,
            "chainId": manifest["chain_id"],
        }
        raw = sender.sign_transaction(fields).raw_transaction
        tx_hash = rpc("eth_sendRawTransaction", "0x" + raw.hex())
        return int(rpc("eth_getTransactionReceipt", tx_hash)["blockNumber"], 16)


def head(devnet: Devnet) -> int:
    """Return the devnet's head."""
    with httpx.Client(timeout=60) as http:
        return int(RawRpc(http, devnet.url("testnet"))("eth_blockNumber"), 16)


def fresh_address() -> str:
    """Return an address nobody has used."""
    return "0x" + secrets.token_hex(20)


def checked(qtbot: QtBot, watchlist: WatchlistViewModel, number: int) -> None:
    """Check a head and wait until the check is done."""
    before = watchlist.checks
    watchlist.on_head(number)
    qtbot.waitUntil(lambda: watchlist.checks > before, timeout=60_000)
    qtbot.waitUntil(lambda: watchlist._task is None or watchlist._task.done(), timeout=60_000)
