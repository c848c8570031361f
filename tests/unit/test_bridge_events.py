"""The Bridge's and REMASC's logs in every format, hand-built from rskj's event definitions."""

from __future__ import annotations

import rlp
from eth_abi.abi import encode
from eth_utils.crypto import keccak

from explorer.chain.bridge_abi import BRIDGE_ABI_VERSION, bridge_function
from explorer.chain.bridge_events import (
    REJECTED_PEGIN_REASONS,
    AddSignature,
    BatchPegoutCreated,
    CommitFederation,
    LockBtc,
    PeginBtc,
    PegoutConfirmed,
    PegoutTransactionCreated,
    RejectedPegin,
    ReleaseBtc,
    ReleaseRequested,
    ReleaseRequestReceived,
    ReleaseRequestRejected,
    UnrefundablePegin,
    UpdateCollections,
    pegout_amount_in_wei,
    pegout_amount_sat,
    reason_text,
)
from explorer.chain.bridge_logs import decode_bridge_log, decode_system_log, system_event_name
from explorer.chain.known import BRIDGE, REMASC
from explorer.chain.peg import MAINNET_PEG, TESTNET_PEG
from explorer.chain.records import Transaction
from explorer.chain.remasc import decode_remasc_log
from explorer.services.pegin import FLYOVER_LBC, is_flyover
from tests.helpers.bitcoin import GENESIS_COINBASE, GENESIS_TXID

SENDER = "0x" + "ab" * 20
TXID = bytes.fromhex("11" * 32)
RSK_TX = bytes.fromhex("22" * 32)
# topic0s: rskj's BridgeEvents, keccak of the canonical signatures (docs/service.md §16)
TOPICS = {
    "lock_btc": "0xec2232bdbe54a92238ce7a6b45d53fb31f919496c6abe1554be1cc8eddb6600a",
    "pegin_btc": "0x44cdc782a38244afd68336ab92a0b39f864d6c0b2a50fa1da58cafc93cd2ae5a",
    "rejected_pegin": "0x708ce1ead20561c5894a93be3fee64b326b2ad6c198f8253e4bb56f1626053d6",
    "unrefundable_pegin": "0x35be155c87e408cbbcb753dc12f95fc5a242a29460a3d7189e807e63d7c185a7",
    "release_request_received_bytes": (
        "0x8e04e2f2c246a91202761c435d6a4971bdc7af0617f0c739d900ecd12a6d7266"
    ),
    "release_request_received": (
        "0x1a4457a4460d48b40c5280955faf8e4685fa73f0866f7d8f573bdd8e64aca5b1"
    ),
    "release_request_rejected": (
        "0xb607c3e1fbe6b38cd145b15b837f7b722b199caa60e3057b36c141adee3b75e7"
    ),
    "update_collections": "0x1069152f4f916cbf155ee32a695d92258481944edb5b6fd649718fc1b43e515e",
    "release_requested": "0x7a7c29481528ac8c2b2e93aee658fddd4dc15304fa723a5c2b88514557bcc790",
    "batch_pegout_created": "0x483d0191cc4e784b04a41f6c4801a0766b43b1fdd0b9e3e6bfdca74e5b05c2eb",
    "pegout_transaction_created": (
        "0x9ee5d520fd5e6eaea3fd2e3ae4e35e9a9c0fb05c9d8f84b507f287da84b5117c"
    ),
    "pegout_confirmed": "0xc287f602476eeef8a547a3b82e79045c827c51362ff153f728b6d839bad099ef",
    "add_signature": "0x83b6efe3a7d95459577ec9396f5d6f1e486ca2378130e2ba4d98a4da108ca743",
    "release_btc": "0x655929b56d5c5a24f81ee80267d5151b9d680e7e703387999922e9070bc98a02",
    "commit_federation": "0x5b9466a0b50d1cab12eeb0b3b5d387ece7659afcc56bb15704535e6954de8c4e",
}


