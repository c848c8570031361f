"""The devnet's Bridge: a precompile that answers and logs as rskj's does, and the seeded peg."""

from __future__ import annotations

import hashlib
from typing import Any

import httpx
import pytest
from eth_abi.abi import decode, encode
from eth_typing import Address

from explorer.chain.bridge_abi import bridge_function, bridge_topic
from explorer.chain.bridge_events import ReleaseRequestReceived, ReleaseRequestRejected
from explorer.chain.bridge_legacy import RELEASE_BTC_TOPIC, UPDATE_COLLECTIONS_TOPIC
from explorer.chain.bridge_logs import decode_bridge_log
from explorer.chain.btc_address import BTC_TEST, hash160, p2pkh_address
from explorer.chain.btc_tx import parse_tx
from explorer.chain.known import BRIDGE, REMASC
from explorer.chain.peg import DEVNET_UPGRADE_HEIGHT
from explorer.chain.remasc import MINING_FEE_TOPIC
from explorer.devnet.accounts import derive_account
from explorer.devnet.bridge_bitcoin import compressed_pubkey
from explorer.devnet.evm import GAS_LIMIT, BlockContext, CallRequest, Engine, MinedBatch
from explorer.devnet.seed import GENESIS_TIMESTAMP, RBTC, genesis_state
from tests.helpers.devnet import Devnet

BRIDGE_BYTES = bytes.fromhex(BRIDGE[2:])
USER = derive_account("bridge-test-user")
GAS_PRICE = 70_000_000


class Chain:
    """An engine past the devnet's upgrade height, and a signer for one funded user."""

    def __init__(self) -> None:
        state = genesis_state(31, derive_account("deployer").address, [USER.address])
        self.engine = Engine.create(31, state, GENESIS_TIMESTAMP)
        self.number = 0
        self.nonce = 0
        for _ in range(DEVNET_UPGRADE_HEIGHT + 1):
            self.mine([])

    def mine(self, txs: list[Any]) -> MinedBatch:
        """Mine one block."""
        self.number += 1
        return self.engine.mine(txs, GENESIS_TIMESTAMP + 30 * self.number)

    def send(self, value: int, data: bytes = b"", gas: int = 100_000) -> MinedBatch:
        """Mine one block with the user's transaction to the Bridge."""
        tx = self.engine.sign(
            USER.private_key,
            nonce=self.nonce,
            gas_price=GAS_PRICE,
            gas=gas,
            to=BRIDGE_BYTES,
            value=value,
            data=data,
        )
        self.nonce += 1
        return self.mine([tx])

    def read(self, name: str, *args: Any) -> Any:
        """Call a read method at the head."""
        function = bridge_function(name)
        data = function.key + encode([p.type for p in function.params], list(args))
        request = CallRequest(USER.address, BRIDGE_BYTES, None, 0, 0, data)
        number = self.number
        context = BlockContext(number, GENESIS_TIMESTAMP + 30 * number, bytes(20), 1, GAS_LIMIT, ())
        return bytes(self.engine.call(request, self.engine.state_at(number), context).output)


@pytest.fixture(scope="module")
def chain() -> Chain:
    """Return a fresh chain past the upgrade height."""
    return Chain()


def bridge_logs(batch: MinedBatch) -> list[Any]:
    """Return the decoded Bridge logs of a mined block's first receipt."""
    logs = batch.receipts[0].logs
    return [
        decode_bridge_log(["0x" + t.to_bytes(32, "big").hex() for t in log.topics], log.data)
        for log in logs
    ]


