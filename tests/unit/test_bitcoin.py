"""Bitcoin transactions and addresses: public test vectors (BIP 173/350, BIP 143, genesis)."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from explorer.chain.btc_address import (
    BTC_MAIN,
    BTC_TEST,
    btc_text,
    op_return_data,
    p2pkh_address,
    parse_btc_address,
    script_address,
    script_kind,
    segwit_address,
)
from explorer.chain.btc_tx import BitcoinTxError, encode_varints, parse_tx, parse_varints
from tests.helpers.bitcoin import GENESIS_COINBASE, GENESIS_TXID

# The Bitcoin genesis block's coinbase and its txid, as every explorer shows them.
# BIP 143's native P2WPKH example, signed (one legacy input, one witness input).
BIP143_SIGNED = (
    "01000000000102fff7f7881a8099afa6940d42d1e7f6362bec38171ea3edf433541db4e4ad969f0000000049"
    "4830450221008b9d1dc26ba6a9cb62127b02742fa9d754cd3bebf337f7a55d114c8e5cdd30be022040529b19"
    "4ba3f9281a99f2b1c0a19c0489bc22ede944ccf4ecbab4cc618ef3ed01eeffffffef51e1b804cc89d182d279"
    "655c3aa89e815b1b309fe287d9b2b55d57b90ec68a0100000000ffffffff02202cb206000000001976a91482"
    "80b37df378db99f66f85c95a783a76ac7a6d5988ac9093510d000000001976a9143bde42dbee7e4dbe6a21b2"
    "d50ce2f0167faa815988ac000247304402203609e17b84f6a7d30c80bfa610b5b4542f32a8a0d5447a12fb13"
    "66d7f01cc44a0220573a954c4518331561406f90300e8f3358f51928d43c212a8caed02de67eebee0121025476"
    "c2e83188368da1ff3e292e7acafcdb3566bb0ad253f62fc70f07aeeb635711000000"
)


def test_genesis_coinbase_txid_and_round_trip() -> None:
    raw = bytes.fromhex(GENESIS_COINBASE)
    tx = parse_tx(raw)
    assert tx.txid == GENESIS_TXID
    assert tx.inputs[0].is_coinbase
    assert tx.outputs[0].value == 50 * 100_000_000
    assert tx.outputs[0].kind == "P2PK"
    assert tx.serialize() == raw


def test_segwit_txid_is_of_the_bytes_without_witnesses() -> None:
    """The txid hashes the legacy serialization; the wtxid the whole (BIP 141/144)."""
    raw = bytes.fromhex(BIP143_SIGNED)
    tx = parse_tx(raw)
    assert tx.has_witness
    assert tx.serialize() == raw
    assert [len(i.witness) for i in tx.inputs] == [0, 2]
    witness_start = raw.index(bytes.fromhex("0002473044"))  # the witness block, by hand
    legacy = raw[:4] + raw[6:witness_start] + raw[-4:]
    expected = hashlib.sha256(hashlib.sha256(legacy).digest()).digest()[::-1].hex()
    assert tx.txid == expected != tx.wtxid
    assert [o.address(BTC_MAIN) for o in tx.outputs] == [
        p2pkh_address(bytes.fromhex("8280b37df378db99f66f85c95a783a76ac7a6d59"), BTC_MAIN),
        p2pkh_address(bytes.fromhex("3bde42dbee7e4dbe6a21b2d50ce2f0167faa8159"), BTC_MAIN),
    ]
    assert tx.vsize < tx.size


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "01000000",
        GENESIS_COINBASE[:-2],
        GENESIS_COINBASE + "00",
        "01000000" + "ff" + "ffffffff" * 2,  # a count no bytes could hold
    ],
)
def test_broken_transactions_are_refused(raw: str) -> None:
    with pytest.raises(BitcoinTxError):
        parse_tx(bytes.fromhex(raw))


@given(st.binary(max_size=300))
def test_any_bytes_parse_or_fail_cleanly(data: bytes) -> None:
    try:
        tx = parse_tx(data)
    except BitcoinTxError:
        return
    assert parse_tx(tx.serialize()) == tx


def test_addresses_of_the_public_vectors() -> None:
    """BIP 173 (v0) and BIP 350 (v1) vectors, Satoshi's P2PKH, a P2SH."""
    assert p2pkh_address(bytes.fromhex("62e907b15cbf27d5425399ebf6f0fb50ebb88f18"), BTC_MAIN) == (
        "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa"
    )
    program = bytes.fromhex("751e76e8199196d454941c45d1b3a323f1433bd6")
    assert segwit_address(0, program, BTC_MAIN) == "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"
    assert segwit_address(0, program, BTC_TEST) == "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx"
    taproot = bytes.fromhex("79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798")
    assert segwit_address(1, taproot, BTC_MAIN) == (
        "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0"
    )
    for text, network, kind in (
        ("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa", BTC_MAIN, "P2PKH"),
        ("3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy", BTC_MAIN, "P2SH"),
        ("mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn", BTC_TEST, "P2PKH"),
        ("tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx", BTC_TEST, "P2WPKH"),
        ("bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0", BTC_MAIN, "P2TR"),
    ):
        parsed = parse_btc_address(text)
        assert parsed is not None, text
        assert (parsed.network, parsed.kind) == (network, kind), text

    for bad in (
        "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb",
        "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj1",
        "hello",
        "",
    ):
        assert parse_btc_address(bad) is None, bad


def test_script_kinds_and_op_return() -> None:
    p2sh = bytes.fromhex("a914" + "b472a266d0bd89c13706a4132ccfb16f7c3b9fcb" + "87")
    assert script_kind(p2sh) == "P2SH"
    assert script_address(p2sh, BTC_MAIN) == "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy"
    assert op_return_data(bytes.fromhex("6a0452534b54")) == b"RSKT"
    assert op_return_data(bytes.fromhex("6a0552534b54")) is None  # a push longer than the script
    assert script_kind(bytes.fromhex("6a0452534b54")) == "OP_RETURN"
    assert script_address(bytes.fromhex("6a0452534b54"), BTC_MAIN) is None


@given(st.lists(st.integers(min_value=0, max_value=2**64 - 1), max_size=20))
def test_varint_lists_round_trip(values: list[int]) -> None:
    assert parse_varints(encode_varints(values)) == tuple(values)


def test_btc_text_is_exact() -> None:
    assert btc_text(500_000) == "0.00500000 BTC"
    assert btc_text(2_100_000_000_000_000) == "21,000,000.00000000 BTC"
    assert btc_text(-1) == "−0.00000001 BTC"