def word(value: bytes | str) -> str:
    """Return a topic: 32 bytes, an address left-padded."""
    raw = bytes.fromhex(value[2:]) if isinstance(value, str) else value
    return "0x" + raw.rjust(32, b"\0").hex()


def ascii_topic(text: str) -> str:
    """Return rskj's DataWord.fromString: the ASCII text right-aligned in 32 bytes."""
    return "0x" + ("00" * (32 - len(text))) + text.encode().hex()


def test_topic0s_are_the_keccak_of_rskjs_signatures() -> None:
    signatures = {
        "lock_btc": "lock_btc(address,bytes32,string,int256)",
        "release_request_received_bytes": "release_request_received(address,bytes,uint256)",
        "release_request_received": "release_request_received(address,string,uint256)",
        "pegout_transaction_created": "pegout_transaction_created(bytes32,bytes)",
    }
    for name, signature in signatures.items():
        assert "0x" + keccak(text=signature).hex() == TOPICS[name]


def test_abi_events_decode_to_typed_records() -> None:
    cases = [
        (
            [TOPICS["lock_btc"], word(SENDER)],
            encode(["bytes32", "string", "int256"], [TXID, "mxyz", 7]),
            LockBtc(SENDER, TXID.hex(), "mxyz", 7),
        ),
        (
            [TOPICS["pegin_btc"], word(SENDER), word(TXID)],
            encode(["int256", "int256"], [500_000, 1]),
            PeginBtc(SENDER, TXID.hex(), 500_000, 1),
        ),
        (
            [TOPICS["rejected_pegin"], word(TXID)],
            encode(["int256"], [5]),
            RejectedPegin(TXID.hex(), 5),
        ),
        (
            [TOPICS["unrefundable_pegin"], word(TXID)],
            encode(["int256"], [3]),
            UnrefundablePegin(TXID.hex(), 3),
        ),
        (
            [TOPICS["release_request_received_bytes"], word(SENDER)],
            encode(["bytes", "uint256"], [b"\x01" * 20, 600_000]),
            ReleaseRequestReceived(SENDER, b"\x01" * 20, 600_000),
        ),
        (
            [TOPICS["release_request_received"], word(SENDER)],
            encode(["string", "uint256"], ["mnhGsnFWoH6HUnMGRhz5zmK7J7kMvRLJpB", 10**16]),
            ReleaseRequestReceived(SENDER, "mnhGsnFWoH6HUnMGRhz5zmK7J7kMvRLJpB", 10**16),
        ),
        (
            [TOPICS["release_request_rejected"], word(SENDER)],
            encode(["uint256", "int256"], [100, 1]),
            ReleaseRequestRejected(SENDER, 100, 1),
        ),
        ([TOPICS["update_collections"]], encode(["address"], [SENDER]), UpdateCollections(SENDER)),
        (
            [TOPICS["release_requested"], word(RSK_TX), word(TXID)],
            encode(["uint256"], [9]),
            ReleaseRequested("0x" + RSK_TX.hex(), TXID.hex(), 9),
        ),
        (
            [TOPICS["batch_pegout_created"], word(TXID)],
            encode(["bytes"], [RSK_TX + TXID]),
            BatchPegoutCreated(TXID.hex(), ("0x" + RSK_TX.hex(), "0x" + TXID.hex())),
        ),
        (
            [TOPICS["pegout_transaction_created"], word(TXID)],
            encode(["bytes"], [bytes.fromhex("fd0302fe00e1f505")]),
            PegoutTransactionCreated(TXID.hex(), (0x0203, 100_000_000)),
        ),
        (
            [TOPICS["pegout_confirmed"], word(TXID)],
            encode(["uint256"], [77]),
            PegoutConfirmed(TXID.hex(), 77),
        ),
        (
            [TOPICS["add_signature"], word(RSK_TX), word(SENDER)],
            encode(["bytes"], [b"\x02" * 33]),
            AddSignature("0x" + RSK_TX.hex(), SENDER, b"\x02" * 33),
        ),
    ]
    for topics, data, expected in cases:
        decoded = decode_bridge_log(topics, data)
        assert decoded is not None, expected
        assert not decoded.legacy

        assert decoded.event == expected


