"""Real Rootstock blocks recompute to their hashes, roots and Bitcoin work; a changed one fails."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from eth_hash.auto import keccak
from rlp.codec import encode_raw

from explorer.chain.blockverify import Check, Outcome, verify_block
from explorer.chain.rawheader import read_raw_header
from explorer.chain.rskheader import HeaderFields, encode_header, encodings, header_items
from explorer.chain.rskrules import (
    MAINNET_GENESIS,
    MAINNET_RULES,
    REGTEST_RULES,
    TESTNET_RULES,
    NetworkRules,
    rules_for_chain,
)
from explorer.chain.rsktx import encode_receipt, encode_transaction, transaction_encodings
from explorer.chain.unitrie import trie_root
from tests.helpers.rskblocks import block_files, load

RULES = {"mainnet": MAINNET_RULES, "testnet": TESTNET_RULES}
BLOCKS = [(network, name) for network in RULES for name in block_files(network)]


def _verdict(network: str, name: str) -> Any:
    """Verify one fixture block with its receipts when the file has them."""
    data = load(name)
    return verify_block(data["block"], RULES[network], receipts=data.get("receipts"))


@pytest.mark.parametrize(("network", "name"), BLOCKS)
def test_real_block_recomputes(network: str, name: str) -> None:
    """Hash and Bitcoin work verify; the roots do wherever the file holds what they need."""
    data = load(name)
    verdict = _verdict(network, name)
    assert verdict.verified, verdict.findings
    expected = {
        Check.HASH: Outcome.VERIFIED,
        Check.BITCOIN_WORK: Outcome.VERIFIED,
        Check.TRANSACTIONS_ROOT: Outcome.VERIFIED
        if all(isinstance(t, dict) for t in data["block"]["transactions"])
        else Outcome.UNCHECKED,
        Check.RECEIPTS_ROOT: Outcome.VERIFIED if "receipts" in data else Outcome.UNCHECKED,
    }
    assert {f.check: f.outcome for f in verdict.findings} == expected


def test_testnet_436_header_verifies() -> None:
    """The repository's own testnet header (block 436) recomputes to its hash."""
    block = load("../rsk-testnet/block-0x1b4-header-only.json")
    verdict = verify_block(block, TESTNET_RULES)
    assert verdict.finding(Check.HASH).outcome is Outcome.VERIFIED  # type: ignore[union-attr]
    assert verdict.finding(Check.BITCOIN_WORK).outcome is Outcome.VERIFIED  # type: ignore[union-attr]


def _fields_from_raw(raw: bytes, rules: NetworkRules) -> tuple[HeaderFields, Any]:
    """Read a raw header into HeaderFields (the claimed hash left zero)."""
    header = read_raw_header(raw, rules)
    obj = dict(header.fields)
    obj["hash"] = "0x" + "00" * 32
    obj["uncles"] = ["0x" + "00" * 32] * int(obj["uncleCount"], 16)
    return HeaderFields.from_json(obj), header


@pytest.mark.parametrize(
    ("network", "number"),
    [(n, k) for n in ("mainnet", "testnet") for k in load("raw-headers.json")[n]],
)
def test_json_fields_encode_to_rskj_bytes(network: str, number: str) -> None:
    """A header's JSON-visible fields encode to exactly the bytes rskj stored."""
    raw = bytes.fromhex(load("raw-headers.json")[network][number][2:])
    rules = RULES[network]
    fields, header = _fields_from_raw(raw, rules)
    encoding = next(encodings(fields, rules, header.umm_root))
    items = header_items(fields, rules, encoding, merge_mining=True)
    if rules.merge_mining_compressed(fields.number) and fields.merkle_proof:
        items += [fields.merkle_proof, fields.coinbase_transaction]  # getFullEncoded
    assert bytes(encode_raw(items)) == raw


def test_raw_header_hashes_to_the_json_hash() -> None:
    """rsk_getRawBlockHeaderByHash's answer for testnet 64,746 is keccak-preimage of its hash."""
    raw = bytes.fromhex(load("raw-headers.json")["testnet"]["64746"][2:])
    assert "0x" + keccak(raw).hex() == load("testnet-64746.json")["block"]["hash"]


