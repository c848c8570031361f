"""The address page and its services, against the devnet over real HTTP."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from fixtures_devnet import Devnet, devnet, devnet_loop  # noqa: F401
from qt_helpers import run_in_qloop

from explorer.chain.abi_input import ERC20_ABI, ERC721_ABI, parse_abi
from explorer.rpc.client import RpcClient
from explorer.rpc.endpoint import Endpoint
from explorer.services.activity import ActivityKind, ActivityScanner
from explorer.services.contracts import SPEC_RULE, read_contract, read_slot, simulate
from explorer.services.tokens import TokenReader, selector


@pytest.fixture
def manifest(devnet: Devnet) -> dict[str, Any]:  # noqa: F811
    """The test network's seed manifest."""
    return devnet.manifest("testnet")


@pytest.fixture
def client(qloop: Any, qtbot: Any, devnet: Devnet) -> Any:  # noqa: F811
    """An RPC client on the devnet's test network."""
    rpc = RpcClient(Endpoint.parse(devnet.url("testnet")))
    yield rpc
    run_in_qloop(qtbot, rpc.aclose())


def raw_rpc(devnet: Devnet, method: str, *params: Any) -> Any:  # noqa: F811
    """Ask the devnet directly with a plain HTTP POST (an independent path)."""
    body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": list(params)}
    return httpx.post(devnet.url("testnet"), json=body, timeout=10).json()["result"]


def run(qtbot: Any, coro: Any) -> Any:
    """Run a coroutine on the qasync loop."""
    return run_in_qloop(qtbot, coro, timeout_ms=60_000)


def holder_of(manifest: dict[str, Any]) -> str:
    """An account that received tokens in the seeded history."""
    return str(manifest["accounts"][1])


def test_token_detection(qtbot: Any, client: Any, manifest: dict[str, Any]) -> None:
    """The manifest's token is ERC-20 and its collectible ERC-721; an account is neither."""
    reader = TokenReader(client, manifest.get("multicall") or "0x" + "00" * 20)
    token = run(qtbot, reader.token_info(manifest["token"]))
    assert token.kind == "ERC-20" and token.decimals == 18
    assert token.name and token.symbol and token.total_supply > 0
    nft = run(qtbot, reader.token_info(manifest["collectible"]))
    assert nft.kind == "ERC-721" and nft.name
    plain = run(qtbot, reader.token_info(manifest["accounts"][0]))
    assert not plain.is_token


def test_multicall_balances_equal_single_calls(
    qtbot: Any,
    client: Any,
    manifest: dict[str, Any],
    devnet: Devnet,  # noqa: F811
) -> None:
    """Balances read through one aggregate3 equal those of single eth_calls and of raw RPC."""
    assert manifest["multicall"]
    reader = TokenReader(client, manifest["multicall"])
    holder = holder_of(manifest)
    tokens = [manifest["token"], manifest["collectible"]]
    batched = run(qtbot, reader.balances(holder, tokens))
    assert reader.multicall_used == 1
    single = run(qtbot, reader.balances(holder, tokens, batch=False))
    assert batched == single
    data = "0x" + (selector("balanceOf(address)")).hex() + holder[2:].rjust(64, "0")
    raw = raw_rpc(devnet, "eth_call", {"to": manifest["token"], "data": data}, "latest")
    assert batched[0].balance == int(raw, 16) > 0
    assert batched[0].token.symbol


def test_storage_slot_zero_of_the_token(
    qtbot: Any,
    client: Any,
    manifest: dict[str, Any],
    devnet: Devnet,  # noqa: F811
) -> None:
    """Slot 0 holds the token's short name inline (length*2 in the last byte)."""
    value = run(qtbot, read_slot(client, manifest["token"], 0))
    raw = raw_rpc(devnet, "eth_getStorageAt", manifest["token"], "0x0", "latest")
    assert value.word == bytes.fromhex(raw[2:].rjust(64, "0"))
    token = run(qtbot, TokenReader(client).token_info(manifest["token"]))
    length = value.word[-1] // 2
    assert value.word[:length].decode() == token.name
    assert value.address is None


def test_read_contract_with_typed_inputs(qtbot: Any, client: Any, manifest: dict[str, Any]) -> None:
    """balanceOf(address) and ownerOf(uint256) decode; a revert shows its reason."""
    erc20 = {f.name: f for f in parse_abi(ERC20_ABI)}
    holder = holder_of(manifest)
    result = run(
        qtbot, read_contract(client, manifest["token"], erc20["balanceOf"], [holder.upper()])
    )
    assert not result.error and result.outputs[0].value > 0
    erc721 = {f.name: f for f in parse_abi(ERC721_ABI)}
    missing = run(
        qtbot, read_contract(client, manifest["collectible"], erc721["tokenURI"], ["0xffff"])
    )
    assert "DevCollectible: no such token" in missing.error


def test_simulate_on_the_reverter(qtbot: Any, client: Any, manifest: dict[str, Any]) -> None:
    """fail(): the estimate is returned AND the eth_call revert reason is shown."""
    call = {
        "from": manifest["accounts"][0],
        "to": manifest["reverter"],
        "data": "0x" + selector("fail()").hex(),
    }
    result = run(qtbot, simulate(client, call))
    assert result.would_fail
    assert result.revert_reason == "Reverter: always fails"
    assert result.gas_estimate is not None or result.estimate_error
    assert "§4.3.1" in SPEC_RULE
    ok = run(
        qtbot,
        simulate(client, {**call, "data": "0x" + selector("poke(uint256)").hex() + "0" * 63 + "3"}),
    )
    assert not ok.would_fail and ok.gas_estimate and ok.gas_estimate > 21_000


def test_activity_finds_the_manifest_transfers(
    qtbot: Any,
    client: Any,
    manifest: dict[str, Any],
    devnet: Devnet,  # noqa: F811
) -> None:
    """The transfers scan finds the token transfer of the manifest's transaction."""
    tx = raw_rpc(devnet, "eth_getTransactionByHash", manifest["token_transfer"])
    receiver = "0x" + tx["input"][2 + 8 + 24 : 2 + 8 + 64]
    block = int(tx["blockNumber"], 16)

    async def collect() -> list[Any]:
        scanner = ActivityScanner(client)
        found = []
        async for items in scanner.scan(ActivityKind.TRANSFERS, receiver, 0, block + 10):
            found.extend(items)
        return found

    items = run(qtbot, collect())
    mine = [i for i in items if i.tx_hash == manifest["token_transfer"]]
    assert len(mine) == 1 and mine[0].direction == "in"
    assert mine[0].counterparty == tx["from"].lower()


def test_activity_scan_can_be_cancelled(qtbot: Any, client: Any, manifest: dict[str, Any]) -> None:
    """A transactions scan over many blocks stops when its task is cancelled."""
    seen: list[Any] = []

    async def scan() -> None:
        scanner = ActivityScanner(client)
        async for _items in scanner.scan(
            ActivityKind.TRANSACTIONS,
            manifest["accounts"][0],
            0,
            manifest["head_at_build"],
            seen.append,
        ):
            pass

    task = asyncio.ensure_future(scan())
    qtbot.waitUntil(lambda: len(seen) >= 2, timeout=30_000)
    task.cancel()
    qtbot.waitUntil(task.done, timeout=10_000)
    assert task.cancelled()
    stopped_at = len(seen)
    qtbot.wait(300)
    assert len(seen) == stopped_at and seen[-1].fraction < 1.0