def test_release_btc_carries_the_signed_transaction_and_its_real_txid() -> None:
    raw = bytes.fromhex(GENESIS_COINBASE)
    decoded = decode_bridge_log([TOPICS["release_btc"], word(RSK_TX)], encode(["bytes"], [raw]))
    assert decoded is not None
    assert isinstance(decoded.event, ReleaseBtc)
    assert decoded.event.tx is not None
    assert decoded.event.tx.txid == GENESIS_TXID
    broken = decode_bridge_log([TOPICS["release_btc"], word(RSK_TX)], encode(["bytes"], [b"\x01"]))
    assert broken is not None
    assert isinstance(broken.event, ReleaseBtc)
    assert broken.event.tx is None
    assert broken.event.error


def test_commit_federation_in_both_formats() -> None:
    data = encode(
        ["bytes", "string", "bytes", "string", "int256"],
        [b"\x02" * 33, "old", b"\x03" * 33, "new", 100],
    )
    decoded = decode_bridge_log([TOPICS["commit_federation"]], data)
    assert decoded is not None
    assert isinstance(decoded.event, CommitFederation)
    assert decoded.event.new_address == "new"
    assert decoded.event.activation_height == 100
    legacy = rlp.encode([[b"\x05" * 20, [b"\x02" * 33]], [b"\x06" * 20, [b"\x03" * 33]], b"1234"])
    old = decode_bridge_log([ascii_topic("commit_federation_topic")], legacy)
    assert old is not None
    assert old.legacy
    assert isinstance(old.event, CommitFederation)
    assert old.event.new_address == b"\x06" * 20
    assert old.event.activation_height == 1234


def test_pre_rskip146_events_are_rlp_under_ascii_topics() -> None:
    raw = bytes.fromhex(GENESIS_COINBASE)
    release = decode_bridge_log(
        [ascii_topic("release_btc_topic")], rlp.encode([GENESIS_TXID.encode(), raw])
    )
    assert release is not None
    assert release.legacy
    assert isinstance(release.event, ReleaseBtc)
    assert release.event.legacy_txid == GENESIS_TXID
    assert release.event.tx is not None
    assert release.event.release_rsk_tx_hash is None
    update = decode_bridge_log([ascii_topic("update_collections_topic")], rlp.encode(b"\xab" * 20))
    assert update is not None
    assert update.event == UpdateCollections(SENDER)
    signature = decode_bridge_log(
        [ascii_topic("add_signature_topic")],
        rlp.encode([GENESIS_TXID.encode(), b"\x07" * 20, RSK_TX]),
    )
    assert signature is not None
    assert isinstance(signature.event, AddSignature)
    assert signature.event.federator is None
    assert signature.event.btc_txid == GENESIS_TXID
    assert decode_bridge_log([ascii_topic("release_btc_topic")], b"\xff\x00") is None
    assert system_event_name(
        BRIDGE, [ascii_topic("update_collections_topic")], rlp.encode(b"\xab" * 20)
    ) == ("update_collections (pre-RSKIP146 RLP)")


def test_remasc_payments() -> None:
    topic = ascii_topic("mining_fee_topic")
    assert topic == "0x000000000000000000000000000000006d696e696e675f6665655f746f706963"
    block = b"\x33" * 32
    payment = decode_remasc_log([topic, word(SENDER)], rlp.encode([block, 10**15]))
    assert payment is not None
    assert (payment.receiver, payment.paid_block_hash, payment.amount) == (
        SENDER,
        "0x" + block.hex(),
        10**15,
    )
    assert decode_system_log(REMASC, [topic, word(SENDER)], rlp.encode([block, 0])) is not None
    assert decode_system_log(BRIDGE, [topic, word(SENDER)], rlp.encode([block, 0])) is None
    assert decode_remasc_log([topic, word(SENDER)], rlp.encode([b"\x01", 5])) is None