@pytest.mark.parametrize("number", ["900123", "1234000", "1427888"])
def test_orchid_roots_of_mainnet_remasc_only_blocks(number: str) -> None:
    """Before RSKIP126 the roots hash in the Orchid format; these blocks hold only REMASC."""
    raw = bytes.fromhex(load("raw-headers.json")["mainnet"][number][2:])
    fields, _ = _fields_from_raw(raw, MAINNET_RULES)
    remasc = {
        "hash": "0x" + "00" * 32,
        "nonce": hex(fields.number - 1),
        "gasPrice": "0x0",
        "gas": "0x0",
        "to": "0x0000000000000000000000000000000001000008",
        "value": "0x0",
        "input": "0x",
        "v": "0x0",
        "r": "0x0",
        "s": "0x0",
    }
    assert trie_root([next(transaction_encodings(remasc))], unitrie=False) == (
        fields.transactions_root
    )
    receipt: dict[str, Any] = {"status": "0x1", "cumulativeGasUsed": "0x0", "gasUsed": "0x0"}
    receipt |= {"logsBloom": "0x" + "00" * 256, "logs": []}
    assert trie_root([encode_receipt(receipt)], unitrie=False) == fields.receipts_root


# rskj regtest block 1, a version 2 header (rsksmart/rskj as run by fedejinich/
# rootstack-operator-tools, gorsk/rskblocks/block_header_hash_helper_test.go).
REGTEST_V2_BLOCK: dict[str, Any] = {
    "number": "0x1",
    "hash": "0x90299cad077d0759beee6c9625be98114874d9ae65ede6979752a97112043b63",
    "parentHash": "0x8ea789fabef0dd4946ed53f001e7b6f8a8d0c22a612a6099fc7f93c990af68fe",
    "sha3Uncles": "0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347",
    "miner": "0xec4ddeb4380ad69b3e509baad9f158cdf4e4681d",
    "stateRoot": "0xf276a3a8c9c4eb4dcbbfb9bf6965f36dc611b815614c0d7cd06e15b8890c272c",
    "transactionsRoot": "0x8c9664a30670ddc67aa13992fdd8751b7b797bbe172506ffd5cda10ebbf97952",
    "receiptsRoot": "0x66cfdb731f620cd96e2c2cb0f7d3c3a2879c29b40014aa27efbbf3cf9cd3b0f6",
    "logsBloom": "0x" + "00" * 256,
    "difficulty": "0x1",
    "gasLimit": "0x989680",
    "gasUsed": "0x0",
    "timestamp": "0x69824213",
    "extraData": "0xd40192534e415053484f542d343031373966623937",
    "paidFees": "0x0",
    "minimumGasPrice": "0x0",
    "uncles": [],
    "rskPteEdges": [],
    "baseEvent": None,
}
REGTEST_V2_ENCODING = (
    "f90105a08ea789fabef0dd4946ed53f001e7b6f8a8d0c22a612a6099fc7f93c990af68fea01dcc4de8dec7"
    "5d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d4934794ec4ddeb4380ad69b3e509baad9f158cd"
    "f4e4681da0f276a3a8c9c4eb4dcbbfb9bf6965f36dc611b815614c0d7cd06e15b8890c272ca08c9664a306"
    "70ddc67aa13992fdd8751b7b797bbe172506ffd5cda10ebbf97952a066cfdb731f620cd96e2c2cb0f7d3c3"
    "a2879c29b40014aa27efbbf3cf9cd3b0f6a3e202a09aca8469839f117b1a26abbdea244a32cb0833e387cf"
    "6af9dc13eb336094d3c20101840098968080846982421395d40192534e415053484f542d34303137396662"
    "393780008080"
)


def test_version_2_header_encodes_as_rskj() -> None:
    """RSKIP351/535: the extension data (version 2, hash of bloom, base event, edges)."""
    fields = HeaderFields.from_json(REGTEST_V2_BLOCK)
    encoding = next(encodings(fields, REGTEST_RULES))
    assert encoding.version == 2
    encoded = encode_header(fields, REGTEST_RULES, encoding)
    assert encoded.hex() == REGTEST_V2_ENCODING
    assert "0x" + keccak(encoded).hex() == REGTEST_V2_BLOCK["hash"]


