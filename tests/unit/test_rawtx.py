"""A pasted signed transaction decodes to eth-account's and py-evm's fields, or is refused."""

from __future__ import annotations

from typing import Any

import pytest
import rlp
from eth.vm.forks.berlin.transactions import BerlinTransactionBuilder
from eth_account import Account
from eth_account._utils.legacy_transactions import Transaction as EthAccountLegacy
from eth_keys.constants import SECPK1_N
from hypothesis import given
from hypothesis import strategies as st

from explorer.services.rawtx import (
    Refusal,
    RefusalKind,
    SignedTx,
    chain_refusal,
    decode_for,
    decode_signed,
)

KEY = "0x" + "4c" * 32
SENDER = Account.from_key(KEY).address.lower()
TRANSFER: dict[str, Any] = {
    "nonce": 7,
    "gasPrice": 66_000_000,
    "gas": 21_000,
    "to": "0x" + "11" * 20,
    "value": 12345,
    "data": b"",
}


def signed(**changes: Any) -> bytes:
    """Return a legacy transaction signed by eth-account with the test key."""
    fields = {**TRANSFER, **changes}
    return bytes(Account.from_key(KEY).sign_transaction(fields).raw_transaction)


def decoded(raw: bytes | str) -> SignedTx:
    """Decode and insist it is a transaction, not a refusal."""
    result = decode_signed(raw if isinstance(raw, str) else "0x" + raw.hex())
    assert isinstance(result, SignedTx), result
    return result


def refusal(text: str) -> Refusal:
    """Decode and insist it is refused."""
    result = decode_signed(text)
    assert isinstance(result, Refusal), result
    return result


@pytest.mark.parametrize("chain_id", [31, 30, None])
def test_fields_match_eth_account_and_py_evm(chain_id: int | None) -> None:
    extra = {"chainId": chain_id} if chain_id is not None else {}
    raw = signed(data=bytes.fromhex("a9059cbb" + "00" * 64), **extra)
    ours = decoded(raw)
    theirs = EthAccountLegacy.from_bytes(raw)
    evm = BerlinTransactionBuilder.decode(raw)
    assert ours.nonce == theirs.nonce == evm.nonce
    assert ours.gas_price == theirs.gasPrice == evm.gas_price
    assert ours.gas == theirs.gas == evm.gas
    assert ours.to == "0x" + bytes(theirs.to).hex() == "0x" + bytes(evm.to).hex()
    assert ours.value == theirs.value == evm.value
    assert ours.data == bytes(theirs.data) == evm.data
    assert (ours.v, ours.r, ours.s) == (theirs.v, theirs.r, theirs.s)
    assert ours.sender == SENDER == "0x" + bytes(evm.sender).hex()
    assert ours.hash == "0x" + bytes(evm.hash).hex()
    assert ours.chain_id == chain_id == evm.chain_id


def test_contract_creation_has_no_to_and_a_call_object_without_one() -> None:
    creation = decoded(signed(to=b"", data=b"\x60\x00", gas=100_000, chainId=31))
    assert creation.to is None
    assert creation.is_contract_creation
    assert "to" not in creation.call_object()
    assert creation.method is None


def test_method_is_decoded_with_the_bundled_signatures() -> None:
    data = bytes.fromhex("a9059cbb" + "00" * 12 + "22" * 20 + f"{5:064x}")
    method = decoded(signed(data=data, chainId=31)).method
    assert method is not None
    assert method.signature.startswith("transfer(")


def test_spaces_line_breaks_and_a_missing_prefix_are_accepted() -> None:
    text = signed(chainId=31).hex()
    wrapped = "\n".join(text[i : i + 40] for i in range(0, len(text), 40))
    assert decoded("  " + wrapped + "\n").hash == decoded(signed(chainId=31)).hash


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("", RefusalKind.EMPTY),
        ("   ", RefusalKind.EMPTY),
        ("0x", RefusalKind.NOT_HEX),
        ("hello", RefusalKind.NOT_HEX),
        ("0xf86", RefusalKind.NOT_HEX),
        ("0xc0", RefusalKind.NOT_A_TRANSACTION),
        ("0x83616263", RefusalKind.NOT_A_TRANSACTION),
        ("0xf8", RefusalKind.NOT_A_TRANSACTION),
    ],
)
def test_what_is_not_a_transaction_is_refused(text: str, kind: RefusalKind) -> None:
    assert refusal(text).kind is kind


def test_cut_short_or_extended_bytes_are_not_a_transaction() -> None:
    raw = signed(chainId=31)
    assert refusal("0x" + raw[:-1].hex()).kind is RefusalKind.NOT_A_TRANSACTION
    assert refusal("0x" + raw.hex() + "00").kind is RefusalKind.NOT_A_TRANSACTION


def test_typed_transactions_are_unsupported() -> None:
    fee_market = {**TRANSFER, "maxFeePerGas": 66_000_000, "maxPriorityFeePerGas": 1, "chainId": 31}
    del fee_market["gasPrice"]
    raw = bytes(Account.from_key(KEY).sign_transaction(fee_market).raw_transaction)
    refused = refusal("0x" + raw.hex())
    assert refused.kind is RefusalKind.UNSUPPORTED_TYPE
    assert "type 2" in refused.message
    assert "legacy" in refused.message


def with_items(raw: bytes, **replaced: int) -> str:
    """Return the transaction with some of its nine items replaced (by position name)."""
    names = ("nonce", "gas_price", "gas", "to", "value", "data", "v", "r", "s")
    items = rlp.decode(raw)
    for name, value in replaced.items():
        items[names.index(name)] = value.to_bytes((value.bit_length() + 7) // 8, "big")
    encoded: bytes = rlp.encode(items)
    return "0x" + encoded.hex()


@pytest.mark.parametrize(
    "changes",
    [{"r": 0}, {"s": 0}, {"s": SECPK1_N}, {"v": 5}, {"v": 29}],
)
def test_impossible_signatures_are_refused(changes: dict[str, int]) -> None:
    assert refusal(with_items(signed(chainId=31), **changes)).kind is RefusalKind.BAD_SIGNATURE


def test_a_high_s_signature_is_refused_as_rootstock_refuses_it() -> None:
    raw = signed(chainId=31)
    fields = EthAccountLegacy.from_bytes(raw)
    flipped_v = 31 * 2 + 35 + (1 - (fields.v - 35) % 2)
    high = with_items(raw, s=SECPK1_N - fields.s, v=flipped_v)
    refused = refusal(high)
    assert refused.kind is RefusalKind.BAD_SIGNATURE
    assert "EIP-2" in refused.message


def test_another_chain_is_refused_and_no_chain_id_is_not() -> None:
    mainnet = decoded(signed(chainId=30))
    chain_refused = chain_refusal(mainnet, 31, "Rootstock Testnet")
    assert chain_refused is not None
    assert chain_refused.kind is RefusalKind.WRONG_CHAIN
    assert "chain id 30" in chain_refused.message
    assert chain_refusal(decoded(signed()), 31, "Rootstock Testnet") is None
    assert isinstance(decode_for("0x" + signed(chainId=31).hex(), 31, "Testnet"), SignedTx)


@given(st.binary(max_size=200))
def test_any_bytes_decode_or_are_refused(data: bytes) -> None:
    result = decode_signed("0x" + data.hex())
    assert isinstance(result, SignedTx | Refusal)


@given(st.text(max_size=80))
def test_any_text_decodes_or_is_refused(text: str) -> None:
    assert isinstance(decode_signed(text), SignedTx | Refusal)