def test_pegout_amounts_in_satoshis_or_wei_per_rskip427() -> None:
    """The value settles it; else the size of an accepted amount; else the upgrade's height."""
    lovell = MAINNET_PEG.upgrades["Lovell"]
    wei = ReleaseRequestReceived(SENDER, "addr", 5 * 10**15)
    sat = ReleaseRequestReceived(SENDER, "addr", 500_000)
    assert pegout_amount_in_wei(wei, None, MAINNET_PEG)
    assert not pegout_amount_in_wei(sat, lovell + 1, MAINNET_PEG, tx_value=5 * 10**15)
    assert pegout_amount_sat(wei, lovell - 1, MAINNET_PEG) == 500_000
    rejected = ReleaseRequestRejected(SENDER, 1000, 1)
    assert pegout_amount_in_wei(rejected, lovell, MAINNET_PEG)
    assert not pegout_amount_in_wei(rejected, lovell - 1, MAINNET_PEG)
    assert pegout_amount_in_wei(rejected, lovell - 1, MAINNET_PEG, tx_value=1000)
    assert not pegout_amount_in_wei(rejected, TESTNET_PEG.upgrades["Lovell"] - 1, TESTNET_PEG)
    legacy = ReleaseRequestReceived(SENDER, b"\x01" * 20, 600_000)
    assert not pegout_amount_in_wei(legacy, lovell + 1, MAINNET_PEG)


def test_reasons_are_words() -> None:
    assert reason_text(REJECTED_PEGIN_REASONS, 5) == (
        "the amount is below the minimum peg-in (reason 5)"
    )
    assert "unknown" in reason_text(REJECTED_PEGIN_REASONS, 99)


def test_bundled_abi_names_its_version_and_the_selectors_of_rskj() -> None:
    assert BRIDGE_ABI_VERSION.endswith("8.0.0-REED")
    selectors = {
        "getBtcTxHashProcessedHeight": "97fcca7d",
        "getFederationAddress": "6923fa85",
        "registerBtcTransaction": "43dc0656",
        "registerFastBridgeBtcTransaction": "6adc0133",
        "getEstimatedFeesForPegOutAmount": "d2b712f4",
        "getNextPegoutCreationBlockNumber": "e34f834f",
    }
    for name, selector in selectors.items():
        assert bridge_function(name).key.hex() == selector, name


def registering(to: str, data: bytes) -> Transaction:
    """Return a mined transaction record calling `to` with data."""
    return Transaction.from_json(
        {
            "hash": "0x" + "44" * 32,
            "nonce": "0x1",
            "blockHash": "0x" + "55" * 32,
            "blockNumber": "0x10",
            "transactionIndex": "0x0",
            "from": SENDER,
            "to": to,
            "value": "0x0",
            "gas": "0x5208",
            "gasPrice": "0x1",
            "input": "0x" + data.hex(),
            "v": "0x1b",
            "r": "0x1",
            "s": "0x1",
        }
    )


def test_flyover_is_named_by_its_registering_call() -> None:
    fast = bridge_function("registerFastBridgeBtcTransaction").key + b"\x00" * 32
    plain = bridge_function("registerBtcTransaction").key + b"\x00" * 32
    assert is_flyover(registering(BRIDGE, fast), 31)
    assert not is_flyover(registering(BRIDGE, plain), 31)
    assert is_flyover(registering(FLYOVER_LBC[30], b"\x01\x02\x03\x04"), 30)
    assert not is_flyover(registering(FLYOVER_LBC[30], b"\x01\x02\x03\x04"), 31)
    assert not is_flyover(None, 30)