def test_version_1_and_edges_change_the_hash() -> None:
    """The same fields as version 1, or without edges, do not give the version 2 hash."""
    fields = HeaderFields.from_json(REGTEST_V2_BLOCK)
    encoding = next(encodings(fields, REGTEST_RULES))
    hashes = {
        keccak(encode_header(fields, REGTEST_RULES, variant))
        for variant in (
            encoding,
            encoding.__class__(1, encoding.gas_limit, encoding.difficulty, (), b""),
            encoding.__class__(2, encoding.gas_limit, encoding.difficulty, None, b""),
            encoding.__class__(0, encoding.gas_limit, encoding.difficulty, None, b""),
        )
    }
    assert len(hashes) == 4


def test_genesis_is_compared_not_recomputed() -> None:
    """Block 0 verifies by the hash rskj ships; another hash is named; regtest is unknown."""
    genesis = {"number": "0x0", "hash": MAINNET_GENESIS}
    assert verify_block(genesis, MAINNET_RULES).verified
    other = {"number": "0x0", "hash": "0x" + "11" * 32}
    assert verify_block(other, MAINNET_RULES).mismatch is not None
    unknown = verify_block(other, REGTEST_RULES)
    assert not unknown.verified
    assert unknown.mismatch is None


def test_unknown_chain_and_pending_block_are_unchecked() -> None:
    """No rules for a chain id, or a pending block: nothing verified, nothing failed."""
    block = load("mainnet-9000000.json")["block"]
    assert rules_for_chain(1) is None
    for verdict in (verify_block(block, None), verify_block(block | {"hash": None}, None)):
        assert not verdict.verified
        assert verdict.mismatch is None


# Every field a block's hash, roots or work binding covers, and the check that catches it.
HEADER_FIELDS = {
    "parentHash": Check.HASH,
    "sha3Uncles": Check.HASH,
    "miner": Check.HASH,
    "stateRoot": Check.HASH,
    "transactionsRoot": Check.HASH,
    "receiptsRoot": Check.HASH,
    "logsBloom": Check.HASH,
    "difficulty": Check.HASH,
    "number": Check.HASH,
    "gasLimit": Check.HASH,
    "gasUsed": Check.HASH,
    "timestamp": Check.HASH,
    "extraData": Check.HASH,
    "paidFees": Check.HASH,
    "minimumGasPrice": Check.HASH,
    "uncles": Check.HASH,
    "hash": Check.HASH,
    "bitcoinMergedMiningHeader": Check.HASH,
    "bitcoinMergedMiningCoinbaseTransaction": Check.BITCOIN_WORK,
    "bitcoinMergedMiningMerkleProof": Check.BITCOIN_WORK,
    "hashForMergedMining": Check.BITCOIN_WORK,
}


def _changed(value: Any) -> Any:
    """Return a value changed by the least: one hex digit flipped, or a hash more or less."""
    if isinstance(value, list):
        return [*value, "0x" + "ab" * 32] if len(value) < 2 else value[:-1]
    if value is None:
        return "0x1"
    text = str(value)
    last = text[-1]
    return text[:-1] + ("1" if last != "1" else "2")


@pytest.mark.parametrize(("network", "name"), BLOCKS)
@pytest.mark.parametrize("key", sorted(HEADER_FIELDS))
def test_a_changed_header_field_is_caught(network: str, name: str, key: str) -> None:
    """One field changed in any real block: it no longer verifies, the failing check named."""
    data = copy.deepcopy(load(name))
    data["block"][key] = _changed(data["block"].get(key))
    verdict = verify_block(data["block"], RULES[network], receipts=data.get("receipts"))
    assert not verdict.verified
    assert verdict.mismatch is not None
    assert verdict.mismatch.check is HEADER_FIELDS[key]


TX_FIELDS = ("nonce", "gasPrice", "gas", "to", "value", "input", "v", "r", "s", "hash")
RECEIPT_FIELDS = ("status", "cumulativeGasUsed", "gasUsed", "logsBloom", "logs")


@pytest.mark.parametrize("key", TX_FIELDS)
def test_a_changed_transaction_field_is_caught(key: str) -> None:
    """A transaction changed in the block: the transactions root no longer verifies."""
    data = copy.deepcopy(load("testnet-798248.json"))
    tx = data["block"]["transactions"][2]
    tx[key] = _changed(tx[key])
    verdict = verify_block(data["block"], TESTNET_RULES, receipts=data["receipts"])
    assert verdict.mismatch is not None
    assert verdict.mismatch.check in (Check.TRANSACTIONS_ROOT, Check.RECEIPTS_ROOT)
    assert verdict.finding(Check.TRANSACTIONS_ROOT).outcome is Outcome.MISMATCH  # type: ignore[union-attr]