def test_a_pegout_request_is_queued_with_the_senders_bitcoin_address(chain: Chain) -> None:
    batch = chain.send(RBTC // 100)
    assert batch.receipts[0].state_root == b"\x01"
    (decoded,) = bridge_logs(batch)
    assert decoded is not None
    event = decoded.event
    assert isinstance(event, ReleaseRequestReceived)
    expected = p2pkh_address(hash160(compressed_pubkey(USER.private_key)), BTC_TEST)
    assert event.destination == expected
    assert event.amount == RBTC // 100  # wei: the devnet follows RSKIP427
    (count,) = decode(["uint256"], chain.read("getQueuedPegoutsCount"))
    assert count == 1


def test_a_small_pegout_is_refused_and_refunded(chain: Chain) -> None:
    state = chain.engine.state_at(chain.number)
    before = state.get_balance(Address(USER.address))
    batch = chain.send(10**14)  # 10,000 satoshis: far below the minimum
    (decoded,) = bridge_logs(batch)
    assert decoded is not None
    assert decoded.event == ReleaseRequestRejected("0x" + USER.address.hex(), 10**14, 1)
    gas = batch.receipts[0].gas_used
    after = chain.engine.state_at(chain.number).get_balance(Address(USER.address))
    assert before - after == gas * GAS_PRICE  # the value came back


def test_federator_calls_fail_for_anyone_else(chain: Chain) -> None:
    batch = chain.send(0, bridge_function("updateCollections").key)
    assert batch.receipts[0].state_root != b"\x01"  # failed: not a federator
    assert batch.receipts[0].logs == ()


def test_unknown_methods_and_reads_of_unknown_txids(chain: Chain) -> None:
    assert chain.read("getBtcTxHashProcessedHeight", "ab" * 32) == encode(["int64"], [-1])
    assert chain.read("getBtcTxHashProcessedHeight", "not hex") == b""  # rskj: empty
    (address,) = decode(["string"], chain.read("getFederationAddress"))
    assert address.startswith("2N")


def rpc(devnet: Devnet, method: str, *params: Any) -> Any:
    """Send one JSON-RPC call to the devnet's test network."""
    body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": list(params)}
    answer = httpx.post(devnet.url(), json=body, timeout=60).json()
    assert "error" not in answer, answer
    return answer["result"]


def test_seeded_history_has_every_format(devnet: Devnet) -> None:
    """Legacy RLP events before the upgrade height, ABI events after, REMASC payments."""
    facts = devnet.manifest()["bridge"]
    legacy = rpc(
        devnet,
        "eth_getLogs",
        {
            "fromBlock": "0x0",
            "toBlock": hex(DEVNET_UPGRADE_HEIGHT - 1),
            "address": BRIDGE,
            "topics": [[RELEASE_BTC_TOPIC, UPDATE_COLLECTIONS_TOPIC]],
        },
    )
    assert [int(log["blockNumber"], 16) for log in legacy] == [
        facts["legacy_update_block"],
        facts["legacy_release_block"],
    ]
    payments = rpc(
        devnet, "eth_getLogs", {"fromBlock": "0x0", "address": REMASC, "topics": [MINING_FEE_TOPIC]}
    )
    assert sorted({int(log["blockNumber"], 16) for log in payments}) == facts["remasc_blocks"]
    assert len(payments) == 5 * len(facts["remasc_blocks"])  # RSK Labs, 3 federators, miner
    batches = rpc(
        devnet,
        "eth_getLogs",
        {"fromBlock": "0x0", "address": BRIDGE, "topics": [bridge_topic("batch_pegout_created")]},
    )
    assert len(batches) == 3


def test_the_released_pegout_came_back_as_processed(devnet: Devnet) -> None:
    """The signed peg-out registered back (its change) is processed, like a peg-in."""
    facts = devnet.manifest()["bridge"]
    function = bridge_function("getBtcTxHashProcessedHeight")
    for txid, expected in (
        (facts["pegin_accepted"], facts["pegin_accepted_block"]),
        (facts["pegin_unrefundable"], -1),  # since RSKIP551 (Vetiver)
    ):
        data = "0x" + (function.key + encode(["string"], [txid])).hex()
        answer = rpc(devnet, "eth_call", {"to": BRIDGE, "data": data}, "latest")
        (height,) = decode(["int64"], bytes.fromhex(answer[2:]))
        assert height == expected
    data = "0x" + (function.key + encode(["string"], [facts["pegout_btc_txid"]])).hex()
    answer = rpc(devnet, "eth_call", {"to": BRIDGE, "data": data}, "latest")
    assert decode(["int64"], bytes.fromhex(answer[2:]))[0] > facts["pegout_release_block"]


def test_pegin_events_name_the_txid_in_display_order_as_rskj(devnet: Devnet) -> None:
    """pegin_btc, rejected_pegin and unrefundable_pegin carry btcTx.getHash().getBytes().

    rskj's BridgeEventLoggerImpl puts the txid in the order Bitcoin explorers display, so the
    topic is the txid a user types: each event's topic is the txid of the Bitcoin transaction
    its registerBtcTransaction call carried (double SHA-256, byte-reversed).
    """
    events = ("pegin_btc", "rejected_pegin", "unrefundable_pegin")
    logs = rpc(
        devnet,
        "eth_getLogs",
        {"fromBlock": "0x0", "address": BRIDGE, "topics": [[bridge_topic(e) for e in events]]},
    )
    register = bridge_function("registerBtcTransaction")
    seen = set()
    for log in logs:
        event = next(e for e in events if bridge_topic(e) == log["topics"][0])
        tx = rpc(devnet, "eth_getTransactionByHash", log["transactionHash"])
        data = bytes.fromhex(tx["input"][2:])
        assert data[:4] == register.key
        raw, _height, _proof = decode(["bytes", "int256", "bytes"], data[4:])
        txid = parse_tx(raw).txid
        assert txid == hashlib.sha256(hashlib.sha256(raw).digest()).digest()[::-1].hex()
        position = 2 if event == "pegin_btc" else 1  # pegin_btc: receiver, then the txid
        assert log["topics"][position] == "0x" + txid, event
        seen.add(event)
    assert seen == set(events)