@pytest.mark.parametrize("key", RECEIPT_FIELDS)
def test_a_changed_receipt_field_is_caught(key: str) -> None:
    """A receipt changed: the receipts root no longer verifies (and says so)."""
    data = copy.deepcopy(load("testnet-798248.json"))
    receipt = data["receipts"][2]
    if key == "logs":
        receipt["logs"][0]["data"] = _changed(receipt["logs"][0]["data"] + "00")
    else:
        receipt[key] = "0x0" if key == "status" else _changed(receipt[key])
    verdict = verify_block(data["block"], TESTNET_RULES, receipts=data["receipts"])
    assert verdict.mismatch is not None
    assert verdict.mismatch.check is Check.RECEIPTS_ROOT


def test_mainnet_transactions_hash_from_their_fields() -> None:
    """Mainnet transactions (EIP-155 and not) re-encode to their hashes."""
    for entry in load("mainnet-transactions.json"):
        assert encode_transaction(entry["transaction"], 30).matches


@pytest.mark.parametrize("change", ["drop", "swap", "add"])
def test_transactions_dropped_swapped_or_added_are_caught(change: str) -> None:
    """Each transaction still hashes to itself, but the list is not the block's: root differs."""
    data = copy.deepcopy(load("testnet-798248.json"))
    txs = data["block"]["transactions"]
    if change == "drop":
        del txs[1]
    elif change == "swap":
        txs[1], txs[2] = txs[2], txs[1]
    else:
        txs.insert(0, load("testnet-256082.json")["block"]["transactions"][0])
    verdict = verify_block(data["block"], TESTNET_RULES)
    found = verdict.finding(Check.TRANSACTIONS_ROOT)
    assert found is not None
    assert found.outcome is Outcome.MISMATCH
    assert found.detail.startswith("recomputed 0x")


UNREADABLE: tuple[Any, ...] = (
    "zz",
    "0xg0",
    7,
    [],
    {},
    "0x" + "f" * 80,
)  # "0x" and null read as zero or empty


@pytest.mark.parametrize("value", UNREADABLE, ids=repr)
def test_unreadable_transactions_and_receipts_are_named_never_raised(value: Any) -> None:
    """Whatever a node puts in a transaction or receipt, verify_block answers with a mismatch."""
    data = load("testnet-798248.json")
    for key in [*TX_FIELDS, "whole"]:
        block = copy.deepcopy(data["block"])
        if key == "whole":
            block["transactions"][5] = value
        else:
            block["transactions"][5][key] = value
        verdict = verify_block(block, TESTNET_RULES, receipts=data["receipts"])
        assert verdict.mismatch is not None, key
        assert verdict.mismatch.check is not Check.BITCOIN_WORK, key  # a listing or a root
    for key in [*RECEIPT_FIELDS, "whole"]:
        receipts = copy.deepcopy(data["receipts"])
        if key == "whole":
            receipts[6] = value
        else:
            receipts[6][key] = value
        verdict = verify_block(data["block"], TESTNET_RULES, receipts=receipts)
        assert verdict.mismatch is not None, key
        assert verdict.mismatch.check is Check.RECEIPTS_ROOT, key


@pytest.mark.parametrize(("network", "name"), BLOCKS)
def test_a_worker_gives_way_between_every_transaction_and_receipt(network: str, name: str) -> None:
    """`between` runs before each transaction and receipt is encoded; the verdict is the same.

    A worker thread hands the interpreter to the GUI thread there (`give_way`).
    """
    data = load(name)
    calls: list[None] = []
    verdict = verify_block(
        data["block"],
        RULES[network],
        receipts=data.get("receipts"),
        between=lambda: calls.append(None),
    )
    assert verdict == _verdict(network, name)
    full = all(isinstance(t, dict) for t in data["block"]["transactions"])
    transactions = len(data["block"]["transactions"]) if full else 0
    assert len(calls) == transactions + len(data.get("receipts") or [])
